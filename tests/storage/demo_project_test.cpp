// `sightline admin demo` on each store: the demo project gets visits enriched as live traffic
// is (devices, places, sources, sessions), crawler requests of every verdict, AI-visibility
// answers made by the run path with their mentions and citations, and a completed crawl of the
// sample site that finds what the site was built to show; a second run changes nothing, and the
// owner's own project stays empty.
#include <set>

#include "core/clock.h"
#include "demo/demo_project.h"
#include "demo/sample_site.h"
#include "storage/ai_visibility_repository.h"
#include "storage/site_audit_repository.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

constexpr std::int64_t kNow = 1'796'223'600'000;  // 2026-11-27T15:00:00Z

class DemoProject : public StoreConformance {
 protected:
  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto owner = identity::Bootstrap(store(), clock_,
                                     {"owner@example.com", "owner-password", "Demo", "Demo site"});
    ASSERT_TRUE(Ok(owner));
    own_project_ = owner->project_id;
  }

  demo::DemoResult Create() {
    demo::DemoRequest request{"owner@example.com", "Demo"};
    request.days = 4;
    auto made = demo::CreateDemoProject(store(), clock_, request);
    EXPECT_TRUE(Ok(made));
    return made ? *made : demo::DemoResult{};
  }

  std::vector<EventRecord> Events(const std::string& project_id) {
    EventQuery query;
    query.project_id = project_id;
    query.limit = 1'000'000;
    return ReadOk([&](Transaction& tx) { return tx.events().ListEvents(query); });
  }

  core::ManualClock clock_{kNow};
  std::string own_project_;
};

TEST_P(DemoProject, VisitsAreEnrichedAndSessionedAsLiveTraffic) {
  const demo::DemoResult made = Create();
  ASSERT_TRUE(made.generated);
  EXPECT_NE(made.keys.project_id, own_project_);
  const auto events = Events(made.keys.project_id);
  ASSERT_EQ(static_cast<std::int64_t>(events.size()), made.traffic.events);
  std::int64_t starts = 0;
  std::set<std::string> channels, devices, countries, names;
  for (const EventRecord& e : events) {
    EXPECT_TRUE(e.session_id && !e.session_id->empty()) << e.event;
    EXPECT_LE(e.occurred_at, kNow);
    EXPECT_GT(e.occurred_at, kNow - 5 * 86'400'000LL);
    starts += e.event == "session_start" ? 1 : 0;
    if (e.event == "session_start") channels.insert(e.traffic_channel.value_or(""));
    devices.insert(e.device.value_or(""));
    countries.insert(e.country.value_or(""));
    names.insert(e.event);
  }
  EXPECT_EQ(starts, made.traffic.visits);
  EXPECT_GT(made.traffic.visits, 400);
  for (const char* channel : {"Organic Search", "Direct", "AI Assistants", "Email"}) {
    EXPECT_TRUE(channels.count(channel)) << channel;
  }
  EXPECT_TRUE(devices.count("desktop") && devices.count("mobile")) << *devices.begin();
  EXPECT_GE(countries.size(), 10u);
  for (const char* name : {"screen_view", "scroll_depth", "add_to_cart", "order_completed"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  EXPECT_TRUE(Events(own_project_).empty());
}

TEST_P(DemoProject, CrawlersComeVerifiedSpoofedAndSuspected) {
  const demo::DemoResult made = Create();
  auto bots = ReadOk([&](Transaction& tx) {
    return tx.events().ListRecentBotRequests(made.keys.project_id, 1'000'000);
  });
  ASSERT_EQ(static_cast<std::int64_t>(bots.size()), made.traffic.bot_requests);
  std::set<std::string> verdicts, ai_crawlers;
  for (const BotRequestRecord& b : bots) {
    verdicts.insert(b.actor_type);
    if (b.is_ai) ai_crawlers.insert(b.bot_name.value_or(""));
    EXPECT_EQ(b.actor_verified, b.actor_type == "verified_bot");
  }
  EXPECT_EQ(verdicts, (std::set<std::string>{"spoofed_bot", "suspected_bot", "verified_bot"}));
  for (const char* name : {"GPTBot", "ClaudeBot", "PerplexityBot", "ChatGPT-User"}) {
    EXPECT_TRUE(ai_crawlers.count(name)) << name;
  }
}

TEST_P(DemoProject, AnswersCarryMentionsAndCitations) {
  const demo::DemoResult made = Create();
  // 8 prompts × 2 engines × 2 repetitions, 8 weekly runs.
  EXPECT_EQ(made.answers.runs, 8);
  EXPECT_EQ(made.answers.answers, 256);
  AiVisibilityRepository::AnswerFilter filter;
  filter.limit = 1000;
  auto answers = ReadOk([&](Transaction& tx) {
    return tx.ai_visibility().ListAiAnswers(made.keys.project_id, filter);
  });
  ASSERT_EQ(answers.size(), 256u);
  std::vector<std::string> ids;
  std::int64_t owned = 0;
  for (const AiAnswerRecord& a : answers) {
    EXPECT_EQ(a.status, "done");
    ids.push_back(a.id);
    owned += a.owned_citations;
  }
  EXPECT_GT(owned, 0);
  auto mentions = ReadOk([&](Transaction& tx) { return tx.ai_visibility().ListAiMentions(ids); });
  EXPECT_GT(mentions.size(), 256u);
  auto engines = ReadOk([&](Transaction& tx) {
    return tx.ai_visibility().ListAiEngines(made.keys.project_id);
  });
  ASSERT_EQ(engines.size(), 2u);
  for (const AiEngineRecord& engine : engines) EXPECT_FALSE(engine.active) << engine.name;
}

TEST_P(DemoProject, TheSampleSiteIsCrawledAndItsFaultsFound) {
  const demo::DemoResult made = Create();
  auto crawls = ReadOk([&](Transaction& tx) {
    return tx.site_audit().ListAuditCrawls(made.keys.project_id, "", 10, 0);
  });
  ASSERT_EQ(crawls.size(), 1u);
  EXPECT_EQ(crawls[0].status, "completed");
  EXPECT_GE(made.crawled_pages, static_cast<std::int64_t>(demo::SamplePages().size()));
  auto issues = ReadOk(
      [&](Transaction& tx) { return tx.site_audit().ListAllAuditIssues(crawls[0].id); });
  std::set<std::pair<std::string, std::string>> found;
  for (const SiteAuditIssueRecord& issue : issues) found.insert({issue.rule_id, issue.url});
  const std::string site(demo::kSampleOrigin);
  EXPECT_TRUE(found.count({"links/broken-internal", site + "/blog/leave-no-trace"}));
  EXPECT_TRUE(found.count({"status/client-error", site + "/products/classic-tent"}));
  EXPECT_TRUE(found.count({"description/missing", site + "/products/merino-base-layer"}));
  EXPECT_TRUE(found.count({"ai/crawler-blocked", ""}));
  // Only the two pages written without one lack a description.
  for (const auto& [rule, url] : found) {
    EXPECT_NE(rule, "description/too-short") << url;
  }
}

TEST_P(DemoProject, ASecondRunKeepsTheData) {
  const demo::DemoResult first = Create();
  const demo::DemoResult second = Create();
  EXPECT_FALSE(second.generated);
  EXPECT_EQ(second.keys.project_id, first.keys.project_id);
  EXPECT_EQ(static_cast<std::int64_t>(Events(first.keys.project_id).size()), first.traffic.events);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, DemoProject, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, DemoProject, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
