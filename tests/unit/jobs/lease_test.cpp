#include "jobs/lease.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "core/clock.h"

namespace sightline::jobs {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A store of leases in memory, with the rules LeaseStore states: the reference the repositories'
// conditional UPDATEs are held to.
class ModelLeases final : public LeaseStore {
 public:
  struct Row {
    bool running = false;
    std::int64_t lease_until = 0;
  };
  std::map<std::string, Row, std::less<>> rows;

  core::Result<bool> Claim(std::string_view id, std::int64_t now, std::int64_t until) override {
    Row& row = rows[std::string(id)];
    if (row.running && row.lease_until >= now) return false;
    row = {true, until};
    return true;
  }
  core::Result<bool> Renew(std::string_view id, std::int64_t held, std::int64_t until) override {
    Row& row = rows[std::string(id)];
    if (!row.running || row.lease_until != held) return false;
    row.lease_until = until;
    return true;
  }
  core::Result<bool> Release(std::string_view id, std::int64_t held) override {
    Row& row = rows[std::string(id)];
    if (!row.running || row.lease_until != held) return false;
    row.lease_until = 0;
    return true;
  }
};

TEST(Lease, RunsOutItsDurationAfterNowAndIsRenewedAtAThird) {
  const Lease lease(seconds(60));
  EXPECT_EQ(lease.duration(), milliseconds(60000));
  EXPECT_EQ(lease.Until(1'000'000), 1'060'000);
  EXPECT_EQ(lease.RenewEvery(), milliseconds(20000));
  EXPECT_EQ(Lease(milliseconds(10)).RenewEvery(), milliseconds(3));
  EXPECT_THROW(Lease(milliseconds(0)), std::logic_error);
}

TEST(Lease, AClaimHoldsUntilTheDurationAfterTheClocksNow) {
  core::ManualClock clock(5000);
  ModelLeases store;
  auto held = HeldLease::Claim(store, Lease(seconds(60)), clock, "job-1");
  ASSERT_TRUE(held && *held);
  EXPECT_EQ((*held)->id(), "job-1");
  EXPECT_EQ((*held)->until(), 65000);
  EXPECT_EQ(store.rows["job-1"].lease_until, 65000);

  clock.Advance(seconds(20));
  auto renewed = (*held)->Renew();
  ASSERT_TRUE(renewed);
  EXPECT_TRUE(*renewed);
  EXPECT_EQ((*held)->until(), 85000) << "renewed from the clock's now";
  EXPECT_EQ(store.rows["job-1"].lease_until, 85000);
}

TEST(Lease, AnotherNodeClaimsOnlyOnceTheLeaseRanOutAndTheFirstThenLosesIt) {
  core::ManualClock clock(0);
  ModelLeases store;
  const Lease lease(seconds(60));
  auto first = HeldLease::Claim(store, lease, clock, "job-1");
  ASSERT_TRUE(first && *first);
  clock.Advance(seconds(60));
  auto early = HeldLease::Claim(store, lease, clock, "job-1");
  ASSERT_TRUE(early);
  EXPECT_FALSE(*early) << "held up to and including its last millisecond";

  clock.Advance(milliseconds(1));
  auto second = HeldLease::Claim(store, lease, clock, "job-1");
  ASSERT_TRUE(second && *second);
  EXPECT_EQ((*second)->until(), 120001);
  EXPECT_FALSE((*first)->Renew().value()) << "a stalled node learns it lost the job";
  EXPECT_FALSE((*first)->Release().value()) << "and cannot give away what it lost";
  EXPECT_EQ(store.rows["job-1"].lease_until, 120001);
  EXPECT_TRUE((*second)->Renew().value());
}

TEST(Lease, AReleasedJobIsClaimedAtOnceAndTheReleaseIsFinal) {
  core::ManualClock clock(1000);
  ModelLeases store;
  const Lease lease(std::chrono::minutes(10));
  auto first = HeldLease::Claim(store, lease, clock, "job-1");
  ASSERT_TRUE(first && *first);
  EXPECT_TRUE((*first)->Release().value());
  EXPECT_EQ((*first)->until(), 0);
  EXPECT_FALSE((*first)->Renew().value()) << "a released lease is not taken back by renewing";
  EXPECT_FALSE((*first)->Release().value());
  auto second = HeldLease::Claim(store, lease, clock, "job-1");
  ASSERT_TRUE(second && *second) << "no need to wait for the lease to run out";
  EXPECT_FALSE((*first)->Renew().value());
}

}  // namespace
}  // namespace sightline::jobs
