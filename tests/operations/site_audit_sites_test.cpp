// Site audit's per-site guarantees, in process on both stores: a site has one queued or running
// crawl however many start_site_crawl calls race (the store's unique index decides on
// PostgreSQL, where two transactions can both pass the "no active crawl" check), and the
// robots-vs-traffic report counts the requests to the site's own host only (hosts as ingestion
// stores them: lowercase, no port; www. and the bare name are one site).
#include "tests/operations/operation_fixture.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "storage/event_repository.h"

namespace sightline::operations {
namespace {

using storage::conformance::Backend;
using storage::conformance::IsError;

class SiteAuditSites : public OperationFixture {
 protected:
  json::object Project(json::object more = {}) const {
    more["orgSlug"] = bootstrap_.organization_slug;
    more["projectId"] = bootstrap_.project_id;
    return more;
  }
  // A verified site of the project (ownership by file, which PublishingSites serves).
  std::string VerifiedSite(std::string url) {
    auto site = Call("add_audit_site", Caller::kOwner, Project({{"url", std::move(url)}}));
    EXPECT_TRUE(Ok(site));
    if (!site) return "";
    const std::string id(site->at("id").as_string());
    EXPECT_TRUE(Ok(Call("verify_audit_site", Caller::kOwner,
                        Project({{"siteId", id}, {"method", "file"}}))));
    return id;
  }
  // GPTBot fetching /docs on `host`, through ingestion.
  void CrawlerRequest(std::string host) {
    const json::object request{
        {"user_agent", "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"},
        {"ip_address", "20.171.207.1"},
        {"host", std::move(host)},
        {"path", "/docs"},
        {"client_timestamp", clock_.NowMillis() - 60000}};
    ASSERT_TRUE(Ok(Call("ingest_server_events", Caller::kPrivateKey,
                        json::object{{"events", json::array{request}}})));
  }
  std::int64_t ReportedRequests(const std::string& site_id) {
    auto report =
        Call("get_robots_traffic_report", Caller::kOwner, Project({{"siteId", site_id}}));
    EXPECT_TRUE(Ok(report));
    if (!report) return -1;
    return report->at("totals").at("requests").at("total").as_int64();
  }
};

TEST_P(SiteAuditSites, CrawlsStartedAtOnceLeaveOneActiveCrawl) {
  const std::string site = VerifiedSite("https://www.example.com/");
  // Rounds of callers released at once (each round's crawl cancelled after it): without the
  // store's index, PostgreSQL started several crawls in most rounds.
  constexpr int kCallers = 8;
  for (int round = 0; round < 10; ++round) {
    std::atomic<int> ready{0};
    std::vector<core::Result<json::value>> results(kCallers, core::Error::Internal("not run"));
    std::vector<std::thread> callers;
    for (int i = 0; i < kCallers; ++i) {
      callers.emplace_back([&, i] {
        ++ready;
        while (ready.load() < kCallers) std::this_thread::yield();
        results[i] = Call("start_site_crawl", Caller::kOwner, Project({{"siteId", site}}));
      });
    }
    for (auto& caller : callers) caller.join();
    int started = 0;
    for (const auto& result : results) {
      if (result) {
        ++started;
        ASSERT_TRUE(Ok(Call("cancel_site_crawl", Caller::kOwner,
                            Project({{"crawlId", result->at("id")}}))));
      } else {
        EXPECT_TRUE(IsError(result, core::ErrorCode::kAuditCrawlActive))
            << result.error().message() << " (every other call: AUDIT_002, not a bare conflict)";
      }
    }
    EXPECT_EQ(started, 1) << "round " << round;
  }
}

TEST_P(SiteAuditSites, TheRobotsReportCountsTheSitesOwnHostOnly) {
  const std::string shop = VerifiedSite("https://www.example.com/");
  const std::string blog = VerifiedSite("https://blog.example.com/");
  CrawlerRequest("WWW.Example.COM:443");
  CrawlerRequest("example.com.");
  CrawlerRequest("blog.example.com");
  CrawlerRequest("elsewhere.example");
  EXPECT_EQ(ReportedRequests(shop), 2) << "www. and the bare name, any case, port or dot";
  EXPECT_EQ(ReportedRequests(blog), 1);
  auto stored = Read([&](storage::Transaction& tx) {
    return tx.events().ListRecentBotRequests(bootstrap_.project_id, 10);
  });
  ASSERT_TRUE(Ok(stored));
  std::vector<std::string> hosts;
  for (const auto& row : *stored) hosts.push_back(row.host.value_or("(none)"));
  std::sort(hosts.begin(), hosts.end());
  EXPECT_EQ(hosts, (std::vector<std::string>{"blog.example.com", "elsewhere.example",
                                             "example.com", "www.example.com"}))
      << "stored normalized";
}

INSTANTIATE_TEST_SUITE_P(Sqlite, SiteAuditSites, ::testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, SiteAuditSites, ::testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::operations
