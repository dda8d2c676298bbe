// Storage conformance for the report aggregates (storage/repository_reports.cpp and
// repository_web_reports.cpp): every figure computed by hand from a small dataset, on each
// backend.
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

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
        ReportBot("r4", 2'700'000, "GPTBot", "OpenAI", "verified_bot", std::nullopt, "/a"),
        ReportBot("r5", 5000, "curl", "curl", "suspected_bot", "DE", "/a"),
        ReportBot("r6", 6000, "curl", "curl", "suspected_bot", "DE", "/c"),
        ReportBot("r7", 7000, std::nullopt, std::nullopt, "suspected_bot", "FR", "/c"),
        ReportBot("r8", 8000, "50%_off", "Deals", "suspected_bot", "FR", "/c"),
        ReportBot("r9", 10'000'000, "GPTBot", "OpenAI", "verified_bot", "US", "/a")};
    BotRequestRecord other = ReportBot("x1", 1000, "GPTBot", "OpenAI", "verified_bot", "US", "/a");
    other.project_id = "p-2";
    rows.push_back(other);
    ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertBotRequests(rows); })));
  }
  BotReportQuery Query(BotGrouping grouping) {
    BotReportQuery q;
    q.project_id = "p-1";
    q.start_ms = 0;
    q.end_ms = 10'000'000;  // r9 is on the exclusive end
    q.grouping = grouping;
    return q;
  }
  std::vector<std::string> Keys(const BotReportQuery& q) {
    std::vector<std::string> keys;
    for (const BotGroupRow& row : ReadOk([&](Repository& r) { return r.BotRequestGroups(q); })) {
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
  EXPECT_EQ(Keys(Query(BotGrouping::kPath)), (V{"/a=4/2", "/c=3/3", "/b=1/1"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kCategory)), (V{"ai_training=4/1", "automation=4/3"}));
  EXPECT_EQ(Keys(Query(BotGrouping::kVendor)), (V{"OpenAI=4/1", "curl=2/1", "=1/1", "Deals=1/1"}));

  const BotGroupRow top = ReadOk([&](Repository& r) {
    return r.BotRequestGroups(Query(BotGrouping::kBot));
  }).front();
  EXPECT_EQ(top.vendor, "OpenAI");
  EXPECT_EQ(top.category, "ai_training");
  EXPECT_TRUE(top.is_ai);

  const BotGroupTotals totals =
      ReadOk([&](Repository& r) { return r.BotRequestTotals(Query(BotGrouping::kPath)); });
  EXPECT_EQ(totals.groups, 3);
  EXPECT_EQ(totals.requests, 8);
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
  EXPECT_EQ(Keys(q), (std::vector<std::string>{"/a=1/1", "/c=1/1"}));
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

TEST_P(BotAggregates, QuartersSliceUtcTimeInFifteenMinutes) {
  BotReportQuery q = Query(BotGrouping::kVendor);
  q.keys = std::vector<std::string>{"OpenAI"};
  const auto quarters = ReadOk([&](Repository& r) { return r.BotRequestQuarters(q); });
  ASSERT_EQ(quarters.size(), 3u);
  EXPECT_EQ(quarters[0].quarter, 0);
  EXPECT_EQ(quarters[0].requests, 1);
  EXPECT_EQ(quarters[1].quarter, 1);  // 900000 and 900001 ms
  EXPECT_EQ(quarters[1].requests, 2);
  EXPECT_EQ(quarters[2].quarter, 3);
  EXPECT_EQ(quarters[2].key, "OpenAI");
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
    EventRecord bot = WebEvent("x1", kT0, "screen_view", "X", "s9", "/home", "US");
    bot.is_bot = true;
    EventRecord revenue = WebEvent("x2", kT0 + 100'000, "purchase", "A", "s1", "/pricing", "NP");
    revenue.channel = "__analytics";
    EventRecord elsewhere = WebEvent("x3", kT0, "screen_view", "A", "s1", "/home", "NP");
    elsewhere.project_id = "p-2";
    rows.insert(rows.end(), {bot, revenue, elsewhere});
    ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertEvents(rows); })));
  }
  WebReportQuery Query() {
    WebReportQuery q;
    q.project_id = "p-1";
    q.start_ms = kT0;
    q.end_ms = kT0 + 2 * 86'400'000;
    return q;
  }
  std::vector<std::string> Breakdown(WebDimension dimension) {
    WebReportQuery q = Query();
    q.dimension = dimension;
    std::vector<std::string> out;
    for (const WebBreakdownRow& row : ReadOk([&](Repository& r) { return r.WebBreakdown(q); })) {
      out.push_back(row.key + "=" + std::to_string(row.count) + "/" +
                    std::to_string(row.visitors));
    }
    return out;
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, WebAggregates, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, WebAggregates, testing::Values(Backend::kPostgres));

std::string Show(const WebTotalsRow& t) {
  return std::to_string(t.visitors) + " visitors, " + std::to_string(t.visits) + " visits, " +
         std::to_string(t.pageviews) + " pageviews, " + std::to_string(t.bounces) +
         " bounces, " + std::to_string(t.duration_ms) + " ms, " + std::to_string(t.events) +
         " events";
}

TEST_P(WebAggregates, TotalsCountVisitorsVisitsBouncesAndDurations) {
  const auto totals = ReadOk([&](Repository& r) { return r.WebTotals(Query()); });
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(Show(totals[0]), "4 visitors, 5 visits, 6 pageviews, 3 bounces, 420000 ms, 10 events");
}

TEST_P(WebAggregates, TotalsPerBucketUseTheZoneOffset) {
  WebReportQuery q = Query();
  q.buckets = BucketSpec{{{0, 0}}, BucketUnit::kDay, {}};
  auto days = ReadOk([&](Repository& r) { return r.WebTotals(q); });
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days[0].bucket, 20000);
  EXPECT_EQ(Show(days[0]), "3 visitors, 4 visits, 5 pageviews, 3 bounces, 120000 ms, 8 events");
  EXPECT_EQ(Show(days[1]), "1 visitors, 1 visits, 1 pageviews, 0 bounces, 300000 ms, 2 events");
  // At +05:45, D's 18:20 UTC pageview is 00:05 the next local day.
  q.buckets = BucketSpec{{{0, 20'700'000}}, BucketUnit::kDay, {}};
  days = ReadOk([&](Repository& r) { return r.WebTotals(q); });
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(Show(days[0]), "2 visitors, 3 visits, 4 pageviews, 2 bounces, 120000 ms, 7 events");
  EXPECT_EQ(Show(days[1]), "2 visitors, 2 visits, 2 pageviews, 1 bounces, 300000 ms, 3 events");
  // An offset change inside the window: +05:45 until 12:00 UTC, then +00:00.
  q.buckets = BucketSpec{{{kT0 + 12 * 60 * kMinute, 20'700'000}, {0, 0}}, BucketUnit::kDay, {}};
  days = ReadOk([&](Repository& r) { return r.WebTotals(q); });
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days[0].visits, 4) << "D at 18:20 UTC is on day 0 again";
  // Ranges of days: everything before day 20001, then the rest.
  q.buckets = BucketSpec{{{0, 0}}, BucketUnit::kDayRanges, {20001}};
  days = ReadOk([&](Repository& r) { return r.WebTotals(q); });
  ASSERT_EQ(days.size(), 2u);
  EXPECT_EQ(days[0].bucket, 0);
  EXPECT_EQ(days[1].bucket, 1);
  EXPECT_EQ(days[1].visitors, 1);
}

TEST_P(WebAggregates, BreakdownsCountWhatEachDimensionMeans) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Breakdown(WebDimension::kPage), (V{"/home=3/2", "/pricing=2/2", "/docs=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEntryPage), (V{"/home=3/2", "/docs=1/1", "/pricing=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kExitPage), (V{"/home=2/2", "/pricing=2/2", "/docs=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kEvent),
            (V{"screen_view=6/4", "click=1/1", "scroll_depth=1/1", "session_start=1/1",
               "signup=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kChannel), (V{"web=9/4", "growth=1/1"}));
  EXPECT_EQ(Breakdown(WebDimension::kCountry), (V{"NP=2/2", "=1/1", "DE=1/1"}));

  WebReportQuery q = Query();
  q.dimension = WebDimension::kPage;
  EXPECT_EQ(ReadOk([&](Repository& r) { return r.WebBreakdownTotals(q); }).groups, 3);
  q.limit = 1;
  q.offset = 1;
  const auto page = ReadOk([&](Repository& r) { return r.WebBreakdown(q); });
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0].key, "/pricing");
  EXPECT_EQ(page[0].pageviews, 2);
}

TEST_P(WebAggregates, BreakdownPerBucketForChosenValues) {
  WebReportQuery q = Query();
  q.dimension = WebDimension::kPage;
  q.keys = std::vector<std::string>{"/home", "/docs"};
  q.buckets = BucketSpec{{{0, 0}}, BucketUnit::kDay, {}};
  std::vector<std::string> cells;
  for (const WebBreakdownRow& row : ReadOk([&](Repository& r) { return r.WebBreakdown(q); })) {
    cells.push_back(std::to_string(row.bucket) + ":" + row.key + "=" + std::to_string(row.count));
  }
  EXPECT_EQ(cells, (std::vector<std::string>{"20000:/home=3", "20001:/docs=1"}));
}

TEST_P(WebAggregates, PageDurationsRunUntilTheVisitsNextPageview) {
  const auto pages = ReadOk([&](Repository& r) { return r.PageDurations(Query()); });
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0].path, "/home");
  EXPECT_EQ(pages[0].pageviews, 3);
  EXPECT_EQ(pages[0].measured, 1);
  EXPECT_EQ(pages[0].duration_ms, 60'000);
  EXPECT_EQ(pages[1].path, "/pricing");
  EXPECT_EQ(pages[1].measured, 0);
  EXPECT_EQ(pages[2].path, "/docs");
}

}  // namespace
}  // namespace sightline::storage
