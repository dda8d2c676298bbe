// End-to-end: crawler reports against the real binary on every backend. Requests are stored
// through /ingest/v1/server at chosen instants (client_timestamp), and every expected figure
// below is computed by hand from those instants and the zones' rules.
#include "harness.h"
#include "sample_agents.h"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <fstream>

namespace sightline::e2e {
namespace {

namespace json = boost::json;


std::string Item(const std::string& ua, const std::string& ip, const std::string& path,
                 std::int64_t at) {
  return R"({"user_agent":")" + ua + R"(","ip_address":")" + ip + R"(","path":")" + path +
         R"(","client_timestamp":)" + std::to_string(at) + "}";
}

class Reports : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    ranges_ = MakeTempDir("sightline-report-ranges-");
    std::ofstream(ranges_ / "gptbot.json")
        << R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]})";
    creds_ = Bootstrap(GetParam(), Unique("reports"), "Site");
    server_ = std::make_unique<ServerProcess>(
        GetParam(), std::vector<std::string>{"--bot-ranges-dir", ranges_.string()});
  }

  Response Call(const std::string& method, const std::string& target, const std::string& body = "",
                const std::string& key = "") {
    std::map<std::string, std::string> headers{
        {"Authorization", "Bearer " + (key.empty() ? creds_.private_api_key : key)}};
    if (!body.empty()) headers["Content-Type"] = "application/json";
    return server_->Request(method, target, headers, body);
  }
  void SetTimezone(const std::string& zone) {
    const Response r = Call("PATCH", "/" + creds_.org_slug + "/projects/" + creds_.project_id,
                            R"({"reportingTimezone":")" + zone + R"("})");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  void Ingest(const std::vector<std::string>& items) {
    std::string body = R"({"events":[)";
    for (std::size_t i = 0; i < items.size(); ++i) body += (i ? "," : "") + items[i];
    const Response r = Call("POST", "/ingest/v1/server", body + "]}");
    ASSERT_EQ(r.status, 202) << r.body;
    ASSERT_EQ(r.Json().at("accepted").as_int64(), static_cast<std::int64_t>(items.size()));
  }
  json::object Report(const std::string& target) {
    const Response r = Call("GET", target);
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

  std::filesystem::path ranges_;
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
  EXPECT_EQ(gpt.at("previousRequestCount").as_int64(), 1);
  EXPECT_EQ(gpt.at("absoluteChange").as_int64(), 3);
  EXPECT_DOUBLE_EQ(gpt.at("percentageChange").as_double(), 300.0);

  const json::object& curl = Row(top, 1);
  EXPECT_EQ(curl.at("botName").as_string(), "curl");
  EXPECT_EQ(curl.at("previousRequestCount").as_int64(), 0) << "unseen before: a count reads 0";
  EXPECT_TRUE(curl.at("percentageChange").is_null()) << "previous figure 0";

  const json::object& slack = Row(top, 2);
  EXPECT_EQ(slack.at("botName").as_string(), "Slackbot");
  EXPECT_EQ(slack.at("requestCount").as_int64(), 1);
  EXPECT_EQ(slack.at("absoluteChange").as_int64(), -1);
  EXPECT_DOUBLE_EQ(slack.at("percentageChange").as_double(), -50.0);
  // python-requests was seen only in the comparison window: not a row.
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
    const Response r = Call("GET", target);
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
  const Response foreign = Call("GET", "/bots/analytics/top?" + period + "&projectId=" +
                                           creds_.project_id, "", other.private_api_key);
  EXPECT_EQ(foreign.status, 404) << foreign.body;
  EXPECT_EQ(Report("/bots/analytics/top?" + period).at("total").as_int64(), 3);
  const Response own = Call("GET", "/bots/analytics/top?" + period, "", other.private_api_key);
  ASSERT_EQ(own.status, 200);
  EXPECT_EQ(own.Json().at("totalRequests").as_int64(), 0);

  // A signed-in member names the project; without one the request is incomplete.
  const Response login = server_->Request(
      "POST", "/auth/login", {{"Content-Type", "application/json"}},
      R"({"email":"owner@)" + creds_.org_slug + R"(.test","password":"correct horse"})");
  ASSERT_EQ(login.status, 200) << login.body;
  const std::string token(login.Json().at("accessToken").as_string());
  const Response named = Call("GET", "/bots/analytics/top?" + period + "&projectId=" +
                                         creds_.project_id, "", token);
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(named.Json().at("totalRequests").as_int64(), 7);
  const Response unnamed = Call("GET", "/bots/analytics/top?" + period, "", token);
  EXPECT_EQ(unnamed.status, 400);
  EXPECT_EQ(unnamed.Json().at("error").at("details").at("field").as_string(), "projectId");
}

INSTANTIATE_TEST_SUITE_P(Backends, Reports, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
