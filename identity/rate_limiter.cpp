#include "identity/rate_limiter.h"
#include "storage/account_repository.h"

namespace sightline::identity {

namespace {
// Old windows are deleted by whichever request happens to be the N-th: no timer thread, and
// the table stays at about (active buckets × 2) rows.
constexpr std::uint64_t kPruneEvery = 1000;
}  // namespace

core::Result<RateDecision> RateLimiter::Hit(const std::string& bucket) {
  const std::int64_t now = clock_.NowMillis();
  const std::int64_t window_ms = policy_.window_seconds * 1000;
  const std::int64_t window_start = now - now % window_ms;
  if (++hits_ % kPruneEvery == 0) {
    auto pruned = store_.WriteOne([&](storage::Transaction& tx) {
      return tx.accounts().PruneRateLimits(window_start - window_ms);
    });
    if (!pruned) return pruned.error();
  }
  // One UPSERT, atomic by itself: no transaction around it.
  auto count = store_.WriteOne([&](storage::Transaction& tx) {
    return tx.accounts().HitRateLimit(bucket, window_start);
  });
  if (!count) return count.error();
  RateDecision decision;
  decision.limit = policy_.quota;
  decision.allowed = *count <= policy_.quota;
  decision.remaining = std::max<std::int64_t>(0, policy_.quota - *count);
  decision.reset_seconds = std::max<std::int64_t>(1, (window_start + window_ms - now + 999) / 1000);
  return decision;
}

core::Result<RateDecision> RateLimiter::Peek(const std::string& bucket) {
  const std::int64_t now = clock_.NowMillis();
  const std::int64_t window_ms = policy_.window_seconds * 1000;
  const std::int64_t window_start = now - now % window_ms;
  auto count = store_.Read(
      [&](storage::Transaction& tx) { return tx.accounts().ReadRateLimit(bucket, window_start); });
  if (!count) return count.error();
  RateDecision decision;
  decision.limit = policy_.quota;
  decision.allowed = *count < policy_.quota;
  decision.remaining = std::max<std::int64_t>(0, policy_.quota - *count);
  decision.reset_seconds = std::max<std::int64_t>(1, (window_start + window_ms - now + 999) / 1000);
  return decision;
}

}  // namespace sightline::identity
