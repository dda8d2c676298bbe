// Storage conformance for the report rollups (storage/report_repository_rollups.cpp, the reads in
// report_repository_bots.cpp and report_repository_web.cpp, and reports/rollups.cpp that builds
// them): every figure computed by hand from a small dataset, on each backend, in more than one
// reporting zone, and again after late rows change days already rolled up.
#include "reports/bot_reports.h"
#include "reports/rollups.h"
#include "reports/web_reports.h"
#include "storage/event_repository.h"
#include "storage/migrations.h"
#include "storage/report_repository.h"
#include "store_fixture.h"

#include <filesystem>
#include <map>
#include <memory>
#include <set>

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers
using reports::DayRange;
using reports::ReportingZone;
using reports::ReportWindows;

ReportingZone Zone(std::string_view name) { return ReportingZone::Find(name).value(); }

ReportWindows Windows(const ReportingZone& zone, DayRange selection,
                      std::optional<DayRange> comparison = std::nullopt) {
  ReportWindows windows{selection, zone.Window(selection), comparison, std::nullopt, zone.name()};
  if (comparison) windows.comparison = zone.Window(*comparison);
  return windows;
}

// ---- Crawler report aggregates ------------------------------------------------------------

BotRequestRecord ReportBot(std::string id, std::int64_t at, std::optional<std::string> name,
                           std::optional<std::string> vendor, std::string actor_type,
                           std::optional<std::string> country, std::string path) {
  BotRequestRecord b = MinimalBot(std::move(id), "p-1", at);
  b.bot_name = std::move(name);
  b.bot_vendor = std::move(vendor);
  b.actor_category = b.bot_vendor == "OpenAI" ? std::optional<std::string>("ai_training")
                                              : std::optional<std::string>("automation");
  b.is_ai = b.bot_vendor == "OpenAI";
  b.actor_type = std::move(actor_type);
  b.country = std::move(country);
  b.path = std::move(path);
  return b;
}

class BotAggregates : public StoreConformance {
 protected:
  // p-1: GPTBot ×4 (one spoofed), curl ×2, an unnamed bot ×1, and "50%_off" ×1; p-2: one row.
  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    std::vector<BotRequestRecord> rows = {
        ReportBot("r1", 1000, "GPTBot", "OpenAI", "verified_bot", "US", "/a"),
        ReportBot("r2", 900'000, "GPTBot", "OpenAI", "verified_bot", "US", "/b"),
        ReportBot("r3", 900'001, "GPTBot", "OpenAI", "spoofed_bot", "DE", "/a"),
        ReportBot("r4", 3'700'000, "GPTBot", "OpenAI", "verified_bot", std::nullopt, "/a"),
        ReportBot("r5", 5000, "curl", "curl", "suspected_bot", "DE", "/a"),
        ReportBot("r6", 6000, "curl", "curl", "suspected_bot", "DE", "/c"),
        ReportBot("r7", 7000, std::nullopt, std::nullopt, "suspected_bot", "FR", "/c"),
        ReportBot("r8", 8000, "50%_off", "Deals", "suspected_bot", "FR", "/c"),
        ReportBot("r9", 86'400'000 + 10, "GPTBot", "OpenAI", "verified_bot", "US", "/a")};
    BotRequestRecord other = ReportBot("x1", 1000, "GPTBot", "OpenAI", "verified_bot", "US", "/a");
    other.project_id = "p-2";
    rows.push_back(other);
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertBotRequests(rows); })));
  }
  // 1970-01-01 in `zone` (r9 is on the next day), rolled up first.
  BotReportQuery Query(BotGrouping grouping, std::string_view zone_name = "UTC",
                       RollupSpan span = RollupSpan::kDay) {
    const ReportingZone zone = Zone(zone_name);
    EXPECT_TRUE(Ok(reports::RefreshRollups(store(), "p-1", zone, {{0, 0}})));
    BotReportQuery q;
    const reports::UtcWindow day = zone.Window({0, 0});
    q.range = {"p-1", zone.name(), span, day.start_ms, day.end_ms};
    q.grouping = grouping;
    return q;
  }
  std::vector<std::string> Keys(const BotReportQuery& q) {
    std::vector<std::string> keys;
    for (const BotGroupRow& row :
         ReadOk([&](Transaction& tx) { return tx.reports().BotRequestGroups(q); })) {
      keys.push_back(row.key + "=" + std::to_string(row.requests) + "/" +
                     std::to_string(row.distinct_bots));
    }
    return keys;
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, BotAggregates, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, BotAggregates, testing::Values(Backend::kPostgres));

TEST_P(BotAggregates, GroupsRankByRequestsThenKeyWithinTheWindow) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Keys(Query(BotGrouping::kBot)), (V{"GPTBot=4/1", "curl=2/1", "=1/1", "50%_off=1/1"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kCountry)), (V{"DE=3/2", "FR=2/2", "US=2/1", "=1/1"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kPath)), (V{"/a=4/0", "/c=3/0", "/b=1/0"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kCategory)), (V{"ai_training=4/1", "automation=4/3"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kVendor)), (V{"OpenAI=4/1", "curl=2/1", "=1/1", "Deals=1/1"}));

  const BotGroupRow top = ReadOk([&](Transaction& tx) {
    return tx.reports().BotRequestGroups(Query(BotGrouping::kBot));
  }).front();
  EXPECT_EQ(top.vendor, "OpenAI");
  EXPECT_EQ(top.category, "ai_training");
  EXPECT_TRUE(top.is_ai);

  const BotGroupTotals totals = ReadOk(
      [&](Transaction& tx) { return tx.reports().BotRequestTotals(Query(BotGrouping::kPath)); });
  EXPECT_EQ(totals.groups, 3);
  EXPECT_EQ(totals.requests, 8);
  // The same totals from the ranking's own pass, on a page and past the end.
  for (std::int64_t offset : {1, 10}) {
    BotReportQuery q = Query(BotGrouping::kPath);
    q.limit = 1;
    q.offset = offset;
    BotGroupTotals in_pass;
    ReadOk([&](Transaction& tx) { return tx.reports().BotRequestGroups(q, &in_pass); });
    EXPECT_EQ(in_pass.groups, 3) << offset;
    EXPECT_EQ(in_pass.requests, 8) << offset;
  }
}

TEST_P(BotAggregates, PagesAndKeysNarrowTheRows) {
  BotReportQuery q = Query(BotGrouping::kBot);
  q.limit = 2;
  q.offset = 1;
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"curl=2/1", "=1/1"}));
  BotReportQuery keyed = Query(BotGrouping::kBot);
  keyed.keys = std::vector<std::string>{"curl", "", "nobody"};
  EXPECT_EQ(Keys(keyed), (std::vector<std::string>{"curl=2/1", "=1/1"}));
  keyed.keys = std::vector<std::string>{};
  EXPECT_TRUE(Keys(keyed).empty());
}

TEST_P(BotAggregates, FiltersCombine) {
  BotReportQuery q = Query(BotGrouping::kBot);
  q.actor_type = "verified_bot";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"GPTBot=3/1"}));
  q = Query(BotGrouping::kBot);
  q.is_ai = false;
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"curl=2/1", "=1/1", "50%_off=1/1"}));
  q = Query(BotGrouping::kPath);
  q.vendor = "curl";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"/a=1/0", "/c=1/0"}));
  // Search is a case-insensitive substring of name or vendor; LIKE's wildcards are literal.
  q = Query(BotGrouping::kBot);
  q.search = "gpt";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"GPTBot=4/1"}));
  q.search = "%";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"50%_off=1/1"}));
  q.search = "openai";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"GPTBot=4/1"}));
  q.search = "_";
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"50%_off=1/1"}));
}

std::vector<std::string> Periods(const std::vector<BotPeriodRow>& rows) {
  std::vector<std::string> out;
  for (const BotPeriodRow& row : rows) {
    out.push_back(std::to_string(row.period_start) + ":" + row.key + "=" +
                  std::to_string(row.requests));
  }
  return out;
}

TEST_P(BotAggregates, PeriodsAreTheZonesLocalDaysAndHours) {
  using V = std::vector<std::string>;
  BotReportQuery q = Query(BotGrouping::kVendor, "UTC", RollupSpan::kHour);
  q.keys = V{"OpenAI"};
  EXPECT_EQ(Periods(ReadOk([&](Transaction& tx) { return tx.reports().BotRequestPeriods(q); })),
            (V{"0:OpenAI=3", "3600000:OpenAI=1"}));
  q = Query(BotGrouping::kVendor, "UTC", RollupSpan::kDay);
  q.keys = V{"OpenAI"};
  EXPECT_EQ(Periods(ReadOk([&](Transaction& tx) { return tx.reports().BotRequestPeriods(q); })),
            (V{"0:OpenAI=4"}));
  // Nepal kept +05:30 until 1986, so in 1970 its local hours start at :30 UTC.
  q = Query(BotGrouping::kVendor, "Asia/Kathmandu", RollupSpan::kHour);
  q.keys = V{"OpenAI"};
  EXPECT_EQ(Periods(ReadOk([&](Transaction& tx) { return tx.reports().BotRequestPeriods(q); })),
            (V{"-1800000:OpenAI=3", "1800000:OpenAI=1"}));
}

TEST_P(BotAggregates, LateRowsRestateTheirDay) {
  EXPECT_EQ(Keys(Query(BotGrouping::kBot)).front(), "GPTBot=4/1");
  ASSERT_TRUE(Ok(Write([](Transaction& tx) {
    std::vector<BotRequestRecord> late = {
        ReportBot("late", 50'000, "GPTBot", "OpenAI", "verified_bot", "US", "/z")};
    return tx.events().InsertBotRequests(late);
  })));
  EXPECT_EQ(Keys(Query(BotGrouping::kBot)).front(), "GPTBot=5/1");
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-1"); }).empty());
}

// ---- Web analytics aggregates ---------------------------------------------------------------

constexpr std::int64_t kT0 = 86'400'000LL * 20000;  // a UTC midnight
constexpr std::int64_t kMinute = 60'000;

EventRecord WebEvent(std::string id, std::int64_t at, std::string event,
                     std::optional<std::string> visitor, std::string session,
                     std::optional<std::string> path, std::optional<std::string> country) {
  EventRecord e = SparseEvent(std::move(id), "p-1", at);
  e.event = std::move(event);
  e.channel = "web";
  e.anonymous_id = std::move(visitor);
  e.session_id = std::move(session);
  e.path = std::move(path);
  e.country = std::move(country);
  return e;
}

class WebAggregates : public StoreConformance {
 protected:
  // Five visits of four visitors (docs in the test bodies); a bot, an __analytics event and
  // another project's event that must not count.
  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    std::vector<EventRecord> rows = {
        WebEvent("a1", kT0, "screen_view", "A", "s1", "/home", "NP"),
        WebEvent("a2", kT0 + kMinute, "screen_view", "A", "s1", "/pricing", "NP"),
        WebEvent("a3", kT0 + 90'000, "click", "A", "s1", "/pricing", "NP"),
        WebEvent("a4", kT0 + 120 * kMinute, "screen_view", "A", "s2", "/home", "NP"),
        WebEvent("b1", kT0 + 10 * kMinute, "session_start", "B", "s3", std::nullopt, "DE"),
        WebEvent("b2", kT0 + 10 * kMinute + 1000, "screen_view", "B", "s3", "/pricing", "DE"),
        WebEvent("b3", kT0 + 10 * kMinute + 30'000, "scroll_depth", "B", "s3", "/pricing", "DE"),
        WebEvent("c1", kT0 + 25 * 60 * kMinute, "screen_view", std::nullopt, "s4", "/docs",
                 std::nullopt),
        WebEvent("c2", kT0 + 25 * 60 * kMinute + 5 * kMinute, "signup", std::nullopt, "s4",
                 "/docs", std::nullopt),
        WebEvent("d1", kT0 + (18 * 60 + 20) * kMinute, "screen_view", "D", "s5", "/home", "NP")};
    rows[7].user_id = "C";
    rows[8].user_id = "C";
    rows[8].channel = "growth";
    // Where the visits came from: s1 from ChatGPT (its later events carry other values, which a
    // visit-level dimension ignores), s2 direct, s3 from Google; s4 and s5 from nowhere known.
    const auto came_from = [&](std::size_t i, const char* source, const char* channel) {
      rows[i].traffic_source = source;
      rows[i].traffic_channel = channel;
    };
    came_from(0, "ChatGPT", "AI Assistants");
    came_from(1, "Google", "Organic Search");
    came_from(3, "Direct", "Direct");
    came_from(4, "Google", "Organic Search");
    EventRecord bot = WebEvent("x1", kT0, "screen_view", "X", "s9", "/home", "US");
    bot.is_bot = true;
    EventRecord revenue = WebEvent("x2", kT0 + 100'000, "purchase", "A", "s1", "/pricing", "NP");
    revenue.channel = "__analytics";
    EventRecord elsewhere = WebEvent("x3", kT0, "screen_view", "A", "s1", "/home", "NP");
    elsewhere.project_id = "p-2";
    rows.insert(rows.end(), {bot, revenue, elsewhere});
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(rows); })));
  }
  // Days 20000 and 20001 in UTC, or `zone`.
  ReportWindows TwoDays(std::string_view zone = "UTC") {
    return Windows(Zone(zone), {20000, 20001});
  }
  std::vector<std::string> Breakdown(WebDimension dimension, std::int64_t limit = 100,
                                     std::int64_t offset = 0) {
    return Rows(reports::BreakDown(store(), "p-1", dimension, TwoDays(), limit, offset));
  }
  // "value=count/visitors" per row.
  static std::vector<std::string> Rows(const core::Result<reports::Breakdown>& breakdown) {
    EXPECT_TRUE(Ok(breakdown));
    std::vector<std::string> out;
    if (!breakdown) return out;
    for (const reports::BreakdownRow& row : breakdown->rows) {
      out.push_back(row.current.key + "=" + std::to_string(row.current.count) + "/" +
                    std::to_string(row.current.visitors));
    }
    return out;
  }
  std::vector<std::string> Days(std::string_view zone = "UTC") {
    auto timeline = reports::VisitTimeline(store(), "p-1", Zone(zone), TwoDays(zone),
                                           reports::Interval::kDay);
    EXPECT_TRUE(Ok(timeline));
    std::vector<std::string> out;
    for (const reports::WebTotalsRow& point : timeline->points) out.push_back(Show(point));
    return out;
  }
  static std::string Show(const reports::WebTotalsRow& t) {
    return std::to_string(t.visitors) + " visitors, " + std::to_string(t.visits) + " visits, " +
           std::to_string(t.pageviews) + " pageviews, " + std::to_string(t.bounces) +
           " bounces, " + std::to_string(t.duration_ms) + " ms, " + std::to_string(t.events) +
           " events";
  }
  void Insert(std::vector<EventRecord> rows) {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(rows); })));
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, WebAggregates, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, WebAggregates, testing::Values(Backend::kPostgres));

TEST_P(WebAggregates, TotalsCountVisitorsVisitsBouncesAndDurations) {
  auto summary = reports::SummarizeVisits(store(), "p-1", TwoDays());
  ASSERT_TRUE(Ok(summary));
  EXPECT_EQ(Show(summary->current),
            "4 visitors, 5 visits, 6 pageviews, 3 bounces, 420000 ms, 10 events");
  EXPECT_FALSE(summary->previous);
}

TEST_P(WebAggregates, DaysAreTheZonesLocalDays) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Days(), (V{"3 visitors, 4 visits, 5 pageviews, 3 bounces, 120000 ms, 8 events",
                       "1 visitors, 1 visits, 1 pageviews, 0 bounces, 300000 ms, 2 events"}));
  // At +05:45, D's 18:20 UTC pageview is 00:05 the next local day; changing the zone restates
  // the days from the raw events.
  EXPECT_EQ(Days("Asia/Kathmandu"),
            (V{"2 visitors, 3 visits, 4 pageviews, 2 bounces, 120000 ms, 7 events",
               "2 visitors, 2 visits, 2 pageviews, 1 bounces, 300000 ms, 3 events"}));
  EXPECT_EQ(Days().front(), "3 visitors, 4 visits, 5 pageviews, 3 bounces, 120000 ms, 8 events");
}

TEST_P(WebAggregates, HoursHoldTheVisitsThatStartedInThem) {
  auto timeline = reports::VisitTimeline(store(), "p-1", Zone("UTC"),
                                         Windows(Zone("UTC"), {20000, 20000}),
                                         reports::Interval::kHour);
  ASSERT_TRUE(Ok(timeline));
  ASSERT_EQ(timeline->points.size(), 24u);
  EXPECT_EQ(Show(timeline->points[0]),
            "2 visitors, 2 visits, 3 pageviews, 1 bounces, 120000 ms, 6 events");
  EXPECT_EQ(timeline->points[2].visits, 1);
  EXPECT_EQ(timeline->points[18].visits, 1);
  EXPECT_EQ(timeline->points[1].events, 0);
}

TEST_P(WebAggregates, AVisitsLaterEventsRestateTheDayItStarted) {
  ASSERT_EQ(Days()[0], "3 visitors, 4 visits, 5 pageviews, 3 bounces, 120000 ms, 8 events");
  // s3 (a bounce on day 20000) gets a pageview the next day: the visit, its pageviews and its
  // length all stay on the day it started.
  Insert({WebEvent("b4", kT0 + 86'400'000 + kMinute, "screen_view", "B", "s3", "/docs", "DE")});
  EXPECT_EQ(Days(), (std::vector<std::string>{
                        "3 visitors, 4 visits, 6 pageviews, 2 bounces, 85950000 ms, 9 events",
                        "1 visitors, 1 visits, 1 pageviews, 0 bounces, 300000 ms, 2 events"}));
  // An earlier event moves s4's start to day 20000, and the day it left loses it.
  Insert({WebEvent("c0", kT0 + 23 * 60 * kMinute, "screen_view", std::nullopt, "s4", "/docs",
                   std::nullopt)});
  const auto days = Days();
  EXPECT_EQ(days[1], "0 visitors, 0 visits, 0 pageviews, 0 bounces, 0 ms, 0 events");
  EXPECT_EQ(days[0], "4 visitors, 5 visits, 8 pageviews, 2 bounces, 93450000 ms, 12 events");
}

TEST_P(WebAggregates, MarkedDaysRollUpWithoutAReport) {
  // What the server's background pass does: no ranges, only the marked days.
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-1"); }).empty());
  ASSERT_TRUE(Ok(reports::RefreshRollups(store(), "p-1", Zone("UTC"), {})));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-1"); }).empty());
  const auto built = ReadOk([](Transaction& tx) {
    return tx.reports().ListRollupDays("p-1", "UTC", kT0 - 86'400'000, kT0 + 3 * 86'400'000);
  });
  EXPECT_EQ(built, (std::vector<std::int64_t>{kT0, kT0 + 86'400'000}));
  // Another project's marks are its own.
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-2"); }).empty());
}

TEST_P(WebAggregates, BreakdownsCountWhatEachDimensionMeans) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Breakdown(WebDimension::kPage), (V{"/home=3/2", "/pricing=2/2", "/docs=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEntryPage), (V{"/home=3/2", "/docs=1/1", "/pricing=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kExitPage), (V{"/home=2/2", "/pricing=2/2", "/docs=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEvent),
            (V{"screen_view=6/4", "click=1/1", "scroll_depth=1/1", "session_start=1/1",
               "signup=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEventChannel), (V{"web=9/4", "growth=1/1"}));
  // Source and channel are the visit's first event's, counted in visitors.
  EXPECT_EQ(Breakdown(WebDimension::kChannel),
            (V{"=2/2", "AI Assistants=1/1", "Direct=1/1", "Organic Search=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kSource), (V{"=2/2", "ChatGPT=1/1", "Direct=1/1", "Google=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kCountry), (V{"NP=2/2", "=1/1", "DE=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kPage, 1, 1), (V{"/pricing=2/2"}));
  EXPECT_EQ(Breakdown(WebDimension::kCountry, 1, 1), (V{"=1/1"}));
  auto pages = reports::BreakDown(store(), "p-1", WebDimension::kPage, TwoDays(), 1, 0);
  ASSERT_TRUE(Ok(pages));
  EXPECT_EQ(pages->total, 3);
  auto past_the_end = reports::BreakDown(store(), "p-1", WebDimension::kPage, TwoDays(), 1, 10);
  ASSERT_TRUE(Ok(past_the_end));
  EXPECT_TRUE(past_the_end->rows.empty());
  EXPECT_EQ(past_the_end->total, 3);
  auto countries = reports::BreakDown(store(), "p-1", WebDimension::kCountry, TwoDays(), 1, 0);
  ASSERT_TRUE(Ok(countries));
  EXPECT_EQ(countries->total, 3);
}

TEST_P(WebAggregates, ComparisonRowsMatchByValue) {
  const ReportingZone utc = Zone("UTC");
  auto breakdown = reports::BreakDown(store(), "p-1", WebDimension::kPage,
                                      Windows(utc, {20001, 20001}, DayRange{20000, 20000}), 10, 0);
  ASSERT_TRUE(Ok(breakdown));
  ASSERT_EQ(breakdown->rows.size(), 1u);
  EXPECT_EQ(breakdown->rows[0].current.key, "/docs");
  EXPECT_EQ(breakdown->rows[0].previous->count, 0);
  auto home = reports::BreakDown(store(), "p-1", WebDimension::kPage,
                                 Windows(utc, {20000, 20000}, DayRange{20001, 20001}), 1, 0);
  ASSERT_TRUE(Ok(home));
  EXPECT_EQ(home->rows[0].current.key, "/home");
  EXPECT_EQ(home->rows[0].current.count, 3);
  EXPECT_EQ(home->rows[0].previous->count, 0);
}

TEST_P(WebAggregates, DimensionSeriesPerDayAndPerHour) {
  const ReportingZone utc = Zone("UTC");
  auto daily = reports::DimensionSeries(store(), "p-1", utc, TwoDays(), WebDimension::kPage,
                                        reports::Interval::kDay, 2);
  ASSERT_TRUE(Ok(daily));
  ASSERT_EQ(daily->series.size(), 2u);
  EXPECT_EQ(daily->series[0].key, "/home");
  EXPECT_EQ(daily->series[0].values, (std::vector<std::int64_t>{3, 0}));
  EXPECT_EQ(daily->series[0].total, 3);
  auto hourly = reports::DimensionSeries(store(), "p-1", utc, Windows(utc, {20000, 20000}),
                                         WebDimension::kCountry, reports::Interval::kHour, 1);
  ASSERT_TRUE(Ok(hourly));
  ASSERT_EQ(hourly->series.size(), 1u);
  EXPECT_EQ(hourly->series[0].key, "NP");  // visitors: A and D
  EXPECT_EQ(hourly->series[0].total, 2);
  EXPECT_EQ(hourly->series[0].values[0], 1);
  EXPECT_EQ(hourly->series[0].values[2], 1);
  EXPECT_EQ(hourly->series[0].values[18], 1);
}

TEST_P(WebAggregates, PageDurationsRunUntilTheVisitsNextPageview) {
  auto pages = reports::PageDurations(store(), "p-1", TwoDays(), 100, 0);
  ASSERT_TRUE(Ok(pages));
  ASSERT_EQ(pages->size(), 3u);
  EXPECT_EQ((*pages)[0].current.path, "/home");
  EXPECT_EQ((*pages)[0].current.pageviews, 3);
  EXPECT_EQ((*pages)[0].current.measured, 1);
  EXPECT_EQ((*pages)[0].current.duration_ms, 60'000);
  EXPECT_EQ((*pages)[1].current.path, "/pricing");
  EXPECT_EQ((*pages)[1].current.measured, 0);
  EXPECT_EQ((*pages)[2].current.path, "/docs");
}

// ---- Filters: the visits with a value, every figure counted over them ------------------------

ReportWindows Filtered(ReportWindows windows, WebDimension dimension, std::string value) {
  windows.filter = storage::WebFilter{dimension, std::move(value)};
  return windows;
}

// The release before 0023 kept rollups as a row per value and visits as rows: the upgrade drops
// them, and the first report rolls its days up again from the events. Its stale rows here
// (figures no event supports) must neither survive nor hide a day.
TEST_P(WebAggregates, AnUpgradedStoreRollsItsDaysUpAgainFromTheEvents) {
  PreviousReleaseStore previous_release(GetParam(), store(), 22);
  ASSERT_TRUE(previous_release.ok());
  Store* previous = &previous_release.store();
  const std::vector<EventRecord> events = {
      WebEvent("a1", kT0, "screen_view", "A", "s1", "/home", "NP"),
      WebEvent("b1", kT0 + kMinute, "screen_view", "B", "s2", "/docs", "DE")};
  ASSERT_TRUE(
      Ok(previous->Write([&](Transaction& tx) { return tx.events().InsertEvents(events); })));
  ASSERT_TRUE(Ok(previous->database().Transact(TxMode::kWrite, [](SqlSession& session) {
    return session.ExecuteScript(
        "DELETE FROM rollup_dirty; "  // the day was rolled up: its marks are cleared
        "INSERT INTO rollup_days VALUES ('p-1', 'UTC', " + std::to_string(kT0) + ", 1); "
        "INSERT INTO web_rollups VALUES ('p-1', 'UTC', 0, 0, " + std::to_string(kT0) +
        ", '', 99, 99, 99, 0, 0, 0, 0, ''); "
        "INSERT INTO web_visits (project_id, zone, started_at, in_visit, session_id, visitor, "
        "events, pageviews, bounce, duration_ms, entry_page, exit_page, referrer, utm_source, "
        "utm_medium, utm_campaign, utm_term, utm_content, country, region, city, browser, os, "
        "device, pages, event_names, channels, source, channel) VALUES ('p-1', 'UTC', " +
        std::to_string(kT0) + ", 1, 'old', 'Z', 9, 9, 0, 0, '', '', '', '', '', '', '', '', "
        "'FR', '', '', '', '', '', '', '', '', '', '')");
  })));
  auto upgraded = previous->Migrate();
  ASSERT_TRUE(Ok(upgraded));
  EXPECT_EQ(*upgraded, static_cast<int>(AllMigrations().size()) - 22);
  auto summary = reports::SummarizeVisits(*previous, "p-1", TwoDays());
  ASSERT_TRUE(Ok(summary));
  EXPECT_EQ(Show(summary->current), "2 visitors, 2 visits, 2 pageviews, 2 bounces, 0 ms, 2 events");
  auto french = reports::SummarizeVisits(
      *previous, "p-1", Filtered(TwoDays(), WebDimension::kCountry, "FR"));
  ASSERT_TRUE(Ok(french));
  EXPECT_EQ(french->current.visits, 0);
  auto german = reports::SummarizeVisits(
      *previous, "p-1", Filtered(TwoDays(), WebDimension::kCountry, "DE"));
  ASSERT_TRUE(Ok(german));
  EXPECT_EQ(german->current.visits, 1);
}

// On PostgreSQL a report reads a period's blocks and its visitor table in two statements; a
// day rolled up again in between must be noticed (each block carries its table's stamp), never
// read as positions into another table. Here the blocks name a table no store or cache has.
TEST_P(WebAggregates, AVisitorTableChangedAfterItsBlocksWereReadIsNoticed) {
  const std::vector<std::string> before = Breakdown(WebDimension::kCountry);  // rolled up
  ASSERT_EQ(before.size(), 3u);
  ASSERT_TRUE(Ok(store().database().Transact(TxMode::kWrite, [](SqlSession& session) {
    return session.ExecuteScript("UPDATE web_rollups SET visitor_stamp = visitor_stamp + 1 "
                                 "WHERE visitor_stamp <> 0");
  })));
  auto countries = reports::BreakDown(store(), "p-1", WebDimension::kCountry, TwoDays(), 10, 0);
  EXPECT_FALSE(countries) << "a table whose stamp no block carries is not read";
  auto pages = reports::PageDurations(store(), "p-1", TwoDays(), 10, 0);
  EXPECT_TRUE(Ok(pages)) << "figures without visitors need no table";
  ASSERT_TRUE(Ok(store().database().Transact(TxMode::kWrite, [](SqlSession& session) {
    return session.ExecuteScript("UPDATE web_rollups SET visitor_stamp = visitor_stamp - 1 "
                                 "WHERE visitor_stamp <> 0");
  })));
  EXPECT_EQ(Breakdown(WebDimension::kCountry), before) << "the tables the blocks name";
}

class WebFilters : public WebAggregates {
 protected:
  std::string Summary(WebDimension dimension, std::string value) {
    auto summary =
        reports::SummarizeVisits(store(), "p-1", Filtered(TwoDays(), dimension, std::move(value)));
    EXPECT_TRUE(Ok(summary));
    return summary ? Show(summary->current) : "";
  }
  std::vector<std::string> Breakdown(WebDimension by, WebDimension dimension, std::string value) {
    return Rows(reports::BreakDown(store(), "p-1", by,
                                   Filtered(TwoDays(), dimension, std::move(value)), 100, 0));
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, WebFilters, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, WebFilters, testing::Values(Backend::kPostgres));

TEST_P(WebFilters, AFilterKeepsTheVisitsWithTheValue) {
  // s1, s2 (A) and s5 (D) are in NP: s1 viewed two pages and clicked in 90 s.
  const std::string nepal = "2 visitors, 3 visits, 4 pageviews, 2 bounces, 90000 ms, 5 events";
  EXPECT_EQ(Summary(WebDimension::kCountry, "NP"), nepal);
  EXPECT_EQ(Summary(WebDimension::kEntryPage, "/home"), nepal);
  EXPECT_EQ(Summary(WebDimension::kCountry, "DE"),
            "1 visitors, 1 visits, 1 pageviews, 1 bounces, 30000 ms, 3 events");
  // "" is the visits without a value: s4, which signed up on the growth channel.
  const std::string signup = "1 visitors, 1 visits, 1 pageviews, 0 bounces, 300000 ms, 2 events";
  EXPECT_EQ(Summary(WebDimension::kCountry, ""), signup);
  EXPECT_EQ(Summary(WebDimension::kEvent, "signup"), signup);
  EXPECT_EQ(Summary(WebDimension::kEventChannel, "growth"), signup);
  // The visits that came from an AI assistant: s1.
  EXPECT_EQ(Summary(WebDimension::kChannel, "AI Assistants"),
            "1 visitors, 1 visits, 2 pageviews, 0 bounces, 90000 ms, 3 events");
  EXPECT_EQ(Summary(WebDimension::kSource, "Google"),
            "1 visitors, 1 visits, 1 pageviews, 1 bounces, 30000 ms, 3 events");
  // A page keeps the visits that viewed it, with all their pageviews.
  EXPECT_EQ(Summary(WebDimension::kPage, "/pricing"),
            "2 visitors, 2 visits, 3 pageviews, 1 bounces, 120000 ms, 6 events");
  EXPECT_EQ(Summary(WebDimension::kCountry, "US"),
            "0 visitors, 0 visits, 0 pageviews, 0 bounces, 0 ms, 0 events");
}

TEST_P(WebFilters, AValueEveryVisitHasChangesNothing) {
  auto whole = reports::SummarizeVisits(store(), "p-1", TwoDays());
  ASSERT_TRUE(Ok(whole));
  EXPECT_EQ(Summary(WebDimension::kEventChannel, "web"), Show(whole->current));
  for (WebDimension by : {WebDimension::kPage, WebDimension::kEntryPage, WebDimension::kExitPage,
                          WebDimension::kCountry, WebDimension::kEvent}) {
    EXPECT_EQ(Breakdown(by, WebDimension::kEventChannel, "web"), WebAggregates::Breakdown(by));
  }
}

TEST_P(WebFilters, BreakdownsSeriesAndDurationsCountTheKeptVisits) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Breakdown(WebDimension::kPage, WebDimension::kPage, "/pricing"),
            (V{"/pricing=2/2", "/home=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kCountry, WebDimension::kPage, "/pricing"),
            (V{"DE=1/1", "NP=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEvent, WebDimension::kCountry, "NP"),
            (V{"screen_view=4/2", "click=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kExitPage, WebDimension::kCountry, "NP"),
            (V{"/home=2/2", "/pricing=1/1"}));
  const ReportingZone utc = Zone("UTC");
  auto days = reports::VisitTimeline(store(), "p-1", utc,
                                     Filtered(TwoDays(), WebDimension::kCountry, "NP"),
                                     reports::Interval::kDay);
  ASSERT_TRUE(Ok(days));
  EXPECT_EQ(Show(days->points[0]), "2 visitors, 3 visits, 4 pageviews, 2 bounces, 90000 ms, 5 events");
  EXPECT_EQ(days->points[1].events, 0);
  auto series = reports::DimensionSeries(store(), "p-1", utc,
                                         Filtered(TwoDays(), WebDimension::kCountry, "NP"),
                                         WebDimension::kPage, reports::Interval::kHour, 2);
  ASSERT_TRUE(Ok(series));
  ASSERT_EQ(series->series.size(), 2u);
  EXPECT_EQ(series->series[0].key, "/home");
  EXPECT_EQ(series->series[0].total, 3);
  EXPECT_EQ(series->series[0].values[0], 1);
  EXPECT_EQ(series->series[0].values[2], 1);
  EXPECT_EQ(series->series[0].values[18], 1);
  auto pages = reports::PageDurations(store(), "p-1",
                                      Filtered(TwoDays(), WebDimension::kPage, "/pricing"), 10, 0);
  ASSERT_TRUE(Ok(pages));
  ASSERT_EQ(pages->size(), 2u);
  EXPECT_EQ((*pages)[0].current.path, "/pricing");
  EXPECT_EQ((*pages)[0].current.pageviews, 2);
  EXPECT_EQ((*pages)[0].current.measured, 0);
  EXPECT_EQ((*pages)[1].current.path, "/home");
  EXPECT_EQ((*pages)[1].current.duration_ms, 60'000);
}

TEST_P(WebFilters, ComparisonLateEventsAndEventsOutsideVisits) {
  const ReportingZone utc = Zone("UTC");
  auto compared = reports::BreakDown(
      store(), "p-1", WebDimension::kPage,
      Filtered(Windows(utc, {20001, 20001}, DayRange{20000, 20000}), WebDimension::kPage,
               "/docs"),
      10, 0);
  ASSERT_TRUE(Ok(compared));
  ASSERT_EQ(compared->rows.size(), 1u);
  EXPECT_EQ(compared->rows[0].current.count, 1);
  EXPECT_EQ(compared->rows[0].previous->count, 0);
  // s3 views /docs the next day: the visit it started on day 20000 now has that page.
  Insert({WebEvent("b4", kT0 + 86'400'000 + kMinute, "screen_view", "B", "s3", "/docs", "DE")});
  EXPECT_EQ(Summary(WebDimension::kPage, "/docs"),
            "2 visitors, 2 visits, 3 pageviews, 0 bounces, 86160000 ms, 6 events");
  // An event without a session counts as an event and a visitor, never as a visit.
  EventRecord loose = WebEvent("e1", kT0 + 3 * 60 * kMinute, "download", "E", "", "/docs", "FR");
  loose.session_id = std::nullopt;
  Insert({loose});
  EXPECT_EQ(Summary(WebDimension::kEvent, "download"),
            "1 visitors, 0 visits, 0 pageviews, 0 bounces, 0 ms, 1 events");
  EXPECT_EQ(Summary(WebDimension::kCountry, "FR"),
            "1 visitors, 0 visits, 0 pageviews, 0 bounces, 0 ms, 1 events");
}

// ---- Blocks of days ---------------------------------------------------------------------------

// 40 UTC days from day 20000 (a multiple of 32, so the first 32 days make one block): a few
// visits and crawler requests each day, with every figure the reports read counted by hand as
// the rows are made.
class RollupBlocks : public StoreConformance {
 protected:
  static constexpr reports::LocalDay kFirst = 20000, kLast = 20039;
  static constexpr std::int64_t kDayMs = 86'400'000;

  struct Expected {
    std::set<std::string> visitors, visits;
    std::int64_t pageviews = 0;
    std::map<std::string, std::int64_t> pageviews_per_path, requests_per_path,
        openai_requests_per_path, verified_requests_per_path;
    std::map<std::string, std::set<std::string>> visitors_per_country, bots_per_country;
  };

  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    std::vector<EventRecord> events;
    std::vector<BotRequestRecord> bots;
    static const char* kCountries[] = {"NP", "DE", "US"};
    static const char* kBots[][2] = {{"GPTBot", "OpenAI"}, {"Googlebot", "Google"},
                                     {"curl", "curl"}};
    for (reports::LocalDay day = kFirst; day <= kLast; ++day) {
      const int n = day % 5 + 1;
      for (int i = 0; i < n; ++i) {
        const std::int64_t at = day * kDayMs + i * 600'000;
        const std::string id = std::to_string(day) + "-" + std::to_string(i);
        EventRecord e = WebEvent("e" + id, at, "screen_view",
                                 "v" + std::to_string((day * 7 + i) % 13), "s" + id,
                                 "/p" + std::to_string(i % 3), kCountries[(day + i) % 3]);
        events.push_back(e);
        const auto* bot = kBots[(day + 2 * i) % 3];
        bots.push_back(ReportBot("b" + id, at, bot[0], bot[1],
                                 i % 2 == 0 ? "verified_bot" : "spoofed_bot",
                                 kCountries[(day * 3 + i) % 3], "/p" + std::to_string(day % 4)));
      }
    }
    Insert(events, bots);
  }

  void Insert(const std::vector<EventRecord>& events, const std::vector<BotRequestRecord>& bots) {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> core::Result<void> {
      auto inserted = tx.events().InsertEvents(events);
      if (!inserted) return inserted;
      return tx.events().InsertBotRequests(bots);
    })));
    for (const EventRecord& e : events) all_events_.push_back(e);
    for (const BotRequestRecord& b : bots) all_bots_.push_back(b);
  }

  Expected Count(DayRange days) const {
    Expected x;
    const auto inside = [&](std::int64_t at) {
      return at >= days.first * kDayMs && at < (days.last + 1) * kDayMs;
    };
    for (const EventRecord& e : all_events_) {
      if (!inside(e.occurred_at)) continue;
      x.visitors.insert(*e.anonymous_id);
      x.visits.insert(*e.session_id);
      ++x.pageviews;
      ++x.pageviews_per_path[*e.path];
      x.visitors_per_country[*e.country].insert(*e.anonymous_id);
    }
    for (const BotRequestRecord& b : all_bots_) {
      if (!inside(b.occurred_at)) continue;
      ++x.requests_per_path[*b.path];
      if (b.bot_vendor == "OpenAI") ++x.openai_requests_per_path[*b.path];
      if (b.actor_type == "verified_bot") ++x.verified_requests_per_path[*b.path];
      x.bots_per_country[*b.country].insert(*b.bot_name);
    }
    return x;
  }

  // Requests per path as the crawler report ranks them with `filters`.
  std::map<std::string, std::int64_t> PathRequests(DayRange days,
                                                   const reports::BotFilters& filters = {}) {
    auto report = reports::RankBotRequests(store(), "p-1", BotGrouping::kPath, filters,
                                           Windows(Zone("UTC"), days), 100, 0);
    EXPECT_TRUE(Ok(report));
    std::map<std::string, std::int64_t> out;
    if (report) {
      for (const reports::RankedRow& row : report->rows) {
        out[row.current.key] = row.current.requests;
      }
    }
    return out;
  }

  void ExpectReportsMatchTheRows(DayRange days) {
    const Expected x = Count(days);
    const ReportWindows windows = Windows(Zone("UTC"), days);
    auto summary = reports::SummarizeVisits(store(), "p-1", windows);
    ASSERT_TRUE(Ok(summary));
    EXPECT_EQ(summary->current.visitors, static_cast<std::int64_t>(x.visitors.size()));
    EXPECT_EQ(summary->current.visits, static_cast<std::int64_t>(x.visits.size()));
    EXPECT_EQ(summary->current.pageviews, x.pageviews);

    auto pages = reports::BreakDown(store(), "p-1", WebDimension::kPage, windows, 100, 0);
    ASSERT_TRUE(Ok(pages));
    std::map<std::string, std::int64_t> pageviews;
    for (const reports::BreakdownRow& row : pages->rows) {
      pageviews[row.current.key] = row.current.count;
    }
    EXPECT_EQ(pageviews, x.pageviews_per_path);

    auto countries = reports::BreakDown(store(), "p-1", WebDimension::kCountry, windows, 100, 0);
    ASSERT_TRUE(Ok(countries));
    std::map<std::string, std::int64_t> visitors, expected_visitors;
    for (const reports::BreakdownRow& row : countries->rows) {
      visitors[row.current.key] = row.current.count;
    }
    for (const auto& [country, ids] : x.visitors_per_country) {
      expected_visitors[country] = static_cast<std::int64_t>(ids.size());
    }
    EXPECT_EQ(visitors, expected_visitors);

    EXPECT_EQ(PathRequests(days), x.requests_per_path);
    EXPECT_EQ(PathRequests(days, {.vendor = "OpenAI"}), x.openai_requests_per_path);
    EXPECT_EQ(PathRequests(days, {.actor_type = "verified_bot"}), x.verified_requests_per_path);

    auto bot_countries = reports::RankBotRequests(store(), "p-1", BotGrouping::kCountry, {},
                                                  windows, 100, 0);
    ASSERT_TRUE(Ok(bot_countries));
    std::map<std::string, std::int64_t> bots, expected_bots;
    for (const reports::RankedRow& row : bot_countries->rows) {
      bots[row.current.key] = row.current.distinct_bots;
    }
    for (const auto& [country, names] : x.bots_per_country) {
      expected_bots[country] = static_cast<std::int64_t>(names.size());
    }
    EXPECT_EQ(bots, expected_bots);
  }

  static std::map<RollupSpan, std::vector<reports::LocalDay>> BlockDays(
      const storage::RollupRange& range) {
    std::map<RollupSpan, std::vector<reports::LocalDay>> out;
    for (const RollupPeriods& periods : range.blocks) {
      for (std::int64_t start : periods.starts) {
        out[periods.span].push_back(static_cast<reports::LocalDay>(start / kDayMs));
      }
    }
    return out;
  }

  std::vector<EventRecord> all_events_;
  std::vector<BotRequestRecord> all_bots_;
};

INSTANTIATE_TEST_SUITE_P(Sqlite, RollupBlocks, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, RollupBlocks, testing::Values(Backend::kPostgres));

TEST_P(RollupBlocks, AWindowReadsTheLargestAlignedBlocksRolledUp) {
  const ReportingZone utc = Zone("UTC");
  ASSERT_TRUE(Ok(reports::RefreshRollups(store(), "p-1", utc, {{kFirst, kLast}})));
  // 40 days: 20 blocks of 2 days, 10 of 4, 5 of 8, 2 of 16, 1 of 32.
  const auto blocks = ReadOk([&](Transaction& tx) {
    return tx.reports().ListRollupBlocks("p-1", "UTC", kFirst * kDayMs, (kLast + 1) * kDayMs);
  });
  std::map<RollupSpan, int> per_span;
  for (const RollupBlock& block : blocks) ++per_span[block.span];
  EXPECT_EQ(per_span, (std::map<RollupSpan, int>{{RollupSpan::kDays2, 20},
                                                 {RollupSpan::kDays4, 10},
                                                 {RollupSpan::kDays8, 5},
                                                 {RollupSpan::kDays16, 2},
                                                 {RollupSpan::kDays32, 1}}));
  const auto range = ReadOk([&](Transaction& tx) {
    return reports::RangeOf(tx, "p-1", utc, {kFirst + 1, kLast - 1});
  });
  using Days = std::vector<reports::LocalDay>;
  EXPECT_EQ(BlockDays(range), (std::map<RollupSpan, Days>{
                                  {RollupSpan::kDay, Days{20001, 20038}},
                                  {RollupSpan::kDays2, Days{20002, 20036}},
                                  {RollupSpan::kDays4, Days{20004, 20032}},
                                  {RollupSpan::kDays8, Days{20008}},
                                  {RollupSpan::kDays16, Days{20016}}}));
  const auto whole = ReadOk([&](Transaction& tx) {
    return reports::RangeOf(tx, "p-1", utc, {kFirst, kFirst + 31});
  });
  EXPECT_EQ(BlockDays(whole), (std::map<RollupSpan, Days>{{RollupSpan::kDays32, Days{20000}}}));
}

TEST_P(RollupBlocks, BlocksAddUpExactlyToTheirRows) {
  for (DayRange days : {DayRange{kFirst, kLast}, DayRange{kFirst + 1, kLast - 1},
                        DayRange{kFirst + 3, kFirst + 20}, DayRange{kFirst + 7, kFirst + 7}}) {
    SCOPED_TRACE(std::to_string(days.first) + ".." + std::to_string(days.last));
    ExpectReportsMatchTheRows(days);
  }
}

TEST_P(RollupBlocks, ALateRowRestatesEveryBlockHoldingItsDay) {
  const ReportingZone utc = Zone("UTC");
  ExpectReportsMatchTheRows({kFirst, kLast});
  const reports::LocalDay day = kFirst + 20;
  EventRecord late = WebEvent("late", day * kDayMs + 5, "screen_view", "new-visitor", "s-late",
                              "/p9", "FR");
  BotRequestRecord late_bot = ReportBot("late-bot", day * kDayMs + 5, "GPTBot", "OpenAI",
                                        "verified_bot", "FR", "/p9");
  Insert({late}, {late_bot});
  ASSERT_TRUE(Ok(reports::RefreshRollups(store(), "p-1", utc, {})));  // the marked day only
  // The day's five blocks were rolled up again, and every other stayed.
  const auto blocks = ReadOk([&](Transaction& tx) {
    return tx.reports().ListRollupBlocks("p-1", "UTC", kFirst * kDayMs, (kLast + 1) * kDayMs);
  });
  EXPECT_EQ(blocks.size(), 38u);
  ExpectReportsMatchTheRows({kFirst, kLast});
  ExpectReportsMatchTheRows({kFirst + 1, kLast - 1});
  EXPECT_EQ(PathRequests({kFirst, kLast}).at("/p9"), 1);
}

}  // namespace
}  // namespace sightline::storage
