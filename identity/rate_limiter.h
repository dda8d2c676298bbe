// Fixed-window rate limits counted in the store, so every node sharing a database sees the same
// window: one atomic UPSERT per request, or, for a policy that allows slices, one per slice of
// requests a node takes from the window at once. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "storage/store.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace sightline::identity {

struct RateLimitPolicy {
  std::string name = "per-minute";  // the policy name in RateLimit-Policy
  std::int64_t quota = 1000;
  std::int64_t window_seconds = 60;
  // Requests a node may take from the shared window with one store write. 1: every request
  // writes (exact across nodes; needed with Peek). More: a busy bucket claims growing slices
  // (1, 2, 4, … up to this and to a sixteenth of the quota) and counts them down in memory, so
  // one node is still exact, and several refuse at most their unused slices early.
  std::int64_t max_slice = 1;
};

struct RateDecision {
  bool allowed = true;
  std::int64_t limit = 0;
  std::int64_t remaining = 0;      // after this request, never negative
  std::int64_t reset_seconds = 0;  // until the window ends (at least 1)
};

class RateLimiter {
 public:
  RateLimiter(storage::Store& store, const core::Clock& clock, RateLimitPolicy policy)
      : store_(store), clock_(clock), policy_(std::move(policy)) {}

  // Counts one request for `bucket` ("key:<id>", "user:<id>", "ip:<address>").
  core::Result<RateDecision> Hit(const std::string& bucket);
  // Whether `bucket` is still within its quota, counting nothing (for limits on failures only:
  // check, try, and Hit when the try failed).
  core::Result<RateDecision> Peek(const std::string& bucket);
  const RateLimitPolicy& policy() const { return policy_; }

 private:
  // What this node holds of one bucket's current window.
  struct Slice {
    std::int64_t window_start = -1;
    std::int64_t available = 0;    // claimed in the store, not used yet
    std::int64_t size = 0;         // of the last claim
    std::int64_t store_count = 0;  // the window's granted count after the last claim
  };
  struct Window {
    std::int64_t now = 0, start = 0, length = 0;
  };
  Window CurrentWindow() const;
  // The largest slice a claim may take; 1 counts every request with its own write.
  std::int64_t SliceCap() const { return std::min(policy_.max_slice, policy_.quota / 16); }
  core::Result<void> PruneEveryOnceInAWhile(const Window& window);
  core::Result<RateDecision> HitWithSlices(const std::string& bucket, const Window& window);
  RateDecision Decision(const Window& window, bool allowed, std::int64_t remaining) const;

  storage::Store& store_;
  const core::Clock& clock_;
  const RateLimitPolicy policy_;
  std::atomic<std::uint64_t> hits_{0};
  std::mutex slices_mutex_;
  std::unordered_map<std::string, Slice> slices_;
};

}  // namespace sightline::identity
