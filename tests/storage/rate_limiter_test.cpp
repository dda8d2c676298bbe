// The rate limiter (identity/rate_limiter.h) on each backend: a window counted one request per
// store write is exact; a window claimed in slices is exact on one node and never exceeds its
// quota on two nodes sharing the store.
#include "identity/rate_limiter.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

class RateLimits : public StoreConformance {};

TEST_P(RateLimits, StoreCountsClaimedSlices) {
  auto hit = [&](std::int64_t amount) {
    return WriteOk([&](Transaction& tx) { return tx.accounts().HitRateLimit("key:s", 0, amount); });
  };
  EXPECT_EQ(hit(1), 1);
  EXPECT_EQ(hit(4), 5);
  EXPECT_EQ(hit(16), 21);
}

TEST_P(RateLimits, SlicedWindowIsExactOnOneNode) {
  core::ManualClock clock(1'800'000'000'000);
  identity::RateLimiter limiter(store(), clock, {"per-minute", 320, 60, 64});
  for (int i = 1; i <= 320; ++i) {
    auto decision = limiter.Hit("key:one");
    ASSERT_TRUE(Ok(decision));
    ASSERT_TRUE(decision->allowed) << "request " << i;
    ASSERT_EQ(decision->remaining, 320 - i) << "request " << i;
  }
  // Claimed ahead by at most one slice (they grow to a sixteenth of the quota, 20), in far
  // fewer writes than requests.
  const auto counted = conformance::ReadOk(store(), [](Transaction& tx) {
    return tx.accounts().ReadRateLimit("key:one", 1'800'000'000'000 - 1'800'000'000'000 % 60'000);
  });
  EXPECT_GE(counted, 320);
  EXPECT_LE(counted, 320 + 20);
  auto refused = limiter.Hit("key:one");
  ASSERT_TRUE(Ok(refused));
  EXPECT_FALSE(refused->allowed);
  EXPECT_EQ(refused->remaining, 0);
  // The next window starts over.
  clock.Advance(std::chrono::seconds(60));
  auto next = limiter.Hit("key:one");
  ASSERT_TRUE(Ok(next));
  EXPECT_TRUE(next->allowed);
  EXPECT_EQ(next->remaining, 319);
}

TEST_P(RateLimits, TwoNodesNeverExceedTheQuotaTogether) {
  core::ManualClock clock(1'800'000'000'000);
  identity::RateLimiter first(store(), clock, {"per-minute", 320, 60, 64});
  identity::RateLimiter second(store(), clock, {"per-minute", 320, 60, 64});
  int allowed = 0;
  for (int i = 0; i < 800; ++i) {
    auto decision = (i % 3 == 0 ? second : first).Hit("key:shared");
    ASSERT_TRUE(Ok(decision));
    allowed += decision->allowed ? 1 : 0;
  }
  EXPECT_LE(allowed, 320);
  // At most each node's unused slice is refused early.
  EXPECT_GE(allowed, 320 - 2 * 20);
}

TEST_P(RateLimits, SmallQuotasAreCountedOneRequestPerWrite) {
  core::ManualClock clock(1'800'000'000'000);
  identity::RateLimiter limiter(store(), clock, {"per-minute", 5, 60, 64});
  for (int i = 1; i <= 5; ++i) {
    auto decision = limiter.Hit("ip:small");
    ASSERT_TRUE(Ok(decision));
    EXPECT_TRUE(decision->allowed);
  }
  // Another node's Peek sees every request at once: no slice was claimed ahead.
  identity::RateLimiter other(store(), clock, {"per-minute", 5, 60, 64});
  auto peeked = other.Peek("ip:small");
  ASSERT_TRUE(Ok(peeked));
  EXPECT_FALSE(peeked->allowed);
  EXPECT_EQ(peeked->remaining, 0);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, RateLimits, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, RateLimits, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
