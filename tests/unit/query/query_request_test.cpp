#include "query/query_request.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <re2/re2.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace sightline::query {
namespace {

namespace json = boost::json;

core::Result<QueryRequest> Parse(std::string_view text) { return ParseQueryRequest(json::parse(text)); }

// The path a refusal names (VAL_003's details.field); "" when the request was accepted.
std::string RefusedAt(std::string_view text) {
  auto request = Parse(text);
  if (request) return "";
  EXPECT_EQ(request.error().code(), core::ErrorCode::kValInvalidParameter) << request.error().message();
  return std::string(request.error().details().at("field").as_string());
}

TEST(QueryRequest, ReadsAPlausibleStatsApiV2Request) {
  auto request = Parse(R"({
    "site_id": "example.com",
    "metrics": ["visitors", "pageviews", "bounce_rate"],
    "date_range": "7d",
    "dimensions": ["visit:source"],
    "filters": [["is", "visit:country", ["DE", "FR"]],
                ["contains", "event:page", ["/blog"], {"case_sensitive": false}]],
    "order_by": [["visitors", "desc"], ["visit:source", "asc"]],
    "include": {"total_rows": true},
    "pagination": {"limit": 100, "offset": 200}})");
  ASSERT_TRUE(request) << request.error().message();
  EXPECT_EQ(request->dataset, Dataset::kWeb);
  EXPECT_EQ(request->site_id, "example.com");
  EXPECT_EQ(request->metrics, (std::vector<std::string>{"visitors", "pageviews", "bounce_rate"}));
  EXPECT_EQ(request->date_range.shortcut, "7d");
  EXPECT_EQ(request->dimensions, std::vector<std::string>{"visit:source"});
  ASSERT_EQ(request->filters.size(), 2u);
  EXPECT_EQ(request->filters[0].op, FilterOp::kIs);
  EXPECT_EQ(request->filters[0].dimension, "visit:country");
  EXPECT_EQ(request->filters[0].clauses, (std::vector<std::string>{"DE", "FR"}));
  EXPECT_TRUE(request->filters[0].case_sensitive);
  EXPECT_EQ(request->filters[1].op, FilterOp::kContains);
  EXPECT_FALSE(request->filters[1].case_sensitive);
  ASSERT_EQ(request->order_by.size(), 2u);
  EXPECT_TRUE(request->order_by[0].descending);
  EXPECT_FALSE(request->order_by[1].descending);
  EXPECT_TRUE(request->total_rows);
  EXPECT_FALSE(request->time_labels);
  EXPECT_EQ(request->limit, 100);
  EXPECT_EQ(request->offset, 200);
}

TEST(QueryRequest, DefaultsAreThirtyDaysAndPlausiblesPage) {
  auto request = Parse(R"({"metrics": ["visitors"]})");
  ASSERT_TRUE(request);
  EXPECT_EQ(request->date_range.shortcut, "30d");
  EXPECT_EQ(request->limit, kMaxLimit);
  EXPECT_EQ(request->offset, 0);
  EXPECT_TRUE(request->filters.empty());
}

TEST(QueryRequest, NestedLogicBehaviourAndCustomProperties) {
  auto request = Parse(R"({
    "metrics": ["visitors", "percentage"],
    "date_range": ["2026-01-01", "2026-01-31"],
    "dimensions": ["event:props:plan", "time:day"],
    "filters": [["or", [["matches", "event:page", ["^/docs/"]],
                        ["not", ["is", "visit:browser", ["Safari"]]]]],
                ["has_done", ["is", "event:name", ["Signup"]]],
                ["is", "event:props:tier", [3]]],
    "include": {"time_labels": true, "comparisons": {"mode": "year_over_year"}}})");
  ASSERT_TRUE(request) << request.error().message();
  EXPECT_EQ(request->date_range.from, "2026-01-01");
  EXPECT_EQ(request->date_range.to, "2026-01-31");
  EXPECT_FALSE(request->date_range.date_times);
  const Filter& any = request->filters[0];
  EXPECT_EQ(any.op, FilterOp::kOr);
  ASSERT_EQ(any.children.size(), 2u);
  ASSERT_EQ(any.children[0].patterns.size(), 1u);
  EXPECT_TRUE(RE2::PartialMatch("/docs/query", *any.children[0].patterns[0]));
  EXPECT_FALSE(RE2::PartialMatch("/blog/docs/", *any.children[0].patterns[0]));
  EXPECT_EQ(any.children[1].op, FilterOp::kNot);
  EXPECT_EQ(any.children[1].children[0].clauses, std::vector<std::string>{"Safari"});
  EXPECT_EQ(request->filters[1].op, FilterOp::kHasDone);
  EXPECT_EQ(request->filters[2].clauses, std::vector<std::string>{"3"}) << "numbers as text";
  EXPECT_TRUE(request->time_labels);
  ASSERT_TRUE(request->comparison);
  EXPECT_EQ(request->comparison->preset, "previous_year") << "year_over_year is previous_year";
}

TEST(QueryRequest, ACaseInsensitivePatternIgnoresCase) {
  auto request = Parse(R"({"metrics": ["visitors"],
    "filters": [["matches", "event:page", ["^/BLOG"], {"case_sensitive": false}]]})");
  ASSERT_TRUE(request);
  EXPECT_TRUE(RE2::PartialMatch("/blog/post", *request->filters[0].patterns[0]));
}

TEST(QueryRequest, EachDatasetHasItsOwnNames) {
  EXPECT_EQ(RefusedAt(R"({"dataset": "crawlers", "metrics": ["requests", "percentage"],
    "dimensions": ["bot:vendor"], "filters": [["is", "bot:verification", ["spoofed_bot"]]]})"), "");
  EXPECT_EQ(RefusedAt(R"({"dataset": "ai_visibility", "metrics": ["mention_rate"],
    "dimensions": ["ai:engine", "time:week"],
    "include": {"comparisons": {"mode": "custom", "date_range": ["2026-01-01", "2026-01-07"]}}})"),
            "");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors", "requests"]})"), "metrics[1]");
  EXPECT_EQ(RefusedAt(R"({"dataset": "crawlers", "metrics": ["requests"],
    "dimensions": ["visit:source"]})"), "dimensions[0]");
  EXPECT_EQ(RefusedAt(R"({"dataset": "crawlers", "metrics": ["requests"],
    "filters": [["is", "event:props:plan", ["pro"]]]})"), "filters[0][1]");
  EXPECT_EQ(RefusedAt(R"({"dataset": "logs", "metrics": ["requests"]})"), "dataset");
}

TEST(QueryRequest, BadQueriesNameTheOffendingPath) {
  EXPECT_EQ(RefusedAt(R"([])"), "");  // not an object: the whole body
  EXPECT_EQ(RefusedAt(R"({"metrics": []})"), "metrics");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors", "sessions"]})"), "metrics[1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors", "visitors"]})"), "metrics[1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "dimensions": ["visit:planet"]})"),
            "dimensions[0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "dimensions": ["event:props:"]})"),
            "dimensions[0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "date_range": "8d"})"), "date_range");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "date_range": ["2026-01-01", "2026-01-02T00:00:00Z"]})"),
            "date_range");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "date": "2026-01-01"})"), "date");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "interval": "day"})"), "interval");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["equals", "event:page", ["/"]]]})"),
            "filters[0][0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["is", "event:page", []]]})"),
            "filters[0][2]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["is", "event:page", [true]]]})"),
            "filters[0][2][0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["is", "time:day", ["1"]]]})"),
            "filters[0][1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"],
    "filters": [["and", [["is", "event:page", ["/"]], ["matches", "event:page", ["/", "(open"]]]]]})"),
            "filters[0][1][1][2][1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"],
    "filters": [["is", "event:page", ["/"], {"case_sensitive": "no"}]]})"),
            "filters[0][3].case_sensitive");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "order_by": [["pageviews", "desc"]]})"),
            "order_by[0][0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "order_by": [["visitors", "up"]]})"),
            "order_by[0][1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "pagination": {"limit": 0}})"),
            "pagination.limit");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "pagination": {"limit": 10001}})"),
            "pagination.limit");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "pagination": {"offset": -1}})"),
            "pagination.offset");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "include": {"comparisons": {"mode": "last_decade"}}})"),
            "include.comparisons.mode");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "include": {"comparisons": {"mode": "custom"}}})"),
            "include.comparisons.date_range");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"],
    "include": {"comparisons": {"mode": "previous_period", "match_day_of_week": true}}})"),
            "include.comparisons.match_day_of_week");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "include": {"imports": true}})"), "include.imports");
}

TEST(QueryRequest, ImpossibleCombinationsAreRefused) {
  // Plausible's rule: visit metrics cannot be split by what happens inside a visit, except
  // the page.
  EXPECT_EQ(RefusedAt(R"({"metrics": ["bounce_rate"], "dimensions": ["event:name"]})"),
            "dimensions[0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visit_duration"], "dimensions": ["event:props:plan"]})"),
            "dimensions[0]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["bounce_rate"], "dimensions": ["event:page"]})"), "");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["percentage"]})"), "metrics");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["percentage"], "dimensions": ["time:day"]})"), "metrics");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "dimensions": ["time:day", "time:week"]})"),
            "dimensions[1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "include": {"time_labels": true}})"),
            "include.time_labels");
  // Behavioural filters ask about events, of visits, once.
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"],
    "filters": [["has_done", ["is", "visit:source", ["Google"]]]]})"), "filters[0][1][1]");
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"],
    "filters": [["has_done", ["not", ["has_done", ["is", "event:name", ["x"]]]]]]})"),
            "filters[0][1][1][0]");
  EXPECT_EQ(RefusedAt(R"({"dataset": "crawlers", "metrics": ["requests"],
    "filters": [["has_not_done", ["is", "event:page", ["/"]]]]})"), "filters[0][0]");
}

TEST(QueryRequest, LimitsHold) {
  // Depth: each logical level counts; the sixth is one too deep.
  std::string deep = R"(["is", "event:page", ["/"]])";
  for (int i = 0; i < 4; ++i) deep = R"(["not", )" + deep + "]";
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [)" + deep + "]}"), "");
  const std::string deeper = R"(["not", )" + deep + "]";
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [)" + deeper + "]}"),
            "filters[0][1][1][1][1][1]");

  std::string many = R"({"metrics": ["visitors"], "filters": [)";
  for (std::size_t i = 0; i <= kMaxFilterConditions; ++i) {
    many += std::string(i ? "," : "") + R"(["is", "event:page", ["/"]])";
  }
  EXPECT_EQ(RefusedAt(many + "]}"), "filters[" + std::to_string(kMaxFilterConditions) + "]");

  const std::string long_value(kMaxClauseBytes + 1, 'a');
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["is", "event:page", [")" +
                      long_value + R"("]]]})"),
            "filters[0][2][0]");
  const std::string long_key(kMaxPropertyKeyBytes + 1, 'k');
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "dimensions": ["event:props:)" + long_key +
                      R"("]})"),
            "dimensions[0]");
  // The patterns of a request are bounded together, in number and in size.
  std::string patterns;
  for (std::size_t i = 0; i <= kMaxPatterns; ++i) patterns += std::string(i ? "," : "") + "\"^/p\"";
  EXPECT_EQ(RefusedAt(R"({"metrics": ["visitors"], "filters": [["matches", "event:page", [)" +
                      patterns + "]]]}"),
            "filters[0][2][" + std::to_string(kMaxPatterns) + "]");
  std::string large;
  for (int i = 0; i < 21; ++i) large += std::string(i ? "," : "") + R"("[^\\n]{1000}")";
  const std::string refused = RefusedAt(
      R"({"metrics": ["visitors"], "filters": [["matches", "event:page", [)" + large + "]]]}");
  EXPECT_TRUE(refused.starts_with("filters[0][2][")) << refused
      << ": each compiles to thousands of instructions, 21 together are too many";
  // A pattern too big for RE2's memory bound does not compile; it never runs long.
  EXPECT_EQ(RefusedAt(R"q({"metrics": ["visitors"], "filters": [["matches", "event:page",
    ["((((a{1,100}){1,100}){1,100}){1,100})"]]]})q"), "filters[0][2][0]");
}

TEST(QueryCatalog, NamesAreUniquePerDatasetAndFound) {
  for (const Dataset dataset : {Dataset::kWeb, Dataset::kCrawlers, Dataset::kAiVisibility}) {
    std::set<std::string_view> seen;
    for (const MetricInfo& metric : Metrics()) {
      if (!In(metric.datasets, dataset)) continue;
      EXPECT_TRUE(seen.insert(metric.name).second) << metric.name;
      EXPECT_EQ(FindMetric(metric.name, dataset), &metric);
    }
    for (const DimensionInfo& dimension : Dimensions()) {
      if (!In(dimension.datasets, dataset)) continue;
      EXPECT_TRUE(seen.insert(dimension.name).second) << dimension.name;
    }
  }
  EXPECT_NE(FindDimension("event:props:plan", Dataset::kWeb), nullptr);
  EXPECT_EQ(FindDimension("event:props:plan", Dataset::kCrawlers), nullptr);
  EXPECT_EQ(PropertyKeyOf("event:props:plan"), "plan");
  EXPECT_FALSE(PropertyKeyOf("event:props:a\nb"));
  EXPECT_EQ(ParseDataset("ai_visibility"), Dataset::kAiVisibility);
  EXPECT_EQ(DatasetName(Dataset::kCrawlers), "crawlers");
}

TEST(QueryCatalog, DocsQueryNamesEveryMetricAndDimension) {
  std::ifstream file(std::string(SIGHTLINE_SOURCE_DIR) + "/docs/query.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string docs = text.str();
  ASSERT_FALSE(docs.empty());
  for (const MetricInfo& metric : Metrics()) {
    EXPECT_NE(docs.find("`" + std::string(metric.name) + "`"), std::string::npos) << metric.name;
  }
  for (const DimensionInfo& dimension : Dimensions()) {
    const std::string name = dimension.name == kPropertyPrefix ? "event:props:<key>"
                                                               : std::string(dimension.name);
    EXPECT_NE(docs.find("`" + name + "`"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace sightline::query
