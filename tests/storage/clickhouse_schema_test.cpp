// The event store's schema on the two-shard test cluster: every step on every shard once, again
// is nothing, a step that stopped halfway completes, a newer schema is refused, and one server
// without a cluster gets the MergeTree tables under their own names.
#include "storage/clickhouse/clickhouse_schema.h"

#include <set>

#include "clickhouse_fixture.h"
#include "storage/clickhouse/clickhouse_events.h"

namespace sightline::storage::clickhouse {
namespace {

class ClickHouseSchema : public ClickHouseCluster {
 protected:
  std::set<std::string> TablesOnNode(std::size_t node) {
    return Lines("SELECT name FROM system.tables WHERE database = " +
                     Quote(client_->endpoint().database),
                 node);
  }
};

const std::set<std::string> kClusterTables = {"bot_requests", "bot_requests_local", "events",
                                              "events_local", "sightline_schema"};

TEST_F(ClickHouseSchema, EveryStepRunsOnEveryShardOnceAndAgainIsNothing) {
  const auto steps = static_cast<int>(EventSchemaSteps().size());
  auto first = MigrateEventSchema(*client_);
  ASSERT_TRUE(first) << first.error().message();
  EXPECT_EQ(*first, 2 * steps);
  auto again = MigrateEventSchema(*client_);
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(*again, 0);
  for (std::size_t node = 0; node < 2; ++node) {
    EXPECT_EQ(TablesOnNode(node), kClusterTables) << "node " << node;
    EXPECT_EQ(client_->Execute("SELECT count() FROM sightline_schema", {}, node).value(),
              std::to_string(steps) + "\n");
  }

  // The tables take an event and a crawler request through the Distributed tables, and read
  // them back from either shard.
  auto event = client_->Insert(
      "events",
      R"({"id":"e-1","project_id":"p-1","occurred_at":1788220800000,"received_at":1788220800100,)"
      R"("event":"screen_view","channel":"web","anonymous_id":"a-1","notify":0,"tags":"{}",)"
      R"("in_app":0,"is_bot":0,"actor_verified":0,"is_ai":0,"visit_hour":496728,"seal_batch":"b-1"})",
      true);
  ASSERT_TRUE(event) << event.error().message();
  auto request = client_->Insert(
      "bot_requests",
      R"({"id":"r-1","project_id":"p-1","occurred_at":1788220800000,"received_at":1788220800000,)"
      R"("event":"server_request","source":"server","user_agent":"GPTBot/1.1","actor_type":"bot",)"
      R"("actor_verified":1,"verification_method":"ip_range","actor_confidence":0.99,"is_ai":1,)"
      R"("counts_toward_usage":1,"seal_batch":"b-1"})",
      true);
  ASSERT_TRUE(request) << request.error().message();
  EXPECT_EQ(Count("events", 1), 1u);
  EXPECT_EQ(Count("bot_requests", 0), 1u);
  auto read = client_->Select("SELECT occurred_at, anonymous_id, user_id FROM events");
  ASSERT_TRUE(read) << read.error().message();
  ASSERT_EQ(read->size(), 1u);
  // Int64 comes back quoted (JSON numbers lose precision past 2^53): the reader parses it.
  EXPECT_EQ(read->front().at("occurred_at").as_string(), "1788220800000");
  EXPECT_EQ(read->front().at("anonymous_id").as_string(), "a-1");
  EXPECT_TRUE(read->front().at("user_id").is_null());
}

TEST_F(ClickHouseSchema, AStepThatStoppedHalfwayIsCompleted) {
  // The first statement ran on the first shard, then the node died before recording the step.
  const SchemaStep& step = EventSchemaSteps().front();
  ASSERT_TRUE(client_->Execute(RenderStatement(step.statements.front(), client_->endpoint())));
  auto applied = MigrateEventSchema(*client_);
  ASSERT_TRUE(applied) << applied.error().message();
  EXPECT_EQ(TablesOnNode(0), kClusterTables);
  EXPECT_EQ(TablesOnNode(1), kClusterTables);
}

TEST_F(ClickHouseSchema, AShardWithANewerSchemaIsRefused) {
  ASSERT_TRUE(MigrateEventSchema(*client_));
  ASSERT_TRUE(client_->Execute(
      "INSERT INTO sightline_schema (version, name, applied_at) VALUES (999, 'future', 0)", {}, 1));
  auto refused = MigrateEventSchema(*client_);
  ASSERT_FALSE(refused);
  EXPECT_NE(std::string(refused.error().message()).find("newer than this binary"),
            std::string::npos)
      << refused.error().message();
}

TEST_F(ClickHouseSchema, OneServerWithoutAClusterHasTheTablesUnderTheirOwnNames) {
  Endpoint single = client_->endpoint();
  single.nodes.resize(1);
  single.cluster.clear();
  const Client one(http_, single);
  auto applied = MigrateEventSchema(one);
  ASSERT_TRUE(applied) << applied.error().message();
  EXPECT_EQ(*applied, static_cast<int>(EventSchemaSteps().size()));
  EXPECT_EQ(TablesOnNode(0), (std::set<std::string>{"bot_requests", "events", "sightline_schema"}));
  EXPECT_TRUE(TablesOnNode(1).empty());
}

// The DDL and the writers' column tables are written separately (a migration's text never
// changes): every column a writer names exists, and every column of a table is written.
TEST_F(ClickHouseSchema, TheTablesHaveExactlyTheColumnsTheWritersName) {
  ASSERT_TRUE(MigrateEventSchema(*client_));
  const auto columns_of = [&](const std::string& table) {
    return Lines("SELECT name FROM system.columns WHERE database = " +
                     Quote(client_->endpoint().database) + " AND table = " + Quote(table),
                 0);
  };
  std::set<std::string> events = {"visit_hour", "seal_batch"};
  for (std::string_view name : EventColumnNames()) events.emplace(name);
  std::set<std::string> requests = {"seal_batch"};
  for (std::string_view name : BotRequestColumnNames()) requests.emplace(name);
  EXPECT_EQ(columns_of("events_local"), events);
  EXPECT_EQ(columns_of("events"), events);
  EXPECT_EQ(columns_of("bot_requests_local"), requests);
  EXPECT_EQ(columns_of("bot_requests"), requests);
}

}  // namespace
}  // namespace sightline::storage::clickhouse
