// Crawler requests sealed from the transactional store (SQLite, PostgreSQL) into the two-shard
// ClickHouse test cluster: each request moves once, in batches, and a reader that leaves out the
// uncommitted batches sees each exactly once, whatever failed where — ClickHouse unreachable
// before the insert, or a sealer gone between its insert and its commit (docs/clickhouse.md,
// "Writes").
#include "storage/clickhouse/clickhouse_sealing.h"

#include <algorithm>

#include "clickhouse_fixture.h"
#include "storage/clickhouse/clickhouse_deletes.h"
#include "storage/clickhouse/clickhouse_events.h"
#include "store_fixture.h"

namespace sightline::storage::clickhouse {
namespace {

using conformance::Backend;
using conformance::FullBot;
using conformance::MinimalBot;
using core::Result;

constexpr std::int64_t kT0 = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr std::int64_t kDay = 86'400'000;

class ClickHouseSealing : public conformance::StoreConformance {
 protected:
  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    OpenTestDatabase(http_, client_);
    if (IsSkipped() || HasFatalFailure()) return;
    auto migrated = MigrateEventSchema(*client_);
    ASSERT_TRUE(migrated) << migrated.error().message();
    SeedTwoProjects();
  }
  void TearDown() override {
    DropTestDatabase(http_, client_);
    StoreConformance::TearDown();
  }

  // `count` requests of the project, a second apart from kT0, received a second later each.
  std::vector<BotRequestRecord> Arrive(const std::string& project, int count, int first = 0) {
    std::vector<BotRequestRecord> requests;
    for (int i = first; i < first + count; ++i) {
      const std::string id = project + "-r" + std::to_string(1000 + i);
      requests.push_back(i % 2 ? FullBot(id, project, kT0 + i * 1000)
                               : MinimalBot(id, project, kT0 + i * 1000));
    }
    WriteOk([&](Transaction& tx) { return tx.events().InsertBotRequests(requests); });
    return requests;
  }

  Result<std::size_t> Seal(const Client& client, const std::string& project,
                           std::int64_t received_before, std::size_t limit) {
    return SealBotRequests(store(), client, project, received_before, limit, kT0 + kDay);
  }

  // What a reader sees: the inbox, then ClickHouse without the uncommitted batches.
  std::vector<BotRequestRecord> Everything(const std::string& project) {
    auto [inbox, excluded] = ReadOk([&](Transaction& tx)
                                        -> Result<std::pair<std::vector<BotRequestRecord>,
                                                            std::vector<std::string>>> {
      auto rows = tx.events().ListRecentBotRequests(project, 10'000);
      if (!rows) return rows.error();
      auto batches = tx.events().ListUncommittedSealBatches(project);
      if (!batches) return batches.error();
      return std::pair(std::move(*rows), std::move(*batches));
    });
    auto sealed = ReadBotRequests(*client_, project, kT0, kT0 + kDay, excluded);
    EXPECT_TRUE(sealed) << sealed.error().message();
    std::vector<BotRequestRecord> all = std::move(inbox);
    if (sealed) all.insert(all.end(), sealed->begin(), sealed->end());
    std::ranges::sort(all, [](const BotRequestRecord& a, const BotRequestRecord& b) {
      return std::tie(a.occurred_at, a.id) < std::tie(b.occurred_at, b.id);
    });
    return all;
  }

  // Rows on both shards' own tables, whatever their batch.
  std::size_t Stored() {
    std::size_t rows = 0;
    for (std::size_t node = 0; node < client_->endpoint().nodes.size(); ++node) {
      auto count = client_->Execute("SELECT count() FROM bot_requests_local", {}, node);
      EXPECT_TRUE(count) << count.error().message();
      if (count) rows += std::stoul(*count);
    }
    return rows;
  }

  std::size_t InInbox(const std::string& project) {
    return ReadOk([&](Transaction& tx) {
             return tx.events().ListRecentBotRequests(project, 10'000);
           }).size();
  }

  net::BeastHttpClient http_{net::HttpClientOptions{}};
  std::optional<Client> client_;
};

INSTANTIATE_TEST_SUITE_P(Sqlite, ClickHouseSealing, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, ClickHouseSealing, testing::Values(Backend::kPostgres));

TEST_P(ClickHouseSealing, EveryRequestMovesOnceInBatchesTheEarliestFirst) {
  const std::vector<BotRequestRecord> written = Arrive("p-1", 25);
  const std::vector<BotRequestRecord> other = Arrive("p-2", 3);
  // Received before the cut-off: the first 23 (each arrives 1 ms after it happened).
  const std::int64_t cut_off = kT0 + 22 * 1000 + 2;
  std::vector<std::size_t> moved;
  for (;;) {
    auto sealed = Seal(*client_, "p-1", cut_off, 10);
    ASSERT_TRUE(sealed) << sealed.error().message();
    if (*sealed == 0) break;
    moved.push_back(*sealed);
  }
  EXPECT_EQ(moved, (std::vector<std::size_t>{10, 10, 3}));
  EXPECT_EQ(InInbox("p-1"), 2u) << "the two received after the cut-off wait";
  EXPECT_EQ(InInbox("p-2"), 3u) << "another project's requests stay";
  EXPECT_EQ(Everything("p-1"), written);
  EXPECT_EQ(Everything("p-2"), other);
  EXPECT_TRUE(ReadOk([](Transaction& tx) {
                return tx.events().ListUncommittedSealBatches("p-1");
              }).empty());
  EXPECT_EQ(Stored(), 23u);
}

TEST_P(ClickHouseSealing, ClickHouseUnreachableLeavesEveryRequestInTheInbox) {
  const std::vector<BotRequestRecord> written = Arrive("p-1", 8);
  Endpoint down = client_->endpoint();
  for (std::string& node : down.nodes) node = "http://127.0.0.1:9";  // nothing listens there
  const Client unreachable(http_, down, std::chrono::seconds(2));
  auto failed = Seal(unreachable, "p-1", kT0 + kDay, 100);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code(), core::ErrorCode::kStorageUnavailable);
  EXPECT_EQ(InInbox("p-1"), 8u);
  EXPECT_EQ(Everything("p-1"), written);
  // Back up: the next pass moves them, and the failed batch never counts.
  auto sealed = Seal(*client_, "p-1", kT0 + kDay, 100);
  ASSERT_TRUE(sealed) << sealed.error().message();
  EXPECT_EQ(*sealed, 8u);
  EXPECT_EQ(Everything("p-1"), written);
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.events().ListUncommittedSealBatches("p-1"); })
                .size(),
            1u);
}

// A sealer that died after its insert into ClickHouse and before its commit left its rows there
// under a batch that stays pending: the rows count once (from the inbox), the batch is abandoned,
// its rows deleted, and the batch forgotten.
TEST_P(ClickHouseSealing, ASealerGoneBeforeItsCommitCountsNothingTwice) {
  const std::vector<BotRequestRecord> written = Arrive("p-1", 6);
  const SealBatchRecord ghost{"ghost", "p-1", "bot_requests", 6, SealBatchState::kPending, kT0,
                              std::nullopt};
  WriteOk([&](Transaction& tx) { return tx.events().InsertSealBatch(ghost); });
  ASSERT_TRUE(InsertBotRequests(*client_, written, ghost.id));
  EXPECT_EQ(Everything("p-1"), written);

  auto sealed = Seal(*client_, "p-1", kT0 + kDay, 100);
  ASSERT_TRUE(sealed) << sealed.error().message();
  EXPECT_EQ(*sealed, 6u);
  EXPECT_EQ(Everything("p-1"), written) << "the ghost batch's copies are left out";

  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.events().AbandonSealBatches(kT0 + 1); }), 1u);
  const auto abandoned =
      ReadOk([](Transaction& tx) { return tx.events().ListAbandonedSealBatches(10); });
  std::vector<std::string> ids;
  for (const SealBatchRecord& batch : abandoned) ids.push_back(batch.id);
  ASSERT_EQ(ids, std::vector<std::string>{"ghost"});
  ASSERT_TRUE(DeleteBatches(*client_, ids));
  EXPECT_EQ(WriteOk([&](Transaction& tx) { return tx.events().ForgetSealBatches(ids); }), 1u);
  EXPECT_EQ(Everything("p-1"), written);
  EXPECT_EQ(Stored(), written.size());
}

}  // namespace
}  // namespace sightline::storage::clickhouse
