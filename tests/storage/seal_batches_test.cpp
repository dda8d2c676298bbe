// The batches sealed into ClickHouse, on each backend (docs/clickhouse.md, "Writes"): a batch is
// pending until committed once; readers leave out every batch not committed, per project; a
// pending batch left too long is abandoned and then never commits; only abandoned batches are
// forgotten; a deleted project's batches go with it.
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

constexpr std::int64_t kT0 = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr std::int64_t kMinute = 60'000;

class SealBatches : public StoreConformance {
 protected:
  static SealBatchRecord Batch(std::string id, std::string project, std::int64_t created_at) {
    return {std::move(id), std::move(project), "events", 20'000, SealBatchState::kPending,
            created_at, std::nullopt};
  }
  void Insert(const SealBatchRecord& batch) {
    WriteOk([&](Transaction& tx) { return tx.events().InsertSealBatch(batch); });
  }
  bool Commit(const std::string& id, std::int64_t at) {
    return WriteOk([&](Transaction& tx) { return tx.events().CommitSealBatch(id, at); });
  }
  std::vector<std::string> Uncommitted(const std::string& project) {
    return ReadOk([&](Transaction& tx) { return tx.events().ListUncommittedSealBatches(project); });
  }
  SealBatchRecord Find(const std::string& id) {
    auto found = ReadOk([&](Transaction& tx) { return tx.events().FindSealBatch(id); });
    EXPECT_TRUE(found.has_value()) << id;
    return found.value_or(SealBatchRecord{});
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, SealBatches, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, SealBatches, testing::Values(Backend::kPostgres));

TEST_P(SealBatches, APendingBatchCommitsOnceAndReadersLeaveOutTheOthers) {
  SeedTwoProjects();
  Insert(Batch("b-1", "p-1", kT0));
  Insert(Batch("b-2", "p-1", kT0 + kMinute));
  Insert(Batch("b-3", "p-2", kT0));
  EXPECT_EQ(Find("b-1"), Batch("b-1", "p-1", kT0)) << "every field as written";
  EXPECT_EQ(Uncommitted("p-1"), (std::vector<std::string>{"b-1", "b-2"}));

  EXPECT_TRUE(Commit("b-1", kT0 + 5));
  EXPECT_FALSE(Commit("b-1", kT0 + 6)) << "a batch commits once";
  EXPECT_FALSE(Commit("no-such-batch", kT0));
  SealBatchRecord committed = Batch("b-1", "p-1", kT0);
  committed.state = SealBatchState::kCommitted;
  committed.committed_at = kT0 + 5;
  EXPECT_EQ(Find("b-1"), committed);
  EXPECT_EQ(Uncommitted("p-1"), (std::vector<std::string>{"b-2"}));
  EXPECT_EQ(Uncommitted("p-2"), (std::vector<std::string>{"b-3"})) << "per project";
}

TEST_P(SealBatches, AnAbandonedBatchNeverCommitsAndIsForgottenOnlyThen) {
  SeedTwoProjects();
  Insert(Batch("old", "p-1", kT0));
  Insert(Batch("old-committed", "p-1", kT0));
  Insert(Batch("recent", "p-1", kT0 + 10 * kMinute));
  ASSERT_TRUE(Commit("old-committed", kT0 + 1));

  EXPECT_EQ(WriteOk([](Transaction& tx) {
              return tx.events().AbandonSealBatches(kT0 + 5 * kMinute);
            }),
            1u) << "only pending batches created before the cut-off";
  EXPECT_EQ(Find("old").state, SealBatchState::kAbandoned);
  EXPECT_EQ(Find("recent").state, SealBatchState::kPending);
  EXPECT_FALSE(Commit("old", kT0 + 6 * kMinute)) << "its sealer came back too late";
  EXPECT_EQ(Uncommitted("p-1"), (std::vector<std::string>{"old", "recent"}))
      << "an abandoned batch's rows are still left out until they are deleted";

  const auto abandoned =
      ReadOk([](Transaction& tx) { return tx.events().ListAbandonedSealBatches(10); });
  ASSERT_EQ(abandoned.size(), 1u);
  EXPECT_EQ(abandoned[0].id, "old");

  const std::vector<std::string> ids = {"old", "old-committed", "recent"};
  EXPECT_EQ(WriteOk([&](Transaction& tx) { return tx.events().ForgetSealBatches(ids); }), 1u);
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.events().FindSealBatch("old"); }));
  EXPECT_EQ(Find("old-committed").state, SealBatchState::kCommitted);
  EXPECT_EQ(Uncommitted("p-1"), (std::vector<std::string>{"recent"}));
}

TEST_P(SealBatches, ADeletedProjectsBatchesGoWithIt) {
  SeedTwoProjects();
  Insert(Batch("b-1", "p-1", kT0));
  Insert(Batch("b-2", "p-2", kT0));
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.events().FindSealBatch("b-1"); }));
  EXPECT_EQ(Uncommitted("p-2"), (std::vector<std::string>{"b-2"}));
}

}  // namespace
}  // namespace sightline::storage
