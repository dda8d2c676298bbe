// get_crawler_access on both stores, over the demo project (its crawl of the sample site read
// robots.txt; its crawler requests and visits are known row by row): each crawler's requests
// and those robots.txt disallows equal what the rows and the sample site's rules give, counted
// here without the robots.txt parser; each vendor's referral visits equal the visits whose
// first event came from its assistant. Before any crawl there is no site and no crawler row.
#include "tests/operations/operation_fixture.h"

#include <algorithm>
#include <map>

#include "demo/demo_project.h"
#include "demo/sample_site.h"
#include "storage/event_repository.h"
#include "tools/schema.h"

namespace sightline::operations {
namespace {

using storage::conformance::Backend;

class CrawlerAccess : public OperationFixture {
 protected:
  json::object Access(const std::string& project_id) {
    auto report = Call("get_crawler_access", Caller::kOwner, json::object{{"projectId", project_id}});
    EXPECT_TRUE(Ok(report));
    if (!report) return {};
    // Every figure the test checks is also a shape the output schema declares.
    auto valid = tools::Validate(registry_.Find("get_crawler_access")->output_schema, *report);
    EXPECT_TRUE(valid) << (valid ? "" : valid.error().message());
    return report->as_object();
  }
  std::string DemoProject() {
    demo::DemoRequest request{"owner@example.com", "Acme Inc."};
    request.days = 3;
    auto made = demo::CreateDemoProject(store(), clock_, request);
    EXPECT_TRUE(Ok(made));
    return made ? made->keys.project_id : "";
  }
};

// The sample site's robots.txt, read from the list it is written from.
bool Disallowed(const std::string& crawler, const std::string& path) {
  for (const std::string& prefix : demo::SampleDisallowedPaths()) {
    if (path.rfind(prefix, 0) == 0) return true;
  }
  const auto& blocked = demo::SampleBlockedCrawlers();
  return path != "/robots.txt" && std::find(blocked.begin(), blocked.end(), crawler) != blocked.end();
}

TEST_P(CrawlerAccess, BeforeAnyCrawlThereIsNoSiteButTheVendorsAreListed) {
  const json::object report = Access(bootstrap_.project_id);
  EXPECT_TRUE(report.at("site").is_null());
  EXPECT_TRUE(report.at("crawlers").as_array().empty());
  bool openai = false;
  for (const json::value& vendor : report.at("vendors").as_array()) {
    if (vendor.at("vendor") != "OpenAI") continue;
    openai = true;
    EXPECT_EQ(vendor.at("assistant"), "ChatGPT");
    EXPECT_EQ(vendor.at("referralVisits").as_int64(), 0);
  }
  EXPECT_TRUE(openai);
}

TEST_P(CrawlerAccess, CrawlersMeetTheSampleSitesRobotsTxt) {
  const std::string project = DemoProject();
  auto bots = storage::conformance::ReadOk(store(), [&](storage::Transaction& tx) {
    return tx.events().ListRecentBotRequests(project, 1'000'000);
  });
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> expected;  // requests, disallowed
  for (const storage::BotRequestRecord& b : bots) {
    auto& [requests, disallowed] = expected[b.bot_name.value_or("")];
    ++requests;
    disallowed += Disallowed(b.bot_name.value_or(""), b.path.value_or("")) ? 1 : 0;
  }
  const json::object report = Access(project);
  ASSERT_TRUE(report.at("site").is_object());
  EXPECT_EQ(report.at("site").at("origin").as_string(), demo::kSampleOrigin);
  std::size_t rows = 0;
  for (const json::value& row : report.at("crawlers").as_array()) {
    const std::string name(row.at("name").as_string());
    ASSERT_TRUE(expected.count(name)) << name;
    const json::object& current = row.at("current").as_object();
    EXPECT_EQ(current.at("requests").at("total").as_int64(), expected[name].first) << name;
    EXPECT_EQ(current.at("disallowedRequests").at("total").as_int64(), expected[name].second)
        << name;
    ++rows;
  }
  EXPECT_EQ(rows, expected.size());
  auto gptbot = std::find_if(report.at("crawlers").as_array().begin(),
                             report.at("crawlers").as_array().end(),
                             [](const json::value& row) { return row.at("name") == "GPTBot"; });
  ASSERT_NE(gptbot, report.at("crawlers").as_array().end());
  EXPECT_EQ(gptbot->at("access"), "disallowed");
  EXPECT_EQ(gptbot->at("vendor"), "OpenAI");
  EXPECT_GT(gptbot->at("current").at("disallowedRequests").at("spoofed").as_int64(), 0);
  EXPECT_EQ(gptbot->at("current").at("disallowedRequests").at("verified").as_int64(), 0);
}

TEST_P(CrawlerAccess, ReferralsAreTheVisitsFromEachVendorsAssistant) {
  const std::string project = DemoProject();
  storage::EventQuery query;
  query.project_id = project;
  query.limit = 1'000'000;
  auto events = storage::conformance::ReadOk(
      store(), [&](storage::Transaction& tx) { return tx.events().ListEvents(query); });
  // A visit's source is its first event's (by time, then id).
  std::map<std::string, const storage::EventRecord*> first;
  for (const storage::EventRecord& e : events) {
    const storage::EventRecord*& seen = first[e.session_id.value_or("")];
    if (!seen || std::pair(e.occurred_at, e.id) < std::pair(seen->occurred_at, seen->id)) seen = &e;
  }
  std::map<std::string, std::int64_t> visits;
  for (const auto& [session, e] : first) ++visits[e->traffic_source.value_or("")];
  ASSERT_GT(visits["ChatGPT"], 0);
  const json::object report = Access(project);
  std::map<std::string, std::int64_t> reported;
  for (const json::value& vendor : report.at("vendors").as_array()) {
    reported[std::string(vendor.at("assistant").as_string())] = vendor.at("referralVisits").as_int64();
  }
  for (const char* assistant : {"ChatGPT", "Perplexity", "Claude", "Gemini", "Copilot"}) {
    EXPECT_EQ(reported[assistant], visits[assistant]) << assistant;
  }
}

INSTANTIATE_TEST_SUITE_P(Sqlite, CrawlerAccess, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, CrawlerAccess, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::operations
