// jobs::HeldLease over a feature's LeaseStore (site audit's crawls, site_audit::CrawlLeases) on each
// backend: two nodes racing for the same queued crawls each get a different half, never the same
// crawl; a node that stalls past its lease loses the crawl to the other and can then neither renew
// nor release it; a released crawl is claimed at once. AI-visibility answers
// (visibility::AnswerLeases) keep the same protocol.
#include <atomic>
#include <set>
#include <thread>

#include "site_audit/crawl_leases.h"
#include "jobs/lease.h"
#include "storage/ai_visibility_repository.h"
#include "storage/site_audit_repository.h"
#include "store_fixture.h"
#include "visibility/answer_leases.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

class JobLeases : public StoreConformance {
 protected:
  void QueueCrawls(int count) {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
      for (int i = 0; i < count; ++i) {
        SiteAuditCrawlRecord crawl;
        crawl.id = "c" + std::to_string(i);
        crawl.project_id = "p1";
        crawl.site_id = "s" + std::to_string(i);  // one active crawl per site (migration 0021)
        crawl.start_url = "https://example.com/";
        crawl.status = "queued";
        crawl.created_at = 1000 + i;
        crawl.summary = "{}";
        if (auto inserted = tx.site_audit().InsertAuditCrawl(crawl); !inserted) return inserted;
      }
      return {};
    })));
  }
  // Run r1 with one pending answer a1, due at once.
  void QueueAnswer() {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
      auto run = tx.ai_visibility().InsertAiRun(
          {"r1", "p1", "manual", std::nullopt, "queued", std::nullopt, 1000, std::nullopt});
      if (!run) return run;
      AiAnswerRecord answer;
      answer.id = "a1";
      answer.run_id = "r1";
      answer.project_id = "p1";
      answer.prompt_id = "q1";
      answer.engine_id = "e1";
      answer.repetition = 1;
      answer.next_attempt_at = 1000;
      answer.created_at = 1000;
      return tx.ai_visibility().InsertAiAnswers(std::span(&answer, 1));
    })));
  }
};

TEST_P(JobLeases, TwoNodesRacingForTheSameCrawlsEachClaimDifferentOnes) {
  constexpr int kCrawls = 24;
  QueueCrawls(kCrawls);
  const core::ManualClock clock(10'000);
  const jobs::Lease lease(std::chrono::minutes(1));
  site_audit::CrawlLeases leases(store());
  std::vector<std::string> won[2];
  std::atomic<int> errors{0};
  auto node = [&](int n) {
    for (int i = 0; i < kCrawls; ++i) {
      auto claimed = jobs::HeldLease::Claim(leases, lease, clock, "c" + std::to_string(i));
      if (!claimed) ++errors;
      if (claimed && *claimed) won[n].push_back((*claimed)->id());
    }
  };
  std::thread a(node, 0), b(node, 1);
  a.join();
  b.join();
  EXPECT_EQ(errors, 0);
  std::set<std::string> all(won[0].begin(), won[0].end());
  for (const std::string& id : won[1]) EXPECT_TRUE(all.insert(id).second) << id << " twice";
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kCrawls)) << "every crawl claimed once";
}

TEST_P(JobLeases, AStalledNodeLosesItsCrawlToTheOtherOnceTheLeaseRunsOut) {
  QueueCrawls(1);
  core::ManualClock clock(10'000);
  const jobs::Lease lease(std::chrono::minutes(1));
  site_audit::CrawlLeases leases(store());
  auto first = jobs::HeldLease::Claim(leases, lease, clock, "c0");
  ASSERT_TRUE(Ok(first));
  ASSERT_TRUE(*first);
  clock.Advance(std::chrono::seconds(20));
  EXPECT_TRUE((*first)->Renew().value());
  EXPECT_FALSE(jobs::HeldLease::Claim(leases, lease, clock, "c0").value()) << "held";

  clock.Advance(std::chrono::seconds(61));  // the first node stalled past its lease
  auto second = jobs::HeldLease::Claim(leases, lease, clock, "c0");
  ASSERT_TRUE(Ok(second));
  ASSERT_TRUE(*second) << "the other node resumes it";
  EXPECT_FALSE((*first)->Renew().value()) << "the first learns it lost the crawl";
  EXPECT_FALSE((*first)->Release().value());
  auto crawl = ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditCrawlById("c0"); });
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->lease_until, (*second)->until());

  EXPECT_TRUE((*second)->Release().value()) << "a node that stops gives it up";
  auto third = jobs::HeldLease::Claim(leases, lease, clock, "c0");
  ASSERT_TRUE(Ok(third));
  EXPECT_TRUE(*third) << "claimed at once, not a minute later";
}

TEST_P(JobLeases, AnAnswerIsHeldByOneNodeAndAskedAgainWhenItsLeaseRunsOut) {
  QueueAnswer();
  core::ManualClock clock(10'000);
  const jobs::Lease lease(std::chrono::minutes(10));
  visibility::AnswerLeases leases(store());
  auto first = jobs::HeldLease::Claim(leases, lease, clock, "a1");
  ASSERT_TRUE(Ok(first));
  ASSERT_TRUE(*first);
  EXPECT_FALSE(jobs::HeldLease::Claim(leases, lease, clock, "a1").value()) << "held";
  auto run = ReadOk([](Transaction& tx) { return tx.ai_visibility().FindAiRunById("r1"); });
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, "running") << "its run started with it";

  clock.Advance(std::chrono::minutes(5));
  EXPECT_TRUE((*first)->Renew().value());
  clock.Advance(std::chrono::minutes(11));
  auto second = jobs::HeldLease::Claim(leases, lease, clock, "a1");
  ASSERT_TRUE(Ok(second));
  ASSERT_TRUE(*second) << "a dead node's answer is asked again";
  EXPECT_FALSE((*first)->Renew().value());
  EXPECT_FALSE((*first)->Release().value());
  EXPECT_TRUE((*second)->Release().value());
  auto answer = ReadOk([](Transaction& tx) { return tx.ai_visibility().FindAiAnswer("p1", "a1"); });
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, "running");
  EXPECT_EQ(answer->lease_until, 0);
  EXPECT_EQ(answer->attempts, 2) << "each claim counts an attempt";
}

// A node that stalled past its lease cannot end the answer the other node now holds: storing it
// (with its mentions), retrying it or failing it writes nothing, so nothing is counted twice.
TEST_P(JobLeases, OnlyTheAnswersHolderEndsIt) {
  QueueAnswer();
  core::ManualClock clock(10'000);
  const jobs::Lease lease(std::chrono::minutes(10));
  visibility::AnswerLeases leases(store());
  auto first = jobs::HeldLease::Claim(leases, lease, clock, "a1");
  ASSERT_TRUE(Ok(first) && *first);
  const std::int64_t stalled = (*first)->until();
  clock.Advance(std::chrono::minutes(11));
  auto second = jobs::HeldLease::Claim(leases, lease, clock, "a1");
  ASSERT_TRUE(Ok(second) && *second);

  AiAnswerRecord answer = ReadOk([](Transaction& tx) { return tx.ai_visibility().FindAiAnswer("p1", "a1"); }).value();
  answer.answered_at = clock.NowMillis();
  answer.answer = "Acme is good.";
  const AiMentionRecord mention{.brand_id = "b1", .rank = 1, .first_offset = 0, .occurrences = 1,
                                .snippet = "Acme"};
  EXPECT_FALSE(WriteOk([&](Transaction& tx) {
    return tx.ai_visibility().FinishAiAnswer(answer, stalled, std::span(&mention, 1), {});
  }));
  EXPECT_FALSE(WriteOk([&](Transaction& tx) {
    return tx.ai_visibility().RetryAiAnswer("a1", stalled, clock.NowMillis(), "X", "x");
  }));
  EXPECT_FALSE(WriteOk([&](Transaction& tx) {
    return tx.ai_visibility().FailAiAnswer("a1", stalled, "X", "x", clock.NowMillis());
  }));
  auto unchanged = ReadOk([](Transaction& tx) { return tx.ai_visibility().FindAiAnswer("p1", "a1"); });
  ASSERT_TRUE(unchanged);
  EXPECT_EQ(unchanged->status, "running");
  EXPECT_EQ(unchanged->answer, "");

  EXPECT_TRUE(WriteOk([&](Transaction& tx) {
    return tx.ai_visibility().FinishAiAnswer(answer, (*second)->until(), std::span(&mention, 1), {});
  }));
  auto done = ReadOk([](Transaction& tx) { return tx.ai_visibility().FindAiAnswer("p1", "a1"); });
  ASSERT_TRUE(done);
  EXPECT_EQ(done->status, "done");
  EXPECT_EQ(done->lease_until, 0);
  EXPECT_FALSE(WriteOk([&](Transaction& tx) {
    return tx.ai_visibility().FinishAiAnswer(answer, (*second)->until(), std::span(&mention, 1), {});
  })) << "a stored answer is stored once";
}

INSTANTIATE_TEST_SUITE_P(Sqlite, JobLeases, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, JobLeases, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
