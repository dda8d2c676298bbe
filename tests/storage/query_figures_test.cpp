// `query` answers a request that needs only visits' figures from the rollups' visit rows of
// the days where they are current, and from the events elsewhere (query/visit_rows.h). On
// each backend, random requests over random traffic get the same answer both ways, to the
// last digit: with every day rolled up, with none, and with some days changed since.
#include <algorithm>
#include <random>

#include <boost/json/parse.hpp>

#include "core/clock.h"
#include "query/query_period.h"
#include "query/stored_rows.h"
#include "reports/rollups.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kT0 = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr int kDays = 3;

const std::vector<std::string> kCountries = {"DE", "FR", "US", ""};
const std::vector<std::string> kDevices = {"Desktop", "Mobile", "Tablet"};
const std::vector<std::string> kSources = {"Google", "Bing", "Newsletter", ""};
const std::vector<std::string> kPaths = {"/", "/blog", "/blog/a", "/blog/b", "/pricing",
                                         "/docs/start"};
const std::vector<std::string> kNames = {"screen_view", "screen_view", "signup", "scroll_depth"};

// A visitor id: most are UUIDs (kept as 16 bytes in blocks), some are other text.
std::string VisitorId(int n) {
  if (n % 5 == 4) return "visitor-" + std::to_string(n);
  char uuid[37];
  std::snprintf(uuid, sizeof uuid, "0190a3b4-5c6d-7e8f-9a0b-%012x", n * 7919);
  return uuid;
}

class QueryFigures : public StoreConformance {
 protected:
  // Visits of 1 to 6 events over three days (some crossing midnight in the zone), events
  // outside every visit, a bot's visit and an `__analytics` event; ids of `prefix`.
  std::vector<EventRecord> Traffic(std::mt19937_64& random, const std::string& prefix,
                                   int visits, std::int64_t hours = kDays * 24) {
    const auto pick = [&](const std::vector<std::string>& from) {
      return from[random() % from.size()];
    };
    const auto optional = [](const std::string& value) {
      return value.empty() ? std::nullopt : std::optional<std::string>(value);
    };
    std::vector<EventRecord> events;
    for (int visit = 0; visit < visits; ++visit) {
      std::int64_t at = kT0 + static_cast<std::int64_t>(random() % (hours * kHour));
      const int count = 1 + static_cast<int>(random() % 6);
      const std::string visitor = VisitorId(static_cast<int>(random() % (visits / 2 + 1)));
      const std::string country = pick(kCountries), device = pick(kDevices),
                        source = pick(kSources);
      for (int i = 0; i < count; ++i) {
        EventRecord e = SparseEvent(prefix + "-" + std::to_string(visit) + "-" + std::to_string(i),
                                    "p-1", at);
        e.session_id = prefix + "-s" + std::to_string(visit);
        if (visit % 11 == 3) {
          e.user_id = "user-" + std::to_string(visit % 4);  // no anonymous id
        } else if (visit % 13 != 5) {
          e.anonymous_id = visitor;  // (and none at all: no visitor)
        }
        e.event = i == 0 ? "screen_view" : pick(kNames);
        e.channel = "web";
        e.path = pick(kPaths);
        e.country = optional(country);
        e.device = device;
        e.traffic_source = optional(source);
        e.traffic_channel = source.empty() ? "Direct" : "Referral";
        e.referrer = source.empty() ? std::nullopt
                                    : std::optional<std::string>("https://" + source + ".example/");
        e.browser = visit % 2 ? "Firefox" : "Chrome";
        e.os = "Linux";
        e.is_bot = visit == 7;
        if (visit == 9 && i == 1) e.channel = "__analytics";
        e.received_at = at;
        events.push_back(std::move(e));
        at += static_cast<std::int64_t>(1 + random() % 900) * 1000;
      }
    }
    for (int loose = 0; loose < visits / 10; ++loose) {
      EventRecord e = SparseEvent(prefix + "-loose-" + std::to_string(loose), "p-1",
                                  kT0 + static_cast<std::int64_t>(random() % (hours * kHour)));
      e.event = loose % 2 ? "screen_view" : "signup";
      e.path = pick(kPaths);
      e.country = optional(pick(kCountries));
      e.device = pick(kDevices);
      e.anonymous_id = VisitorId(loose);
      events.push_back(std::move(e));
    }
    return events;
  }

  void Insert(const std::vector<EventRecord>& events) {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(events); })));
  }

  // A random request in the grammar: visit dimensions, pages and time; conditions on them,
  // nested; any metrics.
  static std::string Request(std::mt19937_64& random) {
    const auto pick = [&](const std::vector<std::string>& from) {
      return from[random() % from.size()];
    };
    const std::vector<std::string> dimensions = {
        "visit:country", "visit:device", "visit:source", "visit:channel", "visit:referrer",
        "visit:browser", "visit:entry_page", "visit:exit_page", "event:page", "time:day",
        "time:hour"};
    const std::vector<std::string> metrics = {
        "visitors",   "visits",          "pageviews",      "events",      "views_per_visit",
        "bounce_rate", "visit_duration", "time_on_page",   "percentage"};
    const std::vector<std::pair<std::string, std::vector<std::string>>> conditions = {
        {"visit:country", kCountries}, {"visit:device", kDevices}, {"visit:source", kSources},
        {"event:page", kPaths},        {"visit:entry_page", kPaths}};
    std::string json = R"({"metrics":[)";
    const std::size_t metric_count = 1 + random() % 3;
    std::vector<std::string> chosen;
    while (chosen.size() < metric_count) {
      const std::string metric = pick(metrics);
      if (std::find(chosen.begin(), chosen.end(), metric) == chosen.end()) chosen.push_back(metric);
    }
    for (std::size_t i = 0; i < chosen.size(); ++i) json += (i ? ",\"" : "\"") + chosen[i] + "\"";
    json += R"(],"date_range":"all","dimensions":[)";
    const std::size_t dimension_count = random() % 3;
    bool has_dimension_other_than_time = false;
    std::vector<std::string> picked;
    while (picked.size() < dimension_count) {
      const std::string dimension = pick(dimensions);
      if (dimension.starts_with("time") &&
          std::any_of(picked.begin(), picked.end(),
                      [](const std::string& d) { return d.starts_with("time"); })) {
        continue;
      }
      if (std::find(picked.begin(), picked.end(), dimension) != picked.end()) continue;
      has_dimension_other_than_time = has_dimension_other_than_time || !dimension.starts_with("time");
      picked.push_back(dimension);
    }
    for (std::size_t i = 0; i < picked.size(); ++i) json += (i ? ",\"" : "\"") + picked[i] + "\"";
    json += R"(],"filters":[)";
    const auto condition = [&] {
      const auto& [dimension, values] = conditions[random() % conditions.size()];
      const std::vector<std::string> ops = {"is", "is_not", "contains", "contains_not",
                                            "matches", "matches_not"};
      const std::string op = pick(ops);
      std::string value = pick(values);
      if (op.starts_with("contains")) value = value.substr(0, value.size() / 2 + 1);
      if (op.starts_with("matches")) value = "^" + value.substr(0, 2);
      return "[\"" + op + "\",\"" + dimension + "\",[\"" + value + "\"]]";
    };
    const std::size_t filter_count = random() % 4;
    for (std::size_t i = 0; i < filter_count; ++i) {
      if (i) json += ",";
      switch (random() % 4) {
        case 0: json += "[\"or\",[" + condition() + "," + condition() + "]]"; break;
        case 1: json += "[\"not\"," + condition() + "]"; break;
        default: json += condition();
      }
    }
    json += "]}";
    // Visit figures need a dimension other than time to split the percentage by.
    if (!has_dimension_other_than_time) {
      const std::size_t at = json.find("\"percentage\"");
      if (at != std::string::npos) json.replace(at, 12, "\"visits\"");
    }
    return json;
  }

  // The answer's rows as text, every figure to the last bit.
  static std::vector<std::string> Rows(const query::QueryAnswer& answer) {
    std::vector<std::string> rows;
    for (const query::ResultRow& row : answer.rows) {
      std::string text;
      for (const std::string& d : row.dimensions) text += d + "|";
      for (const query::MetricValue& m : row.metrics) {
        char number[64];
        std::snprintf(number, sizeof number, "%d:%lld:%a;", static_cast<int>(m.kind),
                      static_cast<long long>(m.integer), m.number);
        text += number;
      }
      rows.push_back(std::move(text));
    }
    return rows;
  }

  struct Answered {
    std::vector<std::string> rows;
    std::size_t from_figures = 0, from_events = 0;  // visits handed each way
  };

  Answered Answer(const query::QueryRequest& request, bool figures) {
    const reports::ReportingZone& zone = Zone();
    const reports::DayRange days{zone.DayOf(kT0) - 1, zone.DayOf(kT0) + kDays};
    const reports::UtcWindow window = zone.Window(days);
    query::VisitReading reading = query::ReadingOf(request);
    reading.figures_suffice = reading.figures_suffice && figures;
    const core::SystemClock clock;
    query::ReadBudget budget(clock);
    const query::VisitSource stored =
        query::StoredVisits(store(), budget, "p-1", zone, days, window, reading);
    Answered answered;
    const query::VisitSource counted = [&](const std::function<void(const query::Visit&)>& each) {
      return stored([&](const query::Visit& visit) {
        ++(visit.figures != nullptr ? answered.from_figures : answered.from_events);
        each(visit);
      });
    };
    auto buckets = query::BucketsOf(request, zone, days, window);
    EXPECT_TRUE(buckets);
    if (!buckets) return answered;
    auto answer = query::AnswerWeb(request, counted, *buckets);
    EXPECT_TRUE(answer) << (answer ? "" : answer.error().internal());
    if (answer) answered.rows = Rows(*answer);
    return answered;
  }

  static const reports::ReportingZone& Zone() {
    // Days that start at 18:15 UTC: an hour's changes touch two local days.
    static const reports::ReportingZone zone = *reports::ReportingZone::Find("Asia/Kathmandu");
    return zone;
  }

  void RollUp() {
    const reports::DayRange days{Zone().DayOf(kT0) - 1, Zone().DayOf(kT0) + kDays};
    ASSERT_TRUE(Ok(reports::RefreshRollups(store(), "p-1", Zone(), {days})));
  }

  // Asks `count` random requests both ways; returns how the visits of those figures suffice
  // for came.
  Answered ExpectSameAnswers(std::mt19937_64& random, int count) {
    Answered read;
    int asked = 0;
    while (asked < count) {
      const std::string json = Request(random);
      auto request = query::ParseQueryRequest(boost::json::parse(json));
      if (!request) continue;  // a combination the grammar refuses
      ++asked;
      const Answered figures = Answer(*request, true);
      const Answered events = Answer(*request, false);
      EXPECT_EQ(figures.rows, events.rows) << json;
      EXPECT_EQ(events.from_figures, 0u);
      if (!query::FiguresSuffice(*request)) {
        EXPECT_EQ(figures.from_figures, 0u) << json;
        continue;
      }
      read.from_figures += figures.from_figures;
      read.from_events += figures.from_events;
    }
    return read;
  }
};

TEST_P(QueryFigures, VisitRowsAndEventsGiveTheSameAnswers) {
  SeedTwoProjects();
  std::mt19937_64 random(GTEST_FLAG_GET(random_seed) + 20261128);
  Insert(Traffic(random, "a", 300));
  // Nothing rolled up: every day from its events.
  Answered read = ExpectSameAnswers(random, 20);
  EXPECT_EQ(read.from_figures, 0u);
  EXPECT_GT(read.from_events, 0u);
  // Half sealed into blocks, every day rolled up: every day from its visit rows.
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) {
    return tx.events().SealEvents("p-1", kT0 + 36 * kHour, 100'000, kT0);
  })));
  RollUp();
  read = ExpectSameAnswers(random, 40);
  EXPECT_GT(read.from_figures, 0u);
  EXPECT_EQ(read.from_events, 0u);
  // New events (of new visits on the first day, and one of a visit already rolled up) mark
  // their days changed: those are read from their events until rolled up again.
  std::vector<EventRecord> more = Traffic(random, "b", 40, 10);
  EventRecord late = SparseEvent("a-late", "p-1", kT0 + 30 * kHour);
  late.session_id = "a-s1";  // a visit of the first traffic
  late.event = "screen_view";
  late.path = "/late";
  more.push_back(late);
  Insert(more);
  read = ExpectSameAnswers(random, 40);
  EXPECT_GT(read.from_figures, 0u);
  EXPECT_GT(read.from_events, 0u);
  RollUp();
  read = ExpectSameAnswers(random, 20);
  EXPECT_GT(read.from_figures, 0u);
  EXPECT_EQ(read.from_events, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, QueryFigures, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, QueryFigures, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
