#include "identity/rate_limiter.h"
#include "storage/account_repository.h"

#include <algorithm>

namespace sightline::identity {

namespace {
// Old windows are deleted by whichever request happens to be the N-th: no timer thread, and
// the table stays at about (active buckets × 2) rows.
constexpr std::uint64_t kPruneEvery = 1000;
}  // namespace

RateLimiter::Window RateLimiter::CurrentWindow() const {
  Window window;
  window.now = clock_.NowMillis();
  window.length = policy_.window_seconds * 1000;
  window.start = window.now - window.now % window.length;
  return window;
}

RateDecision RateLimiter::Decision(const Window& window, bool allowed,
                                   std::int64_t remaining) const {
  RateDecision decision;
  decision.limit = policy_.quota;
  decision.allowed = allowed;
  decision.remaining = std::max<std::int64_t>(0, remaining);
  decision.reset_seconds =
      std::max<std::int64_t>(1, (window.start + window.length - window.now + 999) / 1000);
  return decision;
}

core::Result<void> RateLimiter::PruneEveryOnceInAWhile(const Window& window) {
  if (++hits_ % kPruneEvery != 0) return {};
  {
    std::lock_guard lock(slices_mutex_);
    std::erase_if(slices_, [&](const auto& entry) { return entry.second.window_start < window.start; });
  }
  auto pruned = store_.WriteOne([&](storage::Transaction& tx) {
    return tx.accounts().PruneRateLimits(window.start - window.length);
  });
  if (!pruned) return pruned.error();
  return {};
}

core::Result<RateDecision> RateLimiter::Hit(const std::string& bucket) {
  const Window window = CurrentWindow();
  if (auto pruned = PruneEveryOnceInAWhile(window); !pruned) return pruned.error();
  if (SliceCap() > 1) return HitWithSlices(bucket, window);
  // One UPSERT, atomic by itself: no transaction around it.
  auto count = store_.WriteOne([&](storage::Transaction& tx) {
    return tx.accounts().HitRateLimit(bucket, window.start);
  });
  if (!count) return count.error();
  return Decision(window, *count <= policy_.quota, policy_.quota - *count);
}

core::Result<RateDecision> RateLimiter::HitWithSlices(const std::string& bucket,
                                                      const Window& window) {
  std::int64_t size = 0;
  {
    std::lock_guard lock(slices_mutex_);
    Slice& slice = slices_[bucket];
    if (slice.window_start != window.start) slice = Slice{window.start, 0, 0, 0};
    if (slice.available > 0) {
      --slice.available;
      return Decision(window, true, policy_.quota - slice.store_count + slice.available);
    }
    size = slice.size = std::clamp<std::int64_t>(slice.size * 2, 1, SliceCap());
  }
  // Outside the lock: two requests of one bucket may both claim a slice, which only counts ahead.
  auto count = store_.WriteOne([&](storage::Transaction& tx) {
    return tx.accounts().HitRateLimit(bucket, window.start, size);
  });
  if (!count) return count.error();
  // The store counts the whole slice; of it, only what was left of the quota is granted.
  const std::int64_t granted = std::clamp<std::int64_t>(policy_.quota - (*count - size), 0, size);
  std::lock_guard lock(slices_mutex_);
  Slice& slice = slices_[bucket];
  if (slice.window_start != window.start) slice = Slice{window.start, 0, size, 0};
  if (granted > 0) slice.available += granted - 1;
  // What the window holds that counts against the quota: not the part of this claim that was
  // refused, never more than the quota.
  slice.store_count =
      std::max(slice.store_count, std::min(policy_.quota, *count - (size - granted)));
  return Decision(window, granted > 0, policy_.quota - slice.store_count + slice.available);
}

core::Result<RateDecision> RateLimiter::Peek(const std::string& bucket) {
  const Window window = CurrentWindow();
  auto count = store_.Read([&](storage::Transaction& tx) {
    return tx.accounts().ReadRateLimit(bucket, window.start);
  });
  if (!count) return count.error();
  return Decision(window, *count < policy_.quota, policy_.quota - *count);
}

}  // namespace sightline::identity
