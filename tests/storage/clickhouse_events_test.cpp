// Tracked events and crawler requests through ClickHouse's `events` and `bot_requests` tables on
// the two-shard test cluster: every field comes back as written (the conformance fixture's
// FullEvent and FullBot: text with quotes, backslashes, newlines and non-ASCII, a double that
// needs 17 digits, every flag), sparse rows keep their nulls, a visitor's events stay on one
// shard, and readers select by visit hour or time and leave out the batches they are told to.
#include "storage/clickhouse/clickhouse_events.h"

#include "clickhouse_fixture.h"
#include "store_fixture.h"

namespace sightline::storage::clickhouse {
namespace {

using conformance::FullBot;
using conformance::FullEvent;
using conformance::MinimalBot;
using conformance::SparseEvent;

constexpr std::int64_t kHour = 496'728;  // 2026-09-01 00:00 UTC, in hours since 1970
constexpr std::int64_t kHourMs = 3'600'000;

class ClickHouseEvents : public ClickHouseTables {
 protected:
  // Visitor v's events: the visit starts in hour `kHour + hour`.
  static std::vector<SealedEvent> Visit(const std::string& project, int visitor, int hour,
                                        int events, bool full) {
    std::vector<SealedEvent> out;
    for (int i = 0; i < events; ++i) {
      const std::int64_t at = (kHour + hour) * kHourMs + i * 60'000 + visitor;
      const std::string id = project + "-v" + std::to_string(visitor) + "-" + std::to_string(i);
      EventRecord event = full ? FullEvent(id, project, at) : SparseEvent(id, project, at);
      event.anonymous_id = "anon-" + std::to_string(visitor);
      event.session_id = "session-" + std::to_string(visitor) + "-" + std::to_string(hour);
      if (full) {
        event.traffic_source = "Google", event.traffic_channel = "Organic Search";
        event.daily_visitor = "dv-" + std::to_string(visitor);
        // A double ClickHouse 18.16 parses one unit in the last place off when sent as text.
        if (visitor % 4 == 0) event.device_confidence = 0.987654321012345;
      }
      out.push_back({std::move(event), kHour + hour});
    }
    return out;
  }

  static void Append(std::vector<SealedEvent>& to, std::vector<SealedEvent> more) {
    for (SealedEvent& sealed : more) to.push_back(std::move(sealed));
  }

  static void ExpectSame(const std::vector<SealedEvent>& read,
                         const std::vector<SealedEvent>& written) {
    ASSERT_EQ(read.size(), written.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
      EXPECT_EQ(read[i].event, written[i].event) << "event " << written[i].event.id;
      EXPECT_EQ(read[i].visit_hour, written[i].visit_hour) << written[i].event.id;
    }
  }

  // In the readers' order: visit hour, time, id.
  static std::vector<SealedEvent> Sorted(std::vector<SealedEvent> events) {
    std::ranges::sort(events, [](const SealedEvent& a, const SealedEvent& b) {
      return std::tie(a.visit_hour, a.event.occurred_at, a.event.id) <
             std::tie(b.visit_hour, b.event.occurred_at, b.event.id);
    });
    return events;
  }
};

TEST_F(ClickHouseEvents, EveryFieldComesBackAsWrittenAndAVisitorStaysOnOneShard) {
  std::vector<SealedEvent> written;
  for (int visitor = 0; visitor < 40; ++visitor) {
    Append(written, Visit("p-1", visitor, visitor % 3, 3, visitor % 2 == 0));
  }
  ASSERT_TRUE(InsertEvents(*client_, written, "batch-1"));

  auto read = ReadEvents(*client_, "p-1", kHour, kHour + 2, {});
  ASSERT_TRUE(read) << read.error().message();
  ExpectSame(*read, Sorted(written));

  // Each shard holds whole visitors: no anonymous id on both.
  std::set<std::string> shard_visitors[2];
  for (std::size_t node = 0; node < 2; ++node) {
    shard_visitors[node] = Lines("SELECT anonymous_id FROM events_local", node);
  }
  EXPECT_FALSE(shard_visitors[0].empty());
  EXPECT_FALSE(shard_visitors[1].empty());
  for (const std::string& visitor : shard_visitors[0]) {
    EXPECT_FALSE(shard_visitors[1].contains(visitor)) << visitor << " is on both shards";
  }
}

TEST_F(ClickHouseEvents, ReadersSelectByVisitHourAndProjectAndLeaveOutExcludedBatches) {
  const std::vector<SealedEvent> committed = Visit("p-1", 1, 0, 4, true);
  std::vector<SealedEvent> later = Visit("p-1", 2, 5, 2, false);
  const std::vector<SealedEvent> pending = Visit("p-1", 3, 0, 2, false);
  const std::vector<SealedEvent> other_project = Visit("p-2", 1, 0, 2, true);
  ASSERT_TRUE(InsertEvents(*client_, committed, "batch-1"));
  ASSERT_TRUE(InsertEvents(*client_, later, "batch-2"));
  ASSERT_TRUE(InsertEvents(*client_, pending, "batch-3"));
  ASSERT_TRUE(InsertEvents(*client_, other_project, "batch-4"));

  const std::vector<std::string> excluded = {"batch-3", "it's-not-a-batch"};
  auto first_hours = ReadEvents(*client_, "p-1", kHour, kHour + 4, excluded);
  ASSERT_TRUE(first_hours) << first_hours.error().message();
  ExpectSame(*first_hours, committed);

  auto every_hour = ReadEvents(*client_, "p-1", kHour, kHour + 5, excluded);
  ASSERT_TRUE(every_hour) << every_hour.error().message();
  std::vector<SealedEvent> expected = committed;
  Append(expected, later);
  ExpectSame(*every_hour, expected);

  auto with_pending = ReadEvents(*client_, "p-1", kHour, kHour, {});
  ASSERT_TRUE(with_pending) << with_pending.error().message();
  std::vector<SealedEvent> all_first = committed;
  Append(all_first, pending);
  ExpectSame(*with_pending, Sorted(all_first));

  auto none = ReadEvents(*client_, "p-1' OR '1'='1", kHour, kHour + 5, {});
  ASSERT_TRUE(none) << none.error().message();
  EXPECT_TRUE(none->empty()) << "the project id is a value, never SQL";
}

TEST_F(ClickHouseEvents, CrawlerRequestsComeBackAsWrittenInTheirWindow) {
  const std::int64_t start = kHour * kHourMs;
  std::vector<BotRequestRecord> written;
  for (int i = 0; i < 30; ++i) {
    const std::string id = "r-" + std::to_string(100 + i);
    written.push_back(i % 2 ? FullBot(id, "p-1", start + i * 1000)
                            : MinimalBot(id, "p-1", start + i * 1000));
  }
  ASSERT_TRUE(InsertBotRequests(*client_, written, "batch-1"));
  const std::vector<BotRequestRecord> pending = {FullBot("r-999", "p-1", start + 500)};
  ASSERT_TRUE(InsertBotRequests(*client_, pending, "batch-2"));
  ASSERT_TRUE(InsertBotRequests(*client_, std::vector{FullBot("r-1", "p-2", start)}, "batch-3"));

  const std::vector<std::string> excluded = {"batch-2"};
  auto read = ReadBotRequests(*client_, "p-1", start, start + 30 * 1000, excluded);
  ASSERT_TRUE(read) << read.error().message();
  EXPECT_EQ(*read, written);
  // The window is [from, to): the last request's own time is outside a window ending there.
  auto window = ReadBotRequests(*client_, "p-1", start + 1000, start + 29 * 1000, excluded);
  ASSERT_TRUE(window) << window.error().message();
  EXPECT_EQ(*window, std::vector(written.begin() + 1, written.end() - 1));
  EXPECT_GT(Count("bot_requests_local", 0), 0u);
  EXPECT_GT(Count("bot_requests_local", 1), 0u);
}

}  // namespace
}  // namespace sightline::storage::clickhouse
