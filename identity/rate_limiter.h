// Fixed-window rate limits counted in the store, so every node sharing a database sees the same
// window: one atomic UPSERT per request. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "storage/store.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace sightline::identity {

struct RateLimitPolicy {
  std::string name = "per-minute";  // the policy name in RateLimit-Policy
  std::int64_t quota = 1000;
  std::int64_t window_seconds = 60;
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
  storage::Store& store_;
  const core::Clock& clock_;
  const RateLimitPolicy policy_;
  std::atomic<std::uint64_t> hits_{0};
};

}  // namespace sightline::identity
