// End-to-end: crawler reports against the real binary on every backend. Requests are stored
// through /ingest/v1/server at chosen instants (client_timestamp), and every expected figure
// below is computed by hand from those instants and the zones' rules.
#include "harness.h"

#include "api_client.h"
#include "sample_agents.h"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <thread>

namespace sightline::e2e {
namespace {

namespace json = boost::json;


std::string Item(const std::string& ua, const std::string& ip, const std::string& path,
                 std::int64_t at) {
  return R"({"user_agent":")" + ua + R"(","ip_address":")" + ip + R"(","path":")" + path +
         R"(","client_timestamp":)" + std::to_string(at) + "}";
}

class Reports : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    std::ofstream(ranges_.path() / "gptbot.json")
        << R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]})";
    creds_ = Bootstrap(GetParam(), Unique("reports"), "Site");
    server_ = std::make_unique<ServerProcess>(
        GetParam(), std::vector<std::string>{"--bot-ranges-dir", ranges_.path().string()});
  }

  ApiClient api() const { return ApiClient(*server_); }
  void SetTimezone(const std::string& zone) {
    const Response r = api().Call("PATCH", creds_.ProjectPath(), creds_.private_api_key,
                                  R"({"reportingTimezone":")" + zone + R"("})");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  void Ingest(const std::vector<std::string>& items) {
    std::string body = R"({"events":[)";
    for (std::size_t i = 0; i < items.size(); ++i) body += (i ? "," : "") + items[i];
    const Response r =
        api().Call("POST", "/ingest/v1/server", creds_.private_api_key, body + "]}");
    ASSERT_EQ(r.status, 202) << r.body;
    ASSERT_EQ(r.Json().at("accepted").as_int64(), static_cast<std::int64_t>(items.size()));
  }
  json::object Report(const std::string& target) {
    const Response r = api().Call("GET", target, creds_.private_api_key);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    return r.status == 200 ? r.Json().as_object() : json::object{};
  }

  // Kathmandu (+05:45): selection 2026-11-10..11 local = [2026-11-09T18:15Z, 2026-11-11T18:15Z);
  // its previous period 2026-11-08..09 local = [2026-11-07T18:15Z, 2026-11-09T18:15Z).
  void IngestKathmanduDataset() {
    SetTimezone("Asia/Kathmandu");
    Ingest({
        Item(kGptBot, "192.0.2.10", "/docs", 1794248040000),   // 11-09 23:59 local: previous
        Item(kGptBot, "192.0.2.10", "/docs", 1794248100000),   // 11-10 00:00 local: selected
        Item(kGptBot, "192.0.2.11", "/pricing", 1794304800000),
        Item(kGptBot, "192.0.2.10", "/docs", 1794420899999),   // 11-11 23:59:59.999 local
        Item(kGptBot, "192.0.2.10", "/docs", 1794420900000),   // 11-12 00:00 local: outside
        Item(kGptBot, "203.0.113.5", "/docs", 1794312000000),  // outside OpenAI's range: spoofed
        Item("curl/8.5.0", "203.0.113.9", "/api", 1794290400000),
        Item("curl/8.5.0", "203.0.113.9", "/api", 1794294000000),
        Item(kSlackbot, "203.0.113.7", "/blog", 1794304800000),
        Item(kSlackbot, "203.0.113.7", "/blog", 1794132000000),  // previous period ×2
        Item(kSlackbot, "203.0.113.7", "/blog", 1794132000000),
        Item("python-requests/2.32.3", "203.0.113.8", "/api", 1794139200000),  // previous only
        Item(kGptBot, "192.0.2.10", "/docs", 1794075240000),  // 11-07 23:59 local: before both
    });
  }

  TempDir ranges_{"sightline-report-ranges-"};
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

const json::object& Row(const json::object& report, std::size_t i) {
  return report.at("rows").as_array().at(i).as_object();
}

TEST_P(Reports, TopBotsCountTheLocalDaysAndCompareWithThePreviousPeriod) {
  IngestKathmanduDataset();
  const json::object top = Report("/bots/analytics/top?from=2026-11-10&to=2026-11-11");
  EXPECT_EQ(top.at("timezone").as_string(), "Asia/Kathmandu");
  EXPECT_EQ(json::serialize(top.at("window")),
            R"({"from":"2026-11-09T18:15:00.000Z","to":"2026-11-11T18:15:00.000Z"})");
  EXPECT_EQ(json::serialize(top.at("comparisonWindow")),
            R"({"from":"2026-11-07T18:15:00.000Z","to":"2026-11-09T18:15:00.000Z"})");
  EXPECT_EQ(top.at("total").as_int64(), 3);
  EXPECT_EQ(top.at("totalRequests").as_int64(), 7);
  EXPECT_EQ(top.at("previousTotalRequests").as_int64(), 4);
  ASSERT_EQ(top.at("rows").as_array().size(), 3u);

  const json::object& gpt = Row(top, 0);
  EXPECT_EQ(gpt.at("botName").as_string(), "GPTBot");
  EXPECT_EQ(gpt.at("vendor").as_string(), "OpenAI");
  EXPECT_EQ(gpt.at("category").as_string(), "ai_training");
  EXPECT_TRUE(gpt.at("isAi").as_bool());
  EXPECT_EQ(gpt.at("requestCount").as_int64(), 4);
  // Three from OpenAI's range, one from elsewhere.
  EXPECT_EQ(gpt.at("verifiedRequestCount").as_int64(), 3);
  EXPECT_EQ(gpt.at("spoofedRequestCount").as_int64(), 1);
  EXPECT_EQ(gpt.at("suspectedRequestCount").as_int64(), 0);
  EXPECT_EQ(gpt.at("previousRequestCount").as_int64(), 1);
  EXPECT_EQ(gpt.at("absoluteChange").as_int64(), 3);
  EXPECT_DOUBLE_EQ(gpt.at("percentageChange").to_number<double>(), 300.0);

  const json::object& curl = Row(top, 1);
  EXPECT_EQ(curl.at("botName").as_string(), "curl");
  EXPECT_EQ(curl.at("previousRequestCount").as_int64(), 0) << "unseen before: a count reads 0";
  EXPECT_TRUE(curl.at("percentageChange").is_null()) << "previous figure 0";

  const json::object& slack = Row(top, 2);
  EXPECT_EQ(slack.at("botName").as_string(), "Slackbot");
  EXPECT_EQ(slack.at("requestCount").as_int64(), 1);
  EXPECT_EQ(slack.at("absoluteChange").as_int64(), -1);
  EXPECT_DOUBLE_EQ(slack.at("percentageChange").to_number<double>(), -50.0);
  // python-requests was seen only in the comparison window: not a row.
}

// `query` over the crawler dataset answers what the top-bots report does, on the same rows.
TEST_P(Reports, QueryOnCrawlersAgreesWithTopBots) {
  IngestKathmanduDataset();
  const json::object top = Report("/bots/analytics/top?from=2026-11-10&to=2026-11-11");
  const auto query = [&](const std::string& body) {
    const Response r = api().Call("POST", creds_.ProjectPath() + "/query", creds_.private_api_key,
                                  body);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_object() : json::object{};
  };
  const json::object bots = query(
      R"({"dataset":"crawlers","metrics":["requests","pages","percentage"],"dimensions":["bot:name"],
          "date_range":["2026-11-10","2026-11-11"],"include":{"comparisons":{"mode":"previous_period"}}})");
  const json::array& rows = bots.at("results").as_array();
  ASSERT_EQ(rows.size(), top.at("rows").as_array().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].at("dimensions").at(0), Row(top, i).at("botName"));
    EXPECT_EQ(rows[i].at("metrics").at(0), Row(top, i).at("requestCount"));
    EXPECT_EQ(rows[i].at("comparison").at("metrics").at(0), Row(top, i).at("previousRequestCount"));
  }
  // GPTBot: /docs and /pricing, 4 of 7 requests.
  EXPECT_EQ(rows[0].at("metrics").at(1).as_int64(), 2);
  EXPECT_DOUBLE_EQ(rows[0].at("metrics").at(2).to_number<double>(), 400.0 / 7);

  // Verified and spoofed GPTBot requests, as the report splits them.
  const json::object split = query(
      R"({"dataset":"crawlers","metrics":["requests"],"dimensions":["bot:verification"],
          "date_range":["2026-11-10","2026-11-11"],"filters":[["is","bot:name",["GPTBot"]]]})");
  EXPECT_EQ(json::serialize(split.at("results")),
            R"([{"dimensions":["verified_bot"],"metrics":[)" +
                json::serialize(Row(top, 0).at("verifiedRequestCount")) +
                R"(]},{"dimensions":["spoofed_bot"],"metrics":[)" +
                json::serialize(Row(top, 0).at("spoofedRequestCount")) + "]}]");
  // Stacked: AI crawlers on /docs, not spoofed.
  const json::object stacked = query(
      R"({"dataset":"crawlers","metrics":["requests"],"date_range":["2026-11-10","2026-11-11"],
          "filters":[["is","bot:is_ai",["true"]],["matches","event:page",["^/doc"]],
                     ["is_not","bot:verification",["spoofed_bot"]]]})");
  EXPECT_EQ(json::serialize(stacked.at("results")), R"([{"dimensions":[],"metrics":[2]}])");
}

// With a background refresher, a report of a day already rolled up may lag new rows by up to
// the refresher's interval; a day never rolled up is rolled up by the first report that reads
// it.
TEST_P(Reports, TheBackgroundRefresherCatchesUpWithNewRows) {
  server_ = std::make_unique<ServerProcess>(
      GetParam(), std::vector<std::string>{"--bot-ranges-dir", ranges_.path().string(),
                                           "--rollup-interval", "1"});
  const std::string target = "/bots/analytics/top?from=2026-11-10&to=2026-11-10";
  Ingest({Item(kGptBot, "192.0.2.10", "/docs", 1794304800000)});
  EXPECT_EQ(Row(Report(target), 0).at("requestCount").as_int64(), 1);
  Ingest({Item(kGptBot, "192.0.2.10", "/docs", 1794304900000)});
  std::int64_t seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (seen != 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    seen = Row(Report(target), 0).at("requestCount").as_int64();
  }
  EXPECT_EQ(seen, 2);
}

TEST_P(Reports, ChangingTheReportingTimezoneRestatesPastDays) {
  IngestKathmanduDataset();
  const std::string target = "/bots/analytics/timeline?from=2026-11-09&to=2026-11-11";
  const auto daily = [&] { return json::serialize(Report(target).at("series").at(0).at("data")); };
  // OpenAI per Kathmandu day 11-09, 11-10, 11-11 (the spoofed GPTBot counts too).
  EXPECT_EQ(daily(), "[1,3,1]");
  SetTimezone("UTC");
  // The same rows by UTC day: 18:14 and 18:15 on 11-09, 10:00 and 12:00 on 11-10, 18:14:59.999
  // and 18:15 on 11-11.
  EXPECT_EQ(daily(), "[2,2,2]");
  SetTimezone("Asia/Kathmandu");
  EXPECT_EQ(daily(), "[1,3,1]") << "nothing was lost or moved by the change";
}

TEST_P(Reports, FiltersPagingAndTheOtherRankings) {
  IngestKathmanduDataset();
  const std::string period = "from=2026-11-10&to=2026-11-11";
  const json::object verified =
      Report("/bots/analytics/top?" + period + "&actorType=verified_bot");
  ASSERT_EQ(verified.at("rows").as_array().size(), 1u);
  EXPECT_EQ(Row(verified, 0).at("requestCount").as_int64(), 3);
  EXPECT_EQ(Row(verified, 0).at("previousRequestCount").as_int64(), 1);

  const json::object paged = Report("/bots/analytics/top?" + period + "&limit=1&offset=1");
  EXPECT_EQ(paged.at("total").as_int64(), 3);
  ASSERT_EQ(paged.at("rows").as_array().size(), 1u);
  EXPECT_EQ(Row(paged, 0).at("botName").as_string(), "curl");

  const json::object not_ai = Report("/bots/analytics/categories?" + period + "&isAi=false");
  ASSERT_EQ(not_ai.at("rows").as_array().size(), 2u);
  EXPECT_EQ(Row(not_ai, 0).at("category").as_string(), "automation");
  EXPECT_EQ(Row(not_ai, 1).at("category").as_string(), "social_preview");
  EXPECT_EQ(Row(not_ai, 1).at("previousRequestCount").as_int64(), 2);

  const json::object searched = Report("/bots/analytics/categories?" + period + "&search=OPENAI");
  ASSERT_EQ(searched.at("rows").as_array().size(), 1u);
  EXPECT_EQ(Row(searched, 0).at("category").as_string(), "ai_training");

  const json::object paths = Report("/bots/analytics/top-paths?" + period + "&vendor=OpenAI");
  ASSERT_EQ(paths.at("rows").as_array().size(), 2u);
  EXPECT_EQ(Row(paths, 0).at("path").as_string(), "/docs");
  EXPECT_EQ(Row(paths, 0).at("requestCount").as_int64(), 3);
  EXPECT_EQ(Row(paths, 0).at("previousRequestCount").as_int64(), 1);
  EXPECT_EQ(Row(paths, 1).at("path").as_string(), "/pricing");

  // One crawler, by name, on every report: its row, its country row, its timeline's totals.
  const std::int64_t curl = Row(paged, 0).at("requestCount").as_int64();
  const json::object one = Report("/bots/analytics/top?" + period + "&botName=curl");
  ASSERT_EQ(one.at("rows").as_array().size(), 1u);
  EXPECT_EQ(Row(one, 0).at("requestCount").as_int64(), curl);
  const json::object its_countries = Report("/bots/analytics/countries?" + period + "&botName=curl");
  EXPECT_EQ(Row(its_countries, 0).at("botCount").as_int64(), 1);
  EXPECT_EQ(Row(its_countries, 0).at("requestCount").as_int64(), curl);
  const json::object its_paths = Report("/bots/analytics/top-paths?" + period + "&botName=curl");
  std::int64_t on_paths = 0;
  for (const json::value& row : its_paths.at("rows").as_array()) {
    on_paths += row.at("requestCount").as_int64();
  }
  EXPECT_EQ(on_paths, curl);
  const json::object its_timeline =
      Report("/bots/analytics/timeline?" + period + "&botName=curl&interval=day");
  std::int64_t in_timeline = 0;
  for (const json::value& total : its_timeline.at("totals").as_array()) in_timeline += total.as_int64();
  EXPECT_EQ(in_timeline, curl);

  // Documentation addresses have no country: one row, null, with its distinct bots.
  const json::object countries = Report("/bots/analytics/countries?" + period);
  ASSERT_EQ(countries.at("rows").as_array().size(), 1u);
  EXPECT_TRUE(Row(countries, 0).at("country").is_null());
  EXPECT_EQ(Row(countries, 0).at("requestCount").as_int64(), 7);
  EXPECT_EQ(Row(countries, 0).at("botCount").as_int64(), 3);
  EXPECT_EQ(Row(countries, 0).at("previousBotCount").as_int64(), 3);
  EXPECT_EQ(Row(countries, 0).at("previousRequestCount").as_int64(), 4);
}

TEST_P(Reports, TimelineBucketsFollowTheZoneAcrossADstChange) {
  SetTimezone("Europe/Berlin");
  Ingest({Item(kGptBot, "192.0.2.10", "/", 1792879140000),    // 10-24 23:59 CEST: outside
          Item(kGptBot, "192.0.2.10", "/", 1792881000000),    // 00:30 CEST
          Item(kGptBot, "192.0.2.10", "/", 1792888200000),    // 02:30 CEST (first 2 o'clock)
          Item("curl/8.5.0", "203.0.113.9", "/", 1792891800000)});  // 02:30 CET (the repeat)
  const json::object hourly = Report(
      "/bots/analytics/timeline?from=2026-10-25&to=2026-10-25&interval=hour&comparePreset="
      "previous_week");
  const json::array& buckets = hourly.at("buckets").as_array();
  ASSERT_EQ(buckets.size(), 25u) << "the day clocks go back has 25 hours";
  EXPECT_EQ(buckets.at(0).as_string(), "2026-10-25T00:00:00+02:00");
  EXPECT_EQ(buckets.at(2).as_string(), "2026-10-25T02:00:00+02:00");
  EXPECT_EQ(buckets.at(3).as_string(), "2026-10-25T02:00:00+01:00");
  EXPECT_EQ(buckets.at(24).as_string(), "2026-10-25T23:00:00+01:00");
  const json::array& series = hourly.at("series").as_array();
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series.at(0).at("vendor").as_string(), "OpenAI");
  EXPECT_EQ(series.at(0).at("total").as_int64(), 2);
  EXPECT_EQ(series.at(0).at("data").at(0).as_int64(), 1);
  EXPECT_EQ(series.at(0).at("data").at(2).as_int64(), 1);
  EXPECT_EQ(series.at(1).at("vendor").as_string(), "curl");
  EXPECT_EQ(series.at(1).at("data").at(3).as_int64(), 1);
  // previous_week is 10-18, an ordinary 24-hour day, with the same vendors.
  EXPECT_EQ(hourly.at("comparisonBuckets").as_array().size(), 24u);
  EXPECT_EQ(hourly.at("comparisonSeries").as_array().size(), 2u);
  EXPECT_EQ(hourly.at("comparisonSeries").at(0).at("total").as_int64(), 0);

  const json::object daily = Report("/bots/analytics/timeline?from=2026-10-24&to=2026-10-25");
  EXPECT_EQ(json::serialize(daily.at("buckets")),
            R"(["2026-10-24T00:00:00+02:00","2026-10-25T00:00:00+02:00"])");
  EXPECT_EQ(json::serialize(daily.at("series").at(0).at("data")), "[1,2]");
}

TEST_P(Reports, ComparisonRulesAndBadRequests) {
  const std::string base = "/bots/analytics/top?from=2026-11-10&to=2026-11-11";
  auto code = [&](const std::string& target) {
    const Response r = api().Call("GET", target, creds_.private_api_key);
    return std::to_string(r.status) + " " +
           (r.status == 200 ? "" : std::string(r.Json().at("error").at("code").as_string()));
  };
  EXPECT_EQ(code(base + "&compareFrom=2026-11-01"), "400 VAL_001");
  EXPECT_EQ(code(base + "&compareTo=2026-11-01"), "400 VAL_001");
  EXPECT_EQ(code(base + "&compareFrom=2026-11-05&compareTo=2026-11-01"), "400 VAL_001");
  EXPECT_EQ(code(base + "&compareFrom=2025-11-09&compareTo=2025-11-10"), "400 VAL_001");
  EXPECT_EQ(code(base + "&compareFrom=2025-11-10&compareTo=2025-11-11"), "200 ");
  EXPECT_EQ(code(base + "&comparePreset=previous_week&compareFrom=2026-11-01"), "200 ")
      << "the preset wins over a lone custom date";
  EXPECT_EQ(code(base + "&comparePreset=yesterday"), "400 VAL_003");
  EXPECT_EQ(code("/bots/analytics/top?from=2026-11-11&to=2026-11-10"), "400 VAL_003");
  EXPECT_EQ(code("/bots/analytics/top?from=2026-02-30&to=2026-03-01"), "400 VAL_003");
  EXPECT_EQ(code("/bots/analytics/top?from=2026-11-10"), "400 VAL_003");
  EXPECT_EQ(code("/bots/analytics/timeline?from=2025-01-01&to=2025-12-31&interval=hour"),
            "400 VAL_003");
  EXPECT_EQ(code("/bots/analytics/top?limit=0"), "400 VAL_003");

  // The default comparison of a long selection would reach back more than a year: no
  // comparison, no previous figures, no error.
  const json::object long_range = Report("/bots/analytics/top?from=2025-01-01&to=2026-02-04");
  EXPECT_TRUE(long_range.at("comparisonWindow").is_null());
  EXPECT_FALSE(long_range.contains("previousTotalRequests"));
}

TEST_P(Reports, ProjectsAreResolvedAndIsolated) {
  IngestKathmanduDataset();
  const std::string period = "from=2026-11-10&to=2026-11-11";
  // A key's own project is implied; naming it explicitly is the same.
  EXPECT_EQ(Report("/bots/analytics/top?" + period + "&projectId=" + creds_.project_id)
                .at("totalRequests")
                .as_int64(),
            7);
  // Another tenant's key sees nothing of this project: 404, as for a project that does not exist.
  const Credentials other = Bootstrap(GetParam(), Unique("other"), "Elsewhere");
  const Response foreign = api().Call(
      "GET", "/bots/analytics/top?" + period + "&projectId=" + creds_.project_id,
      other.private_api_key);
  EXPECT_EQ(foreign.status, 404) << foreign.body;
  EXPECT_EQ(Report("/bots/analytics/top?" + period).at("total").as_int64(), 3);
  const Response own =
      api().Call("GET", "/bots/analytics/top?" + period, other.private_api_key);
  ASSERT_EQ(own.status, 200);
  EXPECT_EQ(own.Json().at("totalRequests").as_int64(), 0);

  // A signed-in member names the project; without one the request is incomplete.
  const std::string token = api().SignIn(creds_.owner_email);
  ASSERT_FALSE(token.empty());
  const Response named = api().Call(
      "GET", "/bots/analytics/top?" + period + "&projectId=" + creds_.project_id, token);
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(named.Json().at("totalRequests").as_int64(), 7);
  const Response unnamed = api().Call("GET", "/bots/analytics/top?" + period, token);
  EXPECT_EQ(unnamed.status, 400);
  EXPECT_EQ(unnamed.Json().at("error").at("details").at("field").as_string(), "projectId");
}

// ---- Web analytics ----------------------------------------------------------------------

// Visitors (anonymous ids are UUIDs).
constexpr char kV1[] = "00000000-0000-4000-8000-000000000001";
constexpr char kV2[] = "00000000-0000-4000-8000-000000000002";
constexpr char kV3[] = "00000000-0000-4000-8000-000000000003";
constexpr char kV4[] = "00000000-0000-4000-8000-000000000004";

std::string Tracked(const std::string& event, const std::string& visitor, const std::string& url,
                    std::int64_t at, const std::string& channel = "web",
                    const std::string& properties = "") {
  return R"({"event":")" + event + R"(","channel":")" + channel + R"(","anonymous_id":")" +
         visitor + R"(","timestamp":)" + std::to_string(at) + R"(,"tags":{"$url":"https://site.test)" +
         url + "\"" + properties + "}}";
}

class WebReports : public Reports {
 protected:
  // America/New_York. Selection 2026-11-02..08 (EST, UTC−5) = [11-02T05:00Z, 11-09T05:00Z);
  // its previous period 10-26..11-01 = [10-26T04:00Z, 11-02T05:00Z), whose last day is the
  // 25-hour day the clocks went back.
  void IngestNewYorkDataset() {
    SetTimezone("America/New_York");
    const std::vector<std::string> events = {
        // Previous period: V4 at 01:30 EDT and again at 01:30 EST (an hour later: a new visit).
        Tracked("screen_view", kV4, "/", 1793511000000),
        Tracked("screen_view", kV4, "/blog", 1793514600000),
        // V2 at 23:59:59 on 11-01 (previous), then on 11-04 (selected): two bounces.
        Tracked("screen_view", kV2, "/pricing", 1793595599000),
        Tracked("screen_view", kV1, "/", 1793718000000),  // 11-03: two pages and a signup
        Tracked("screen_view", kV1, "/pricing", 1793718120000),
        Tracked("signup", kV1, "/pricing", 1793718180000, "growth", R"(,"plan":"pro")"),
        Tracked("screen_view", kV2, "/pricing", 1793793600000),
        Tracked("screen_view", kV3, "/", 1794180600000),  // 11-08 18:30 local
        Tracked("screen_view", kV3, "/", 1794201000000),  // 11-09 00:10 local: outside
    };
    std::string body = R"({"events":[)";
    for (std::size_t i = 0; i < events.size(); ++i) body += (i ? "," : "") + events[i];
    const Response r = server_->Request(
        "POST", "/sdk/v1/logs/batch",
        {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}}, body + "]}");
    ASSERT_EQ(r.status, 202) << r.body;
    ASSERT_EQ(r.Json().at("accepted").as_int64(), static_cast<std::int64_t>(events.size()));
  }
};

const json::object& Metric(const json::object& report, const char* name) {
  return report.at("metrics").at(name).as_object();
}

TEST_P(WebReports, SummaryMetricsCompareWithThePreviousPeriod) {
  IngestNewYorkDataset();
  const json::object summary = Report("/web-analytics?from=2026-11-02&to=2026-11-08");
  EXPECT_EQ(json::serialize(summary.at("window")),
            R"({"from":"2026-11-02T05:00:00.000Z","to":"2026-11-09T05:00:00.000Z"})");
  EXPECT_EQ(json::serialize(summary.at("comparisonWindow")),
            R"({"from":"2026-10-26T04:00:00.000Z","to":"2026-11-02T05:00:00.000Z"})");
  EXPECT_EQ(json::serialize(Metric(summary, "visitors")),
            R"({"value":3,"previous":2,"absoluteChange":1,"change":50})");
  EXPECT_EQ(json::serialize(Metric(summary, "visits")),
            R"({"value":3,"previous":3,"absoluteChange":0,"change":0})");
  EXPECT_EQ(Metric(summary, "pageviews").at("value").as_int64(), 4);
  EXPECT_DOUBLE_EQ(Metric(summary, "pageviews").at("change").to_number<double>(), 33.33);
  EXPECT_DOUBLE_EQ(Metric(summary, "viewsPerVisit").at("value").to_number<double>(), 1.33);
  EXPECT_DOUBLE_EQ(Metric(summary, "viewsPerVisit").at("previous").to_number<double>(), 1.0);
  EXPECT_DOUBLE_EQ(Metric(summary, "bounceRate").at("value").to_number<double>(), 66.67);
  EXPECT_DOUBLE_EQ(Metric(summary, "bounceRate").at("previous").to_number<double>(), 100.0);
  EXPECT_DOUBLE_EQ(Metric(summary, "bounceRate").at("change").to_number<double>(), -33.33)
      << "a rate changes in percentage points";
  EXPECT_EQ(Metric(summary, "visitDuration").at("value").as_int64(), 60000);
  EXPECT_EQ(Metric(summary, "visitDuration").at("previous").as_int64(), 0);
  EXPECT_TRUE(Metric(summary, "visitDuration").at("change").is_null()) << "previous is 0";
  EXPECT_EQ(Metric(summary, "events").at("value").as_int64(), 5);

  // A window with no visits: averages were never measured.
  const json::object empty = Report("/web-analytics?from=2026-06-01&to=2026-06-01");
  EXPECT_TRUE(Metric(empty, "bounceRate").at("value").is_null());
  EXPECT_TRUE(Metric(empty, "visitDuration").at("previous").is_null());
  EXPECT_EQ(Metric(empty, "visitors").at("value").as_int64(), 0);
}

TEST_P(WebReports, BreakdownsDurationsAndSeries) {
  IngestNewYorkDataset();
  const std::string period = "from=2026-11-02&to=2026-11-08";
  const json::object pages = Report("/web-analytics/breakdown?dimension=top_page&" + period);
  ASSERT_EQ(pages.at("rows").as_array().size(), 2u);
  const json::object& home = Row(pages, 0);
  EXPECT_EQ(home.at("value").as_string(), "/");
  EXPECT_EQ(home.at("views").as_int64(), 2);
  EXPECT_EQ(home.at("visitors").as_int64(), 2);
  EXPECT_EQ(home.at("previousViews").as_int64(), 1);
  EXPECT_EQ(home.at("previousVisitors").as_int64(), 1);
  EXPECT_EQ(home.at("previousCount").as_int64(), 1);
  EXPECT_DOUBLE_EQ(home.at("percentageChange").to_number<double>(), 100.0);
  EXPECT_EQ(Row(pages, 1).at("value").as_string(), "/pricing") << "ties by value; /blog unlisted";

  const json::object events = Report("/web-analytics/breakdown?dimension=event&" + period);
  EXPECT_EQ(Row(events, 0).at("value").as_string(), "screen_view");
  EXPECT_EQ(Row(events, 0).at("count").as_int64(), 4);
  EXPECT_EQ(Row(events, 1).at("value").as_string(), "signup");
  EXPECT_EQ(Row(events, 1).at("previousCount").as_int64(), 0);
  EXPECT_TRUE(Row(events, 1).at("percentageChange").is_null());

  const json::object exits = Report("/web-analytics/breakdown?dimension=exit_page&" + period);
  EXPECT_EQ(Row(exits, 0).at("value").as_string(), "/pricing");
  EXPECT_EQ(Row(exits, 0).at("count").as_int64(), 2);

  const json::object durations = Report("/web-analytics/pages/duration?" + period);
  EXPECT_EQ(Row(durations, 0).at("path").as_string(), "/");
  EXPECT_EQ(Row(durations, 0).at("avgDurationMs").as_int64(), 120000);
  EXPECT_TRUE(Row(durations, 0).at("previousAvgDurationMs").is_null()) << "never measured";
  EXPECT_TRUE(Row(durations, 0).at("absoluteChange").is_null());
  EXPECT_TRUE(Row(durations, 1).at("avgDurationMs").is_null());

  const json::object timeline = Report("/web-analytics/timeline?" + period);
  ASSERT_EQ(timeline.at("buckets").as_array().size(), 7u);
  EXPECT_EQ(timeline.at("buckets").at(0).as_string(), "2026-11-02T00:00:00-05:00");
  EXPECT_EQ(timeline.at("points").at(1).at("pageviews").as_int64(), 2);  // 11-03
  EXPECT_EQ(timeline.at("points").at(6).at("visitors").as_int64(), 1);   // 11-08
  const json::object& previous = timeline.at("previousPeriod").as_object();
  EXPECT_EQ(previous.at("buckets").at(6).as_string(), "2026-11-01T00:00:00-04:00");
  EXPECT_EQ(previous.at("points").at(6).at("visits").as_int64(), 3) << "the 25-hour day";
  EXPECT_EQ(previous.at("points").at(6).at("visitors").as_int64(), 2);

  const json::object series =
      Report("/web-analytics/dimension/timeline?dimension=top_page&" + period);
  ASSERT_EQ(series.at("series").as_array().size(), 2u);
  EXPECT_EQ(json::serialize(series.at("series").at(0)),
            R"({"value":"/","total":2,"data":[0,1,0,0,0,0,1]})");
  EXPECT_EQ(json::serialize(series.at("series").at(1).at("data")), "[0,1,1,0,0,0,0]");
  EXPECT_EQ(json::serialize(series.at("comparisonData").at("series").at(0)),
            R"({"value":"/","total":1,"data":[0,0,0,0,0,0,1]})");

  // One value whatever its rank (a clicked breakdown row), and one never seen: zeros.
  const json::object one =
      Report("/web-analytics/dimension/timeline?dimension=top_page&limit=1&value=%2Fpricing&" +
             period);
  ASSERT_EQ(one.at("series").as_array().size(), 1u);
  EXPECT_EQ(one.at("series").at(0).at("value").as_string(), "/pricing");
  EXPECT_EQ(one.at("series").at(0).at("data"), series.at("series").at(1).at("data"));
  const json::object unseen =
      Report("/web-analytics/dimension/timeline?dimension=top_page&value=%2Fnowhere&" + period);
  EXPECT_EQ(json::serialize(unseen.at("series").at(0)),
            R"({"value":"/nowhere","total":0,"data":[0,0,0,0,0,0,0]})");
}

TEST_P(WebReports, AFilterKeepsTheVisitsWithTheValue) {
  IngestNewYorkDataset();
  // /pricing was viewed in V1's visit (two pages and a signup) and V2's (a bounce), and in V2's
  // visit of the previous period.
  const std::string period = "from=2026-11-02&to=2026-11-08&filter=top_page%3A%2Fpricing";
  const json::object summary = Report("/web-analytics?" + period);
  EXPECT_EQ(json::serialize(summary.at("filter")), R"({"dimension":"top_page","value":"/pricing"})");
  EXPECT_EQ(json::serialize(Metric(summary, "visitors")),
            R"({"value":2,"previous":1,"absoluteChange":1,"change":100})");
  EXPECT_EQ(Metric(summary, "visits").at("value").as_int64(), 2);
  EXPECT_EQ(Metric(summary, "pageviews").at("value").as_int64(), 3);
  EXPECT_EQ(Metric(summary, "events").at("value").as_int64(), 4);
  EXPECT_DOUBLE_EQ(Metric(summary, "bounceRate").at("value").to_number<double>(), 50.0);

  const json::object pages = Report("/web-analytics/breakdown?dimension=top_page&" + period);
  ASSERT_EQ(pages.at("rows").as_array().size(), 2u);
  EXPECT_EQ(Row(pages, 0).at("value").as_string(), "/pricing");
  EXPECT_EQ(Row(pages, 0).at("views").as_int64(), 2);
  EXPECT_EQ(Row(pages, 0).at("previousViews").as_int64(), 1);
  EXPECT_EQ(Row(pages, 1).at("value").as_string(), "/");
  EXPECT_EQ(Row(pages, 1).at("views").as_int64(), 1);

  const json::object timeline = Report("/web-analytics/timeline?" + period);
  EXPECT_EQ(timeline.at("points").at(1).at("pageviews").as_int64(), 2);  // 11-03: V1
  EXPECT_EQ(timeline.at("points").at(6).at("visits").as_int64(), 0);     // 11-08: V3 only saw /
  const json::object events = Report("/web-analytics/breakdown?dimension=event&" + period);
  EXPECT_EQ(Row(events, 1).at("value").as_string(), "signup");

  // The visits without a value of a dimension: none lack a page.
  const json::object none = Report("/web-analytics?from=2026-11-02&to=2026-11-08&filter=top_page%3A");
  EXPECT_EQ(Metric(none, "visits").at("value").as_int64(), 0);
  const json::object exits =
      Report("/web-analytics/breakdown?dimension=exit_page&from=2026-11-02&to=2026-11-08&"
             "filter=event%3Asignup");
  ASSERT_EQ(exits.at("rows").as_array().size(), 1u);
  EXPECT_EQ(Row(exits, 0).at("value").as_string(), "/pricing");
}

// ---- The query operation, on the same data -----------------------------------------------

class WebQuery : public WebReports {
 protected:
  json::object Query(const std::string& body, int status = 200) {
    const Response r = api().Call("POST", creds_.ProjectPath() + "/query", creds_.private_api_key,
                                  body);
    EXPECT_EQ(r.status, status) << body << ": " << r.body;
    return r.status == 200 || r.status == 400 ? r.Json().as_object() : json::object{};
  }
  // The metrics of the query's rows, serialized: "[[dims],[metrics]],…".
  std::string Rows(const json::object& answer) {
    std::string out;
    for (const json::value& row : answer.at("results").as_array()) {
      out += (out.empty() ? "" : ",") + json::serialize(row.at("dimensions")) + ":" +
             json::serialize(row.at("metrics"));
    }
    return out;
  }
  static double Number(const json::value& v) { return v.to_number<double>(); }
};

constexpr char kWeek[] = R"("date_range":["2026-11-02","2026-11-08"])";

TEST_P(WebQuery, AgreesWithTheReportsOnTheSameData) {
  IngestNewYorkDataset();
  const json::object report = Report("/web-analytics?from=2026-11-02&to=2026-11-08");
  const json::object totals = Query(R"({"metrics":["visitors","visits","pageviews","events",
    "bounce_rate","visit_duration","views_per_visit"],)" + std::string(kWeek) + "}");
  const json::array& m = totals.at("results").at(0).at("metrics").as_array();
  EXPECT_EQ(m[0], Metric(report, "visitors").at("value"));
  EXPECT_EQ(m[1], Metric(report, "visits").at("value"));
  EXPECT_EQ(m[2], Metric(report, "pageviews").at("value"));
  EXPECT_EQ(m[3], Metric(report, "events").at("value"));
  EXPECT_NEAR(Number(m[4]), Number(Metric(report, "bounceRate").at("value")), 0.005);
  EXPECT_DOUBLE_EQ(Number(m[5]) * 1000, Number(Metric(report, "visitDuration").at("value")));
  EXPECT_NEAR(Number(m[6]), Number(Metric(report, "viewsPerVisit").at("value")), 0.005);
  EXPECT_EQ(json::serialize(totals.at("query").at("date_range")),
            R"(["2026-11-02T00:00:00-05:00","2026-11-08T23:59:59-05:00"])");

  // A breakdown and a filtered summary, as the reports count them.
  const json::object pages = Report("/web-analytics/breakdown?dimension=top_page&from=2026-11-02&to=2026-11-08");
  const json::object by_page = Query(R"({"metrics":["pageviews","visitors"],"dimensions":["event:page"],)" +
                                     std::string(kWeek) + "}");
  ASSERT_EQ(by_page.at("results").as_array().size(), pages.at("rows").as_array().size());
  for (std::size_t i = 0; i < pages.at("rows").as_array().size(); ++i) {
    const json::value& row = by_page.at("results").at(i);
    EXPECT_EQ(row.at("dimensions").at(0), Row(pages, i).at("value"));
    EXPECT_EQ(row.at("metrics").at(0), Row(pages, i).at("views"));
    EXPECT_EQ(row.at("metrics").at(1), Row(pages, i).at("visitors"));
  }
  const json::object filtered = Report("/web-analytics?from=2026-11-02&to=2026-11-08&filter=top_page%3A%2Fpricing");
  const json::object kept = Query(R"({"metrics":["visitors","visits","pageviews","events","bounce_rate"],)" +
                                  std::string(kWeek) + R"(,"filters":[["is","event:page",["/pricing"]]]})");
  const json::array& k = kept.at("results").at(0).at("metrics").as_array();
  EXPECT_EQ(k[0], Metric(filtered, "visitors").at("value"));
  EXPECT_EQ(k[1], Metric(filtered, "visits").at("value"));
  EXPECT_EQ(k[2], Metric(filtered, "pageviews").at("value"));
  EXPECT_EQ(k[3], Metric(filtered, "events").at("value"));
  EXPECT_NEAR(Number(k[4]), Number(Metric(filtered, "bounceRate").at("value")), 0.005);
}

// The compact store (docs/storage.md): once the events leave the inbox for the column blocks,
// every report (rolled up again from the blocks), `query` and the events feed answer as before.
TEST_P(WebQuery, SealedEventsAnswerAsTheInboxDid) {
  IngestNewYorkDataset();
  const auto answers = [&] {
    std::string all;
    for (const char* target :
         {"/web-analytics?from=2026-11-02&to=2026-11-08",
          "/web-analytics/breakdown?dimension=top_page&from=2026-11-02&to=2026-11-08",
          "/web-analytics/breakdown?dimension=entry_page&from=2026-10-26&to=2026-11-08",
          "/web-analytics?from=2026-11-02&to=2026-11-08&filter=top_page%3A%2Fpricing"}) {
      all += json::serialize(Report(target)) + "\n";
    }
    for (const std::string& body :
         {R"({"metrics":["visitors","pageviews","events"],)" + std::string(kWeek) +
              R"(,"dimensions":["event:props:plan","time:day"]})",
          R"({"metrics":["visitors","visits","bounce_rate"],)" + std::string(kWeek) +
              R"(,"dimensions":["visit:entry_page"]})",
          R"({"metrics":["visitors","visit_duration"],)" + std::string(kWeek) +
              R"(,"filters":[["has_done",["is","event:name",["signup"]]]]})"}) {
      all += Rows(Query(body)) + "\n";
    }
    const Response feed =
        api().Call("GET", creds_.ProjectPath() + "/events?limit=100", creds_.private_api_key);
    EXPECT_EQ(feed.status, 200) << feed.body;
    return all + json::serialize(feed.Json().at("events"));
  };
  const std::string inbox = answers();
  server_ = std::make_unique<ServerProcess>(
      GetParam(), std::vector<std::string>{"--bot-ranges-dir", ranges_.path().string(),
                                           "--seal-after", "0"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (server_->Log().find("events sealed") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_NE(server_->Log().find("events sealed"), std::string::npos) << server_->Log();
  // Another zone and back: every day is rolled up again, now from the blocks.
  SetTimezone("UTC");
  SetTimezone("America/New_York");
  EXPECT_EQ(answers(), inbox);
}

TEST_P(WebQuery, StackedFiltersPropertiesTimeAndComparison) {
  IngestNewYorkDataset();
  // V1's visit is the only one with a signup, and it viewed /pricing: both filters keep it.
  EXPECT_EQ(Rows(Query(R"({"metrics":["visitors","pageviews","events"],)" + std::string(kWeek) +
                       R"(,"filters":[["has_done",["is","event:name",["signup"]]],
                                      ["contains","event:page",["PRIC"],{"case_sensitive":false}]]})")),
            "[]:[1,2,3]");
  EXPECT_EQ(Rows(Query(R"({"metrics":["visitors","events"],"dimensions":["event:props:plan"],)" +
                       std::string(kWeek) + "}")),
            R"(["pro"]:[1,1])");
  EXPECT_EQ(Rows(Query(R"({"metrics":["visits"],)" + std::string(kWeek) +
                       R"(,"filters":[["or",[["matches","event:page",["^/$"]],["not",["is","visit:exit_page",["/pricing"]]]]]]})")),
            "[]:[2]")  // V1 (viewed /) and V3 (/, exit /); V2 only /pricing
      ;
  const json::object days = Query(R"({"metrics":["visitors"],"dimensions":["time:day"],)" +
                                  std::string(kWeek) + R"(,"include":{"time_labels":true}})");
  EXPECT_EQ(Rows(days), R"(["2026-11-03"]:[1],["2026-11-04"]:[1],["2026-11-08"]:[1])");
  EXPECT_EQ(days.at("meta").at("time_labels").as_array().size(), 7u);

  // The previous period (10-26..11-01): V4 twice and V2 once, as the summary report says.
  const json::object compared = Query(R"({"metrics":["visitors","visits","bounce_rate"],)" +
                                      std::string(kWeek) +
                                      R"(,"include":{"comparisons":{"mode":"previous_period"}}})");
  const json::value& comparison = compared.at("results").at(0).at("comparison");
  EXPECT_EQ(json::serialize(comparison.at("metrics").at(0)), "2");
  EXPECT_EQ(json::serialize(comparison.at("metrics").at(1)), "3");
  EXPECT_EQ(json::serialize(comparison.at("percentageChange").at(0)), "50");
  EXPECT_EQ(json::serialize(comparison.at("absoluteChange").at(1)), "0");
  EXPECT_EQ(json::serialize(compared.at("query").at("comparison_date_range")),
            R"(["2026-10-26T00:00:00-04:00","2026-11-01T23:59:59-05:00"])")
      << "the last day is the 25-hour one the clocks went back";
  // An exact window is compared with the same instants just before it, hour by hour.
  const json::object hours = Query(
      R"({"metrics":["visitors"],"dimensions":["time"],"date_range":["2026-11-03T12:00:00-05:00","2026-11-03T23:59:59-05:00"],
          "include":{"time_labels":true,"comparisons":{"mode":"previous_period"}}})");
  EXPECT_EQ(json::serialize(hours.at("query").at("comparison_date_range")),
            R"(["2026-11-03T00:00:00-05:00","2026-11-03T11:59:59-05:00"])");
  EXPECT_EQ(hours.at("meta").at("time_labels").as_array().size(), 12u);
  EXPECT_EQ(hours.at("meta").at("time_labels").at(0).as_string(), "2026-11-03T12:00:00-05:00");
  // A custom comparison is at most as long as the longest selection.
  const json::object endless = Query(R"({"metrics":["visitors"],)" + std::string(kWeek) +
                                     R"(,"include":{"comparisons":{"mode":"custom","date_range":["2026-01-01","9999-12-31"]}}})",
                                     400);
  EXPECT_EQ(endless.at("error").at("details").at("field").as_string(),
            "include.comparisons.date_range");
  // Past the one-year reach: VAL_001, as the reports.
  const json::object far = Query(R"({"metrics":["visitors"],)" + std::string(kWeek) +
                                 R"(,"include":{"comparisons":{"mode":"custom","date_range":["2024-01-01","2024-01-07"]}}})",
                                 400);
  EXPECT_EQ(far.at("error").at("code").as_string(), "VAL_001");
}

TEST_P(WebQuery, PlausiblesPathBadQueriesAndOtherTenants) {
  IngestNewYorkDataset();
  const Response v2 = server_->Request(
      "POST", "/v2/query",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Type", "application/json"}},
      R"({"site_id":")" + creds_.project_id + R"(","metrics":["visitors","pageviews"],)" +
          std::string(kWeek) + "}");
  ASSERT_EQ(v2.status, 200) << v2.body;
  EXPECT_EQ(json::serialize(v2.Json().at("results")), R"([{"dimensions":[],"metrics":[3,4]}])");
  const Response elsewhere = server_->Request(
      "POST", "/v2/query",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Type", "application/json"}},
      R"({"site_id":"example.com","metrics":["visitors"]})");
  EXPECT_EQ(elsewhere.status, 400);
  EXPECT_EQ(elsewhere.ErrorCode(), "VAL_003");

  const json::object regex = Query(R"({"metrics":["visitors"],"filters":[["matches","event:page",["(x"]]]})", 400);
  EXPECT_EQ(regex.at("error").at("details").at("field").as_string(), "filters[0][2][0]");
  const json::object unknown = Query(R"({"metrics":["visitors","sessions"]})", 400);
  EXPECT_EQ(unknown.at("error").at("details").at("field").as_string(), "metrics[1]");
  const json::object logs = Query(R"({"dataset":"logs","metrics":["requests"]})", 400);
  EXPECT_EQ(logs.at("error").at("details").at("field").as_string(), "dataset");

  // Each dataset needs its reports' permission: support reads web analytics, not crawlers.
  const std::string support =
      api().AddMember(creds_.org_slug, api().SignIn(creds_.owner_email),
                      "support-" + creds_.org_slug + "@acme.test", "support")
          .access_token;
  const Response web = api().Call("POST", creds_.ProjectPath() + "/query", support,
                                  R"({"metrics":["visitors"]})");
  EXPECT_EQ(web.status, 200) << web.body;
  const Response bots = api().Call("POST", creds_.ProjectPath() + "/query", support,
                                   R"({"dataset":"crawlers","metrics":["requests"]})");
  EXPECT_EQ(bots.status, 403) << bots.body;
  EXPECT_EQ(bots.ErrorCode(), "PERM_001");

  // Another tenant's key sees nothing of this project; an SDK key asks nothing.
  const Credentials other = Bootstrap(GetParam(), Unique("other"), "Elsewhere");
  const Response foreign = api().Call("POST", creds_.ProjectPath() + "/query", other.private_api_key,
                                      R"({"metrics":["visitors"]})");
  EXPECT_EQ(foreign.status, 404) << foreign.body;
  const Response sdk = server_->Request(
      "POST", creds_.ProjectPath() + "/query",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}}, R"({"metrics":["visitors"]})");
  EXPECT_EQ(sdk.status, 401) << sdk.body;
}

TEST_P(WebQuery, PropertyKeysOfAPeriodMostUsedFirst) {
  IngestNewYorkDataset();
  // V3's visit on 11-08 gets three clicks: ref on each, plan on one ($ tags are the SDK's, not
  // properties); V1's signup (11-03) carries plan too. A key only in the previous period is not
  // of this week.
  const std::vector<std::string> events = {
      Tracked("click", kV3, "/", 1794180660000, "web", R"(,"ref":"x","plan":"free")"),
      Tracked("click", kV3, "/", 1794180720000, "web", R"(,"ref":"y")"),
      Tracked("click", kV3, "/", 1794180780000, "web", R"(,"ref":"z","$internal":"no")"),
      Tracked("click", kV4, "/", 1793511060000, "web", R"(,"old":"1")"),
  };
  std::string body = R"({"events":[)";
  for (std::size_t i = 0; i < events.size(); ++i) body += (i ? "," : "") + events[i];
  const Response sent = server_->Request(
      "POST", "/sdk/v1/logs/batch",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}}, body + "]}");
  ASSERT_EQ(sent.status, 202) << sent.body;

  const std::string keys = creds_.ProjectPath() + "/property-keys?from=2026-11-02&to=2026-11-08";
  const json::object week = Report(keys);
  EXPECT_EQ(json::serialize(week.at("keys")),
            R"([{"key":"ref","events":3},{"key":"plan","events":2}])");
  EXPECT_EQ(week.at("from").as_string(), "2026-11-02");
  EXPECT_EQ(week.at("timezone").as_string(), "America/New_York");
  EXPECT_EQ(json::serialize(Report(keys + "&limit=1").at("keys")), R"([{"key":"ref","events":3}])");
  // The same keys `query` splits by.
  EXPECT_EQ(Rows(Query(R"({"metrics":["events"],"dimensions":["event:props:ref"],)" +
                       std::string(kWeek) + "}")),
            R"(["x"]:[1],["y"]:[1],["z"]:[1])");
  const json::object both = Report(creds_.ProjectPath() + "/property-keys?from=2026-10-26&to=2026-11-08");
  EXPECT_EQ(both.at("keys").as_array().size(), 3u);

  const Response half = api().Call("GET", creds_.ProjectPath() + "/property-keys?from=2026-11-02",
                                   creds_.private_api_key);
  EXPECT_EQ(half.status, 400) << half.body;
  EXPECT_EQ(half.Json().at("error").at("details").at("field").as_string(), "to");
  const Response over = api().Call("GET", keys + "&limit=101", creds_.private_api_key);
  EXPECT_EQ(over.status, 400) << over.body;
  const Credentials other = Bootstrap(GetParam(), Unique("keys"), "Elsewhere");
  const Response foreign = api().Call("GET", keys, other.private_api_key);
  EXPECT_EQ(foreign.status, 404) << foreign.body;
}

// Where visits came from (source, channel), and events without ids counted by their daily id.
class WebSources : public WebQuery {
 protected:
  // One request of the SDK's batch endpoint from a browser with this User-Agent.
  void Send(const std::string& user_agent, const std::vector<std::string>& events) {
    std::string body = R"({"events":[)";
    for (std::size_t i = 0; i < events.size(); ++i) body += (i ? "," : "") + events[i];
    const Response r = server_->Request("POST", "/sdk/v1/logs/batch",
                                        {{"x-sdk-key", creds_.sdk_key},
                                         {"Content-Type", "application/json"},
                                         {"User-Agent", user_agent}},
                                        body + "]}");
    ASSERT_EQ(r.status, 202) << r.body;
  }
  // A pageview now; `visitor` "" sends no id at all.
  static std::string View(const std::string& visitor, const std::string& url,
                          const std::string& referrer) {
    std::string event = R"({"event":"screen_view","channel":"web",)";
    if (!visitor.empty()) event += R"("anonymous_id":")" + visitor + R"(",)";
    event += R"("tags":{"$url":"https://site.test)" + url + R"(")";
    if (!referrer.empty()) event += R"(,"$referrer":")" + referrer + R"(")";
    return event + "}}";
  }
  // value → count of a breakdown.
  std::map<std::string, std::int64_t> Counts(const std::string& query) {
    std::map<std::string, std::int64_t> out;
    // Kept in a variable: a range-for over a member of a temporary reads freed memory.
    const json::object report = Report("/web-analytics/breakdown?" + query);
    for (const json::value& row : report.at("rows").as_array()) {
      const json::value& value = row.at("value");
      out[value.is_null() ? "(none)" : std::string(value.as_string())] = row.at("count").as_int64();
    }
    return out;
  }
};

constexpr char kFirefox[] =
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
constexpr char kChrome[] =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36";

TEST_P(WebSources, SourcesChannelsAndVisitorsWithoutIds) {
  Send(kFirefox, {View(kV1, "/", "https://chatgpt.com/"),
                  View(kV1, "/pricing", "https://site.test/"),  // the same visit, internal
                  View(kV2, "/", "https://www.google.com/search?q=sightline"),
                  View(kV3, "/?utm_source=perplexity.ai", "")});
  // No ids: the same browser (IP and User-Agent) is one visitor with one visit today, another
  // browser another visitor.
  Send(kFirefox, {View("", "/", ""), View("", "/docs", "")});
  Send(kChrome, {View("", "/", "https://news.ycombinator.com/item?id=1")});

  const json::object summary = Report("/web-analytics");
  EXPECT_EQ(Metric(summary, "visitors").at("value").as_int64(), 5);
  EXPECT_EQ(Metric(summary, "visits").at("value").as_int64(), 5);
  EXPECT_EQ(Metric(summary, "pageviews").at("value").as_int64(), 7);

  using Map = std::map<std::string, std::int64_t>;
  EXPECT_EQ(Counts("dimension=channel"), (Map{{"AI Assistants", 2},
                                             {"Direct", 1},
                                             {"Organic Search", 1},
                                             {"Organic Social", 1}}));
  EXPECT_EQ(Counts("dimension=source"), (Map{{"ChatGPT", 1},
                                            {"Direct", 1},
                                            {"Google", 1},
                                            {"Hacker News", 1},
                                            {"Perplexity", 1}}));
  EXPECT_EQ(Counts("dimension=event_channel"), (Map{{"web", 7}}));

  // The visits that came from an AI assistant, and what they viewed.
  const std::string ai = "filter=channel%3AAI%20Assistants";
  const json::object from_ai = Report("/web-analytics?" + ai);
  EXPECT_EQ(Metric(from_ai, "visitors").at("value").as_int64(), 2);
  EXPECT_EQ(Metric(from_ai, "pageviews").at("value").as_int64(), 3);
  EXPECT_EQ(Counts("dimension=top_page&" + ai), (Map{{"/", 2}, {"/pricing", 1}}));
  EXPECT_EQ(Counts("dimension=source&" + ai), (Map{{"ChatGPT", 1}, {"Perplexity", 1}}));
  const json::object series =
      Report("/web-analytics/dimension/timeline?dimension=channel&value=AI%20Assistants");
  EXPECT_EQ(series.at("series").at(0).at("total").as_int64(), 2);
}

// A referrer belongs to the visit, as a domain, and only another site is one (docs/reports.md,
// "Referrers"): the reports, their filter and `query` agree, with the channel breakdown too.
TEST_P(WebSources, ReferrersAreTheDomainsOfOtherSitesThatStartedVisits) {
  constexpr char kV5[] = "00000000-0000-4000-8000-000000000005";
  Send(kFirefox, {View(kV1, "/", "https://www.News.YCombinator.com/item?id=1"),
                  View(kV1, "/pricing", "https://site.test/"),  // internal: not a referrer
                  View(kV2, "/", "https://www.site.test/old"),  // a resumed visit: the site
                  View(kV3, "/", "https://blog.site-group.test/post"),
                  View(kV4, "/?utm_source=newsletter&utm_medium=email", ""),
                  View(kV5, "/docs", "https://news.ycombinator.com/newest")});
  using Map = std::map<std::string, std::int64_t>;
  EXPECT_EQ(Counts("dimension=referrer"),
            (Map{{"news.ycombinator.com", 2}, {"blog.site-group.test", 1}, {"(none)", 2}}));

  // The blog is the project's own: once its domain is set, it is no referrer (and the days
  // are rolled up again for it).
  const Response set = api().Call("PATCH", creds_.ProjectPath(), creds_.private_api_key,
                                  R"({"domains":["https://Site-Group.test/"]})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(json::serialize(set.Json().at("domains")), R"(["site-group.test"])");
  EXPECT_EQ(Counts("dimension=referrer"), (Map{{"news.ycombinator.com", 2}, {"(none)", 3}}));
  const Response bad = api().Call("PATCH", creds_.ProjectPath(), creds_.private_api_key,
                                  R"({"domains":["site.test","not a domain"]})");
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_EQ(bad.Json().at("error").at("details").at("field").as_string(), "domains/1");

  // Every Direct visit has no referrer; the referrer breakdown of `query` is the report's.
  const json::object crossed = Query(
      R"({"metrics":["visitors"],"date_range":"day","dimensions":["visit:channel","visit:referrer"]})");
  EXPECT_EQ(Rows(crossed),
            R"(["Organic Social","news.ycombinator.com"]:[2],["Direct",""]:[1],)"
            R"(["Email",""]:[1],["Referral",""]:[1])");
  const json::object by_referrer = Query(
      R"({"metrics":["visitors"],"date_range":"day","dimensions":["visit:referrer"]})");
  EXPECT_EQ(Rows(by_referrer), R"([""]:[3],["news.ycombinator.com"]:[2])");

  // Filtered to one domain: its visits, and its full URLs on drill-down.
  const json::object from_hn = Report("/web-analytics?filter=referrer%3Anews.ycombinator.com");
  EXPECT_EQ(Metric(from_hn, "visitors").at("value").as_int64(), 2);
  EXPECT_EQ(Metric(from_hn, "pageviews").at("value").as_int64(), 3);
  const json::object urls = Query(
      R"({"metrics":["visitors"],"date_range":"day","dimensions":["visit:referrer_url"],)"
      R"("filters":[["is","visit:referrer",["news.ycombinator.com"]]],"order_by":[["visit:referrer_url","asc"]]})");
  EXPECT_EQ(Rows(urls), R"(["https://news.ycombinator.com/newest"]:[1],)"
                        R"(["https://www.News.YCombinator.com/item?id=1"]:[1])");
}

// Who is on the site now: read from the events as they arrive (inbox and blocks), not the
// rollups.
TEST_P(WebSources, RealtimeCountsWhoIsOnTheSiteNow) {
  Send(kFirefox, {View(kV1, "/", "https://www.google.com/"), View(kV1, "/pricing", "https://site.test/"),
                  View(kV2, "/pricing", "")});
  const json::object now = Report("/web-analytics/realtime");
  EXPECT_EQ(now.at("visitorsNow").as_int64(), 2);
  EXPECT_EQ(now.at("visitors").as_int64(), 2);
  EXPECT_EQ(now.at("pageviews").as_int64(), 3);
  EXPECT_TRUE(now.at("complete").as_bool());
  ASSERT_EQ(now.at("minutes").as_array().size(), 30u);
  std::int64_t views = 0;
  for (const json::value& minute : now.at("minutes").as_array()) {
    views += minute.at("pageviews").as_int64();
  }
  EXPECT_EQ(views, 3);
  EXPECT_EQ(json::serialize(now.at("pages")),
            R"([{"value":"/pricing","visitors":2},{"value":"/","visitors":1}])");
  EXPECT_EQ(json::serialize(now.at("sources")),
            R"([{"value":"Direct","visitors":1},{"value":"Google","visitors":1}])");
  // Another project sees none of it.
  const Credentials other = Bootstrap(GetParam(), Unique("realtime"), "Elsewhere");
  const Response foreign = api().Call("GET", "/web-analytics/realtime", other.private_api_key);
  ASSERT_EQ(foreign.status, 200) << foreign.body;
  EXPECT_EQ(foreign.Json().at("visitorsNow").as_int64(), 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, WebSources, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

TEST_P(WebReports, BadArgumentsAreRefused) {
  auto status = [&](const std::string& target) {
    return api().Call("GET", target, creds_.private_api_key).status;
  };
  EXPECT_EQ(status("/web-analytics/breakdown?dimension=shoe_size"), 400);
  EXPECT_EQ(status("/web-analytics/breakdown"), 400) << "dimension is required";
  EXPECT_EQ(status("/web-analytics/timeline?interval=fortnight"), 400);
  EXPECT_EQ(status("/web-analytics?compareFrom=2026-11-01"), 400);
  EXPECT_EQ(status("/web-analytics/dimension/timeline?dimension=device&limit=21"), 400);
  const Response unknown =
      api().Call("GET", "/web-analytics?filter=shoe_size%3A42", creds_.private_api_key);
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.Json().at("error").at("code").as_string(), "VAL_003") << unknown.body;
  EXPECT_EQ(status("/web-analytics/timeline?filter=country"), 400) << "no colon";
}

INSTANTIATE_TEST_SUITE_P(Backends, WebReports, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Backends, Reports, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Backends, WebQuery, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
