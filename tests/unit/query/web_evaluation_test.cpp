// The web dataset's answers on a hand-computed fixture: three visits and one event outside
// every visit, every figure worked out by hand in the comments.
#include "query/web_evaluation.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace sightline::query {
namespace {

constexpr std::int64_t kSecond = 1000;

VisitEvent View(std::int64_t seconds, std::string_view page) {
  return {seconds * kSecond, "screen_view", "web", page, {}};
}

const std::vector<Property> kProPlan = {{"plan", "pro"}};

// A: v1 from Google in Germany on Chrome: /home, /pricing 10 s later, a signup (plan=pro) 30 s
//    after that: 2 pageviews, 3 events, engaged (no bounce), 40 s, /home timed 10 s.
// B: v2, Direct, France, Firefox: /home alone: a bounce, 0 s.
// C: v1 again, Google, Germany, Safari: /blog/a, /blog/b 30 s later: /blog/a timed 30 s.
// D: v3 in the US, an event outside every visit (a visitor and an event, never a visit).
std::vector<Visit> Fixture() {
  Visit a{true, "v1", "Google", "Organic Search", "https://google.com/", "", "", "", "", "",
          "DE", "DE-BE", "Berlin", "Desktop", "Chrome", "Linux", {}};
  a.events = {View(0, "/home"), View(10, "/pricing"),
              {40 * kSecond, "signup", "users", "/pricing", kProPlan}};
  Visit b{true, "v2", "Direct", "Direct", "", "", "", "", "", "", "FR", "FR-IDF", "Paris",
          "Mobile", "Firefox", "Android", {View(100, "/home")}};
  Visit c{true, "v1", "Google", "Organic Search", "https://google.com/", "", "", "", "", "",
          "DE", "DE-BE", "Berlin", "Desktop", "Safari", "macOS",
          {View(200, "/blog/a"), View(230, "/blog/b")}};
  Visit d{false, "v3", "", "", "", "", "", "", "", "", "US", "", "", "", "", "",
          {{120 * kSecond, "server_ping", "system", "", {}}}};
  return {a, b, c, d};
}

VisitSource FixtureSource() {
  return [](const std::function<void(const Visit&)>& each) -> core::Result<void> {
    for (const Visit& visit : Fixture()) each(visit);
    return {};
  };
}

QueryAnswer Answer(std::string_view request_json, const TimeBuckets& buckets = {}) {
  auto request = ParseQueryRequest(boost::json::parse(request_json));
  EXPECT_TRUE(request) << request.error().message();
  auto answer = AnswerWeb(*request, FixtureSource(), buckets);
  EXPECT_TRUE(answer) << answer.error().message();
  return *answer;
}

std::int64_t Int(const MetricValue& value) {
  EXPECT_EQ(value.kind, MetricValue::Kind::kInteger);
  return value.integer;
}
double Number(const MetricValue& value) {
  EXPECT_EQ(value.kind, MetricValue::Kind::kNumber);
  return value.number;
}

TEST(WebEvaluation, TotalsFollowTheReportsDefinitions) {
  const QueryAnswer answer = Answer(R"({"metrics": ["visitors", "visits", "pageviews", "events",
    "bounce_rate", "visit_duration", "views_per_visit", "time_on_page"]})");
  ASSERT_EQ(answer.rows.size(), 1u);
  const auto& m = answer.rows[0].metrics;
  EXPECT_EQ(Int(m[0]), 3);   // v1, v2, v3
  EXPECT_EQ(Int(m[1]), 3);   // A, B, C (D is no visit)
  EXPECT_EQ(Int(m[2]), 5);   // 2 + 1 + 2
  EXPECT_EQ(Int(m[3]), 7);   // 3 + 1 + 2 + 1
  EXPECT_DOUBLE_EQ(Number(m[4]), 100.0 / 3);  // B of three visits
  EXPECT_DOUBLE_EQ(Number(m[5]), 70.0 / 3);   // (40 + 0 + 30) s / 3
  EXPECT_DOUBLE_EQ(Number(m[6]), 5.0 / 3);
  EXPECT_DOUBLE_EQ(Number(m[7]), 20.0);       // (10 + 30) s / 2 timed views
  EXPECT_EQ(answer.total_rows, 1);
}

TEST(WebEvaluation, AVisitDimensionCountsEachVisitOnce) {
  const QueryAnswer answer =
      Answer(R"({"metrics": ["visitors", "visits", "bounce_rate"], "dimensions": ["visit:source"]})");
  ASSERT_EQ(answer.rows.size(), 3u);
  // Ties on visitors (1 each) fall back to the values: "" (D), Direct, Google.
  EXPECT_EQ(answer.rows[0].dimensions, std::vector<std::string>{""});
  EXPECT_EQ(Int(answer.rows[0].metrics[1]), 0);
  EXPECT_EQ(answer.rows[0].metrics[2].kind, MetricValue::Kind::kNone) << "no visit, no rate";
  EXPECT_EQ(answer.rows[1].dimensions, std::vector<std::string>{"Direct"});
  EXPECT_DOUBLE_EQ(Number(answer.rows[1].metrics[2]), 100);
  EXPECT_EQ(answer.rows[2].dimensions, std::vector<std::string>{"Google"});
  EXPECT_EQ(Int(answer.rows[2].metrics[0]), 1);  // v1 twice
  EXPECT_EQ(Int(answer.rows[2].metrics[1]), 2);
  EXPECT_DOUBLE_EQ(Number(answer.rows[2].metrics[2]), 0);
}

TEST(WebEvaluation, PagesCountPageviewsAndTheirVisitors) {
  const QueryAnswer answer = Answer(
      R"({"metrics": ["visitors", "pageviews", "time_on_page"], "dimensions": ["event:page"]})");
  ASSERT_EQ(answer.rows.size(), 4u);
  EXPECT_EQ(answer.rows[0].dimensions, std::vector<std::string>{"/home"});
  EXPECT_EQ(Int(answer.rows[0].metrics[0]), 2);
  EXPECT_EQ(Int(answer.rows[0].metrics[1]), 2);
  EXPECT_DOUBLE_EQ(Number(answer.rows[0].metrics[2]), 10);  // only A's /home was followed
  EXPECT_EQ(answer.rows[1].dimensions, std::vector<std::string>{"/blog/a"});
  EXPECT_DOUBLE_EQ(Number(answer.rows[1].metrics[2]), 30);
  EXPECT_EQ(answer.rows[2].dimensions, std::vector<std::string>{"/blog/b"});
  EXPECT_EQ(answer.rows[2].metrics[2].kind, MetricValue::Kind::kNone);
  EXPECT_EQ(answer.rows[3].dimensions, std::vector<std::string>{"/pricing"});
  EXPECT_EQ(answer.total_rows, 4);

  const QueryAnswer page = Answer(R"({"metrics": ["visitors"], "dimensions": ["event:page"],
    "pagination": {"limit": 2, "offset": 1}})");
  ASSERT_EQ(page.rows.size(), 2u);
  EXPECT_EQ(page.rows[0].dimensions, std::vector<std::string>{"/blog/a"});
  EXPECT_EQ(page.rows[1].dimensions, std::vector<std::string>{"/blog/b"});
  EXPECT_EQ(page.total_rows, 4);
}

TEST(WebEvaluation, StackedFiltersKeepVisits) {
  const auto visitors = [](std::string_view filters) {
    const QueryAnswer answer = Answer(R"({"metrics": ["visitors", "visits", "events"], "filters": )" +
                                    std::string(filters) + "}");
    EXPECT_EQ(answer.rows.size(), 1u);
    return std::vector<std::int64_t>{answer.rows[0].metrics[0].integer,
                                     answer.rows[0].metrics[1].integer,
                                     answer.rows[0].metrics[2].integer};
  };
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(visitors(R"([["has_done", ["is", "event:name", ["signup"]]]])"), (V{1, 1, 3}));
  EXPECT_EQ(visitors(R"([["is", "event:props:plan", ["PRO"], {"case_sensitive": false}]])"),
            (V{1, 1, 3}));
  EXPECT_EQ(visitors(R"([["is", "event:props:plan", ["PRO"]]])"), (V{0, 0, 0}));
  EXPECT_EQ(visitors(R"([["not", ["is", "visit:country", ["DE"]]]])"), (V{2, 1, 2}));  // B, D
  EXPECT_EQ(visitors(R"([["contains", "event:page", ["blog"]]])"), (V{1, 1, 2}));       // C
  EXPECT_EQ(visitors(R"([["matches", "event:page", ["^/p"]]])"), (V{1, 1, 3}));         // A
  // is_not is not(is): D has no page, so no /home.
  EXPECT_EQ(visitors(R"([["is_not", "event:page", ["/home"]]])"), (V{2, 1, 3}));        // C, D
  EXPECT_EQ(visitors(R"([["or", [["is", "visit:country", ["FR"]],
                                 ["is", "visit:browser", ["Safari"]]]]])"), (V{2, 2, 3}));  // B, C
  // Two stacked conditions: both hold (Google and /home: A only).
  EXPECT_EQ(visitors(R"([["is", "visit:source", ["Google"]], ["is", "event:page", ["/home"]]])"),
            (V{1, 1, 3}));
  // has_done holds on one event: the signup is on /pricing, never on /home.
  EXPECT_EQ(visitors(R"([["has_done", ["and", [["is", "event:name", ["signup"]],
                                              ["is", "event:props:plan", ["pro"]]]]]])"),
            (V{1, 1, 3}));
  EXPECT_EQ(visitors(R"([["has_not_done", ["is", "event:name", ["signup"]]]])"), (V{3, 2, 4}));
  // Inside has_done an event without the value satisfies no condition, negated or not: "viewed
  // only /home" keeps B (and D, which viewed nothing), though A's signup has no page.
  EXPECT_EQ(visitors(R"([["has_not_done", ["is_not", "event:page", ["/home"]]]])"), (V{2, 1, 2}));
}

TEST(WebEvaluation, AVisitWithoutAVisitorIdCountsNoVisitor) {
  const VisitSource source = [](const std::function<void(const Visit&)>& each) -> core::Result<void> {
    for (Visit visit : Fixture()) each(visit);
    Visit anonymous = Fixture()[1];
    anonymous.visitor = {};
    each(anonymous);
    return {};
  };
  auto request = ParseQueryRequest(boost::json::parse(
      R"({"metrics": ["visitors", "visits"], "dimensions": ["visit:country"]})"));
  ASSERT_TRUE(request);
  auto answer = AnswerWeb(*request, source);
  ASSERT_TRUE(answer);
  for (const ResultRow& row : answer->rows) {
    if (row.dimensions[0] != "FR") continue;
    EXPECT_EQ(Int(row.metrics[0]), 1) << "v2 only, as the rollups count";
    EXPECT_EQ(Int(row.metrics[1]), 2);
  }
}

TEST(WebEvaluation, CustomPropertiesTimeAndPercentage) {
  const QueryAnswer plans =
      Answer(R"({"metrics": ["visitors", "events"], "dimensions": ["event:props:plan"]})");
  ASSERT_EQ(plans.rows.size(), 1u) << "only the signup carries `plan`";
  EXPECT_EQ(plans.rows[0].dimensions, std::vector<std::string>{"pro"});
  EXPECT_EQ(Int(plans.rows[0].metrics[1]), 1);

  TimeBuckets buckets{{{0, 150 * kSecond}, {150 * kSecond, 300 * kSecond}}, {"first", "second"}};
  const QueryAnswer days = Answer(R"({"metrics": ["visitors", "pageviews"], "dimensions": ["time:day"]})",
                                buckets);
  ASSERT_EQ(days.rows.size(), 2u);
  EXPECT_EQ(days.rows[0].dimensions, std::vector<std::string>{"first"});
  EXPECT_EQ(Int(days.rows[0].metrics[0]), 3);  // A, B, D
  EXPECT_EQ(Int(days.rows[0].metrics[1]), 3);
  EXPECT_EQ(days.rows[1].dimensions, std::vector<std::string>{"second"});
  EXPECT_EQ(Int(days.rows[1].metrics[0]), 1);  // C

  const QueryAnswer shares = Answer(R"({"metrics": ["percentage"], "dimensions": ["visit:country"],
    "order_by": [["visit:country", "desc"]]})");
  ASSERT_EQ(shares.rows.size(), 3u);
  EXPECT_EQ(shares.rows[0].dimensions, std::vector<std::string>{"US"});
  EXPECT_EQ(shares.rows[2].dimensions, std::vector<std::string>{"DE"});
  EXPECT_DOUBLE_EQ(Number(shares.rows[2].metrics[0]), 100.0 / 3);
}

TEST(WebEvaluation, VisitAndEventDimensionsTogether) {
  const QueryAnswer answer = Answer(
      R"({"metrics": ["visits", "pageviews"], "dimensions": ["visit:browser", "event:page"]})");
  // Chrome /home, Chrome /pricing, Firefox /home, Safari /blog/a, Safari /blog/b: one visit
  // each, one pageview each; ties ordered by the values.
  ASSERT_EQ(answer.rows.size(), 5u);
  EXPECT_EQ(answer.rows[0].dimensions, (std::vector<std::string>{"Chrome", "/home"}));
  EXPECT_EQ(answer.rows[4].dimensions, (std::vector<std::string>{"Safari", "/blog/b"}));
  for (const ResultRow& row : answer.rows) {
    EXPECT_EQ(Int(row.metrics[0]), 1);
    EXPECT_EQ(Int(row.metrics[1]), 1);
  }
}

// Rows are told apart by their whole list of values, not by the values run together.
TEST(WebEvaluation, RowsOfValuesThatJoinAlikeStayApart) {
  const VisitSource source = [](const std::function<void(const Visit&)>& each) -> core::Result<void> {
    Visit ab_c = Fixture()[1];
    ab_c.country = "ab";
    ab_c.region = "c";
    Visit a_bc = ab_c;
    a_bc.country = "a";
    a_bc.region = "bc";
    each(ab_c);
    each(a_bc);
    return {};
  };
  auto request = ParseQueryRequest(boost::json::parse(
      R"({"metrics": ["visits"], "dimensions": ["visit:country", "visit:region"]})"));
  ASSERT_TRUE(request);
  auto answer = AnswerWeb(*request, source);
  ASSERT_TRUE(answer);
  ASSERT_EQ(answer->rows.size(), 2u);
  EXPECT_EQ(answer->rows[0].dimensions, (std::vector<std::string>{"a", "bc"}));
  EXPECT_EQ(answer->rows[1].dimensions, (std::vector<std::string>{"ab", "c"}));
}

TEST(WebEvaluation, ValuesReadAreTheDimensionsAndFiltersOnes) {
  const auto values_read = [](std::string_view request_json) {
    auto request = ParseQueryRequest(boost::json::parse(request_json));
    EXPECT_TRUE(request) << request.error().message();
    return ValuesRead(*request);
  };
  const auto only = [](std::initializer_list<VisitValue> values) {
    VisitValues set;
    for (const VisitValue value : values) set.set(static_cast<std::size_t>(value));
    return set;
  };
  EXPECT_EQ(values_read(R"({"metrics": ["visitors"], "dimensions": ["time:day"]})"), only({}));
  EXPECT_EQ(values_read(R"({"metrics": ["visitors"], "dimensions": ["visit:source"],
                            "filters": [["not", ["is", "visit:country", ["DE"]]]]})"),
            only({VisitValue::kSource, VisitValue::kCountry}));
  EXPECT_EQ(values_read(R"({"metrics": ["visitors"], "dimensions": ["visit:exit_page"],
                            "filters": [["has_done", ["is", "event:props:plan", ["pro"]]]]})"),
            only({VisitValue::kPages, VisitValue::kProperties}));
  EXPECT_EQ(values_read(R"({"metrics": ["visitors"], "dimensions": ["event:name"],
                            "filters": [["contains", "event:page", ["/blog"]]]})"),
            only({VisitValue::kPages}));
}

TEST(WebEvaluation, ReadingKeepsThePropertyKeysAndTheVisitConditionsOfTheFilters) {
  auto request = ParseQueryRequest(boost::json::parse(R"({"metrics": ["visitors"],
      "dimensions": ["event:props:plan"],
      "filters": [["is", "visit:country", ["DE", "AT"]], ["is_not", "visit:device", ["Mobile"]],
                  ["contains", "event:page", ["/blog"]], ["is", "visit:entry_page", ["/"]],
                  ["not", ["is", "visit:browser", ["Safari"]]],
                  ["has_done", ["is", "event:props:step", ["2"]]]]})"));
  ASSERT_TRUE(request) << request.error().message();
  const VisitReading reading = ReadingOf(*request);
  EXPECT_EQ(reading.property_keys, (std::vector<std::string>{"plan", "step"}));
  // Only conditions on a value the visit's first event has, at the top level: not the page
  // (any event's), the entry page (known once the events are read) or what `not` holds.
  ASSERT_EQ(reading.conditions.size(), 2u);
  EXPECT_EQ(reading.conditions[0].value, VisitValue::kCountry);
  EXPECT_TRUE(reading.conditions[0].holds("AT"));
  EXPECT_FALSE(reading.conditions[0].holds("FR"));
  EXPECT_EQ(reading.conditions[1].value, VisitValue::kDevice);
  EXPECT_TRUE(reading.conditions[1].holds("Desktop"));
  EXPECT_FALSE(reading.conditions[1].holds("Mobile"));
}

}  // namespace
}  // namespace sightline::query
