// Deleting rows from the event tables on the two-shard test cluster: a project's rows, its rows
// before a retention cut-off, a sealing batch's rows — each on both shards, each leaving every
// other row as it was, and each done (the shards' mutations applied) when the call returns.
#include "storage/clickhouse/clickhouse_deletes.h"

#include "clickhouse_fixture.h"
#include "storage/clickhouse/clickhouse_events.h"
#include "store_fixture.h"

namespace sightline::storage::clickhouse {
namespace {

using conformance::FullBot;
using conformance::SparseEvent;

constexpr std::int64_t kHourMs = 3'600'000;
constexpr std::int64_t kSeptember = 1'788'220'800'000;  // 2026-09-01 00:00 UTC
constexpr std::int64_t kOctober = 1'790'812'800'000;    // 2026-10-01 00:00 UTC

class ClickHouseDeletes : public ClickHouseTables {
 protected:
  void SetUp() override {
    ClickHouseTables::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // Each project: 20 visitors' events in September and in October (two partitions, both
    // shards), and crawler requests in both months, each month its own batch.
    for (const std::string project : {"p-1", "p-2"}) {
      for (const std::int64_t month : {kSeptember, kOctober}) {
        std::vector<SealedEvent> events;
        std::vector<BotRequestRecord> requests;
        for (int visitor = 0; visitor < 20; ++visitor) {
          const std::string id = project + "-" + std::to_string(month) + "-" +
                                 std::to_string(visitor);
          EventRecord event = SparseEvent(id, project, month + visitor * 60'000);
          event.anonymous_id = "anon-" + std::to_string(visitor);
          events.push_back({std::move(event), month / kHourMs});
          requests.push_back(FullBot(id, project, month + visitor * 1000));
        }
        const std::string batch = Batch(project, month);
        ASSERT_TRUE(InsertEvents(*client_, events, batch));
        ASSERT_TRUE(InsertBotRequests(*client_, requests, batch));
      }
    }
  }

  static std::string Batch(const std::string& project, std::int64_t month) {
    return project + (month == kSeptember ? "-september" : "-october");
  }

  // The project's events and requests of a month, read back from the Distributed tables.
  std::pair<std::size_t, std::size_t> Rows(const std::string& project, std::int64_t month) {
    auto events = ReadEvents(*client_, project, month / kHourMs, month / kHourMs, {});
    auto requests = ReadBotRequests(*client_, project, month, month + 30 * 24 * kHourMs, {});
    EXPECT_TRUE(events) << events.error().message();
    EXPECT_TRUE(requests) << requests.error().message();
    return {events ? events->size() : 0, requests ? requests->size() : 0};
  }

  const std::pair<std::size_t, std::size_t> kAll{20, 20};
  const std::pair<std::size_t, std::size_t> kNone{0, 0};
};

TEST_F(ClickHouseDeletes, BeforeTheTestEveryProjectHasRowsOnBothShards) {
  EXPECT_EQ(Rows("p-1", kSeptember), kAll);
  EXPECT_EQ(Rows("p-2", kOctober), kAll);
  for (std::size_t node = 0; node < 2; ++node) {
    EXPECT_GT(Count("events_local", node), 0u);
    EXPECT_GT(Count("bot_requests_local", node), 0u);
  }
}

TEST_F(ClickHouseDeletes, AProjectsRowsGoAndNoOtherProjects) {
  ASSERT_TRUE(DeleteProjectRows(*client_, "p-1"));
  EXPECT_EQ(Rows("p-1", kSeptember), kNone);
  EXPECT_EQ(Rows("p-1", kOctober), kNone);
  EXPECT_EQ(Rows("p-2", kSeptember), kAll);
  EXPECT_EQ(Rows("p-2", kOctober), kAll);
  // Gone from each shard's own table, not only hidden from the Distributed one.
  for (std::size_t node = 0; node < 2; ++node) {
    EXPECT_EQ(Lines("SELECT DISTINCT project_id FROM events_local", node),
              std::set<std::string>{"p-2"});
    EXPECT_EQ(Lines("SELECT DISTINCT project_id FROM bot_requests_local", node),
              std::set<std::string>{"p-2"});
  }
  // A project id is a value, never SQL.
  ASSERT_TRUE(DeleteProjectRows(*client_, "x' OR '1'='1"));
  EXPECT_EQ(Rows("p-2", kSeptember), kAll);
}

TEST_F(ClickHouseDeletes, RetentionDeletesAProjectsOlderRowsOnly) {
  ASSERT_TRUE(DeleteRowsBefore(*client_, "p-1", kOctober));
  EXPECT_EQ(Rows("p-1", kSeptember), kNone);
  EXPECT_EQ(Rows("p-1", kOctober), kAll);
  EXPECT_EQ(Rows("p-2", kSeptember), kAll);
  // The cut-off is exclusive: p-1's row at October's first millisecond stayed above; with the
  // cut-off one millisecond later, p-2's goes.
  ASSERT_TRUE(DeleteRowsBefore(*client_, "p-2", kOctober + 1));
  EXPECT_EQ(Rows("p-2", kSeptember), kNone);
  const std::pair<std::size_t, std::size_t> but_the_first{19, 19};
  EXPECT_EQ(Rows("p-2", kOctober), but_the_first);
}

TEST_F(ClickHouseDeletes, AnAbandonedBatchsRowsGo) {
  const std::vector<std::string> batches = {Batch("p-1", kSeptember), Batch("p-2", kOctober)};
  ASSERT_TRUE(DeleteBatches(*client_, batches));
  EXPECT_EQ(Rows("p-1", kSeptember), kNone);
  EXPECT_EQ(Rows("p-1", kOctober), kAll);
  EXPECT_EQ(Rows("p-2", kSeptember), kAll);
  EXPECT_EQ(Rows("p-2", kOctober), kNone);
  EXPECT_TRUE(DeleteBatches(*client_, {}));
}

TEST_F(ClickHouseDeletes, AShardDownIsUnavailableNotSuccess) {
  Endpoint endpoint = client_->endpoint();
  endpoint.nodes[1] = "http://127.0.0.1:9";  // nothing listens on the discard port here
  const Client half(http_, endpoint, std::chrono::seconds(2));
  auto deleted = DeleteProjectRows(half, "p-1");
  ASSERT_FALSE(deleted);
  EXPECT_EQ(deleted.error().code(), core::ErrorCode::kStorageUnavailable);
}

}  // namespace
}  // namespace sightline::storage::clickhouse
