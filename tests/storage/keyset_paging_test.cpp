// The keyset queries behind the lists' cursors (tools/paging.h), on each backend: reading page
// after page from the previous page's last row gives every row once, in the list's order, the
// same as one read of everything; ties on the sort key are broken by the id (or URL). The
// audit log, events and notifications have their keyset tests in conformance_test.cpp; projects,
// members, invitations and keys are walked through their operations (tests/operations).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "storage/ai_visibility_repository.h"
#include "storage/site_audit_repository.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

using TimeId = std::optional<std::pair<std::int64_t, std::string>>;

// Pages of `limit` rows read with `page(after, limit)` until one comes back short; `key_of` is
// the keyset of a row. Returns the ids (`id_of`) in the order read.
template <class Row, class Key, class ReadPage, class KeyOf, class IdOf>
std::vector<std::string> WalkPages(std::int64_t limit, ReadPage page, KeyOf key_of, IdOf id_of) {
  std::vector<std::string> ids;
  std::optional<Key> after;
  for (int pages = 0; pages < 1000; ++pages) {
    const std::vector<Row> rows = page(after, limit);
    for (const Row& row : rows) ids.push_back(id_of(row));
    if (static_cast<std::int64_t>(rows.size()) < limit) return ids;
    after = key_of(rows.back());
  }
  ADD_FAILURE() << "the walk never ended";
  return ids;
}

class KeysetPaging : public StoreConformance {
 protected:
  // Seven rows over four distinct times: 1000 ×2, 2000 ×3, 3000, 4000.
  static constexpr std::int64_t kTimes[] = {2000, 1000, 4000, 2000, 3000, 1000, 2000};
  static constexpr const char* kIds[] = {"r-e", "r-b", "r-g", "r-a", "r-c", "r-f", "r-d"};

  static SiteAuditCrawlRecord Crawl(const std::string& id, std::int64_t created_at) {
    SiteAuditCrawlRecord crawl;
    crawl.id = id;
    crawl.project_id = "p1";
    crawl.site_id = id;  // one active crawl per site
    crawl.start_url = "https://example.com/";
    crawl.status = "completed";
    crawl.max_pages = 100;
    crawl.max_depth = 5;
    crawl.max_duration_s = 600;
    crawl.concurrency = 2;
    crawl.created_at = created_at;
    crawl.summary = "{}";
    return crawl;
  }
};

TEST_P(KeysetPaging, AiRunsNewestFirst) {
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    for (std::size_t i = 0; i < std::size(kIds); ++i) {
      auto run = tx.ai_visibility().InsertAiRun(
          {kIds[i], "p1", "manual", std::nullopt, "queued", std::nullopt, kTimes[i], std::nullopt});
      if (!run) return run;
    }
    return tx.ai_visibility().InsertAiRun(
        {"other", "p2", "manual", std::nullopt, "queued", std::nullopt, 2000, std::nullopt});
  })));
  const std::vector<std::string> newest_first = {"r-g", "r-c", "r-e", "r-d", "r-a", "r-f", "r-b"};
  const auto all = ReadOk([](Transaction& tx) { return tx.ai_visibility().ListAiRuns("p1", 100, 0); });
  ASSERT_EQ(all.size(), newest_first.size());
  for (std::int64_t limit : {1, 2, 3, 7}) {
    const auto walked = WalkPages<AiRunRecord, std::pair<std::int64_t, std::string>>(
        limit,
        [&](const TimeId& after, std::int64_t n) {
          return ReadOk([&](Transaction& tx) {
            return tx.ai_visibility().ListAiRuns("p1", n, 0, after);
          });
        },
        [](const AiRunRecord& r) { return std::make_pair(r.created_at, r.id); },
        [](const AiRunRecord& r) { return r.id; });
    EXPECT_EQ(walked, newest_first) << "limit " << limit;
  }
  // `offset` still applies, after the keyset.
  const auto skipped = ReadOk([](Transaction& tx) {
    return tx.ai_visibility().ListAiRuns("p1", 2, 1, std::make_pair(std::int64_t{2000}, std::string("r-e")));
  });
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].id, "r-a");
  EXPECT_EQ(skipped[1].id, "r-f");
}

TEST_P(KeysetPaging, AiAnswersNewestFirstWithTheirFilters) {
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    auto run = tx.ai_visibility().InsertAiRun(
        {"run", "p1", "manual", std::nullopt, "queued", std::nullopt, 1, std::nullopt});
    if (!run) return run;
    std::vector<AiAnswerRecord> answers;
    for (std::size_t i = 0; i < std::size(kIds); ++i) {
      AiAnswerRecord answer;
      answer.id = kIds[i];
      answer.run_id = "run";
      answer.project_id = "p1";
      answer.prompt_id = i % 2 == 0 ? "q-even" : "q-odd";
      answer.engine_id = "e1";
      answer.repetition = 1;
      answer.next_attempt_at = kTimes[i];
      answer.created_at = kTimes[i];
      answers.push_back(answer);
    }
    return tx.ai_visibility().InsertAiAnswers(answers);
  })));
  auto walk = [&](std::string prompt_id, std::int64_t limit) {
    return WalkPages<AiAnswerRecord, std::pair<std::int64_t, std::string>>(
        limit,
        [&](const TimeId& after, std::int64_t n) {
          AiVisibilityRepository::AnswerFilter filter;
          filter.prompt_id = prompt_id;
          filter.limit = n;
          filter.before = after;
          return ReadOk([&](Transaction& tx) { return tx.ai_visibility().ListAiAnswers("p1", filter); });
        },
        [](const AiAnswerRecord& a) { return std::make_pair(a.created_at, a.id); },
        [](const AiAnswerRecord& a) { return a.id; });
  };
  for (std::int64_t limit : {1, 2, 4, 7}) {
    EXPECT_EQ(walk("", limit),
              (std::vector<std::string>{"r-g", "r-c", "r-e", "r-d", "r-a", "r-f", "r-b"}))
        << "limit " << limit;
    // kIds at even indexes: r-e, r-g, r-c, r-d.
    EXPECT_EQ(walk("q-even", limit), (std::vector<std::string>{"r-g", "r-c", "r-e", "r-d"}))
        << "limit " << limit;
  }
}

TEST_P(KeysetPaging, SiteCrawlsNewestFirst) {
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    for (std::size_t i = 0; i < std::size(kIds); ++i) {
      if (auto r = tx.site_audit().InsertAuditCrawl(Crawl(kIds[i], kTimes[i])); !r) return r;
    }
    return {};
  })));
  for (std::int64_t limit : {1, 3, 7}) {
    const auto walked = WalkPages<SiteAuditCrawlRecord, std::pair<std::int64_t, std::string>>(
        limit,
        [&](const TimeId& before, std::int64_t n) {
          return ReadOk([&](Transaction& tx) {
            return tx.site_audit().ListAuditCrawls("p1", "", n, 0, before);
          });
        },
        [](const SiteAuditCrawlRecord& c) { return std::make_pair(c.created_at, c.id); },
        [](const SiteAuditCrawlRecord& c) { return c.id; });
    EXPECT_EQ(walked, (std::vector<std::string>{"r-g", "r-c", "r-e", "r-d", "r-a", "r-f", "r-b"}))
        << "limit " << limit;
  }
  // One site's crawls only.
  const auto one_site = ReadOk([](Transaction& tx) {
    return tx.site_audit().ListAuditCrawls("p1", "r-c", 10, 0, std::make_pair(std::int64_t{9000}, std::string()));
  });
  ASSERT_EQ(one_site.size(), 1u);
  EXPECT_EQ(one_site[0].id, "r-c");
}

TEST_P(KeysetPaging, CrawlPagesInDiscoveryOrder) {
  std::vector<SiteAuditPageRecord> urls;
  for (int i = 0; i < 9; ++i) {
    urls.push_back({.crawl_id = "c1", .url = "https://example.com/" + std::to_string(i),
                    .seq = 100 - i * 3, .depth = 1, .source = "link", .state = "queued"});
  }
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.site_audit().AddAuditUrls(urls); })));
  SiteAuditRepository::PageFilter everything;
  everything.limit = 100;
  const auto all = ReadOk([&](Transaction& tx) { return tx.site_audit().ListAuditPages("c1", everything); });
  ASSERT_EQ(all.size(), 9u);
  std::vector<std::string> in_order;
  for (const auto& page : all) in_order.push_back(page.url);
  EXPECT_EQ(in_order.front(), "https://example.com/8") << "the lowest seq first";
  for (std::int64_t limit : {1, 2, 4, 9}) {
    const auto walked = WalkPages<SiteAuditPageRecord, std::pair<std::int64_t, std::string>>(
        limit,
        [&](const TimeId& after, std::int64_t n) {
          SiteAuditRepository::PageFilter filter;
          filter.limit = n;
          filter.after = after;
          return ReadOk([&](Transaction& tx) { return tx.site_audit().ListAuditPages("c1", filter); });
        },
        [](const SiteAuditPageRecord& p) { return std::make_pair(p.seq, p.url); },
        [](const SiteAuditPageRecord& p) { return p.url; });
    EXPECT_EQ(walked, in_order) << "limit " << limit;
  }
}

TEST_P(KeysetPaging, CrawlIssuesWorstFirst) {
  std::vector<SiteAuditIssueRecord> issues = {
      {"c1", "p1", "title/missing", "https://example.com/b", "error", "{}", "new"},
      {"c1", "p1", "images/missing-alt", "https://example.com/a", "warning", "{}", "open"},
      {"c1", "p1", "title/missing", "https://example.com/a", "error", "{}", "new"},
      {"c1", "p1", "images/missing-alt", "https://example.com/b", "warning", "{}", "new"},
      {"c1", "p1", "ai/llms-txt-missing", "", "notice", "{}", "new"},
      {"c1", "p1", "canonical/missing", "https://example.com/a", "error", "{}", "open"},
      {"c1", "p1", "headings/h1-missing", "https://example.com/c", "warning", "{}", "new"}};
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.site_audit().ReplaceAuditIssues("c1", issues); })));
  const std::vector<std::string> worst_first = {
      "canonical/missing https://example.com/a", "title/missing https://example.com/a",
      "title/missing https://example.com/b",     "headings/h1-missing https://example.com/c",
      "images/missing-alt https://example.com/a", "images/missing-alt https://example.com/b",
      "ai/llms-txt-missing "};
  using Position = SiteAuditRepository::IssueFilter::Position;
  for (std::int64_t limit : {1, 2, 3, 7}) {
    const auto walked = WalkPages<SiteAuditIssueRecord, Position>(
        limit,
        [&](const std::optional<Position>& after, std::int64_t n) {
          SiteAuditRepository::IssueFilter filter;
          filter.limit = n;
          filter.after = after;
          return ReadOk([&](Transaction& tx) { return tx.site_audit().ListAuditIssues("c1", filter); });
        },
        [](const SiteAuditIssueRecord& i) {
          const std::int64_t rank = i.severity == "error" ? 0 : i.severity == "warning" ? 1 : 2;
          return Position{rank, i.rule_id, i.url};
        },
        [](const SiteAuditIssueRecord& i) { return i.rule_id + " " + i.url; });
    EXPECT_EQ(walked, worst_first) << "limit " << limit;
  }
}

TEST_P(KeysetPaging, AiPromptsInCreationOrderWithTheirTopic) {
  std::vector<AiPromptRecord> prompts;
  for (std::size_t i = 0; i < std::size(kIds); ++i) {
    AiPromptRecord prompt;
    prompt.id = kIds[i];
    prompt.project_id = "p1";
    prompt.text = std::string("Which analytics tool? ") + kIds[i];
    prompt.topic = i % 2 == 0 ? "even" : "odd";
    prompt.created_at = prompt.updated_at = kTimes[i];
    prompts.push_back(prompt);
  }
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.ai_visibility().InsertAiPrompts(prompts); })));
  auto walk = [&](std::optional<std::string> topic, std::int64_t limit) {
    return WalkPages<AiPromptRecord, std::pair<std::int64_t, std::string>>(
        limit,
        [&](const TimeId& after, std::int64_t n) {
          return ReadOk([&](Transaction& tx) {
            return tx.ai_visibility().ListAiPromptsPage("p1", topic, KeysetPage{after, n});
          });
        },
        [](const AiPromptRecord& p) { return std::make_pair(p.created_at, p.id); },
        [](const AiPromptRecord& p) { return p.id; });
  };
  for (std::int64_t limit : {1, 2, 3, 7}) {
    EXPECT_EQ(walk(std::nullopt, limit),
              (std::vector<std::string>{"r-b", "r-f", "r-a", "r-d", "r-e", "r-c", "r-g"}))
        << "limit " << limit;
    EXPECT_EQ(walk("even", limit), (std::vector<std::string>{"r-d", "r-e", "r-c", "r-g"}))
        << "limit " << limit;
  }
}

// The lists that answered everything before cursors take a KeysetPage; without one they still
// answer everything.
TEST_P(KeysetPaging, AuditSitesAndBrandsOldestFirst) {
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    for (std::size_t i = 0; i < std::size(kIds); ++i) {
      const SiteRecord site{kIds[i], "p1", std::string("https://") + kIds[i] + ".example",
                                 "token", std::nullopt, std::nullopt, std::nullopt, "",
                                 std::nullopt, kTimes[i]};
      if (auto r = tx.site_audit().InsertAuditSite(site); !r) return r;
      AiBrandRecord brand;
      brand.id = kIds[i];
      brand.project_id = "p1";
      brand.name = std::string("Brand ") + kIds[i];
      brand.created_at = brand.updated_at = kTimes[i];
      if (auto r = tx.ai_visibility().InsertAiBrand(brand); !r) return r;
    }
    return {};
  })));
  const std::vector<std::string> oldest_first = {"r-b", "r-f", "r-a", "r-d", "r-e", "r-c", "r-g"};
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().ListAuditSites("p1"); }).size(), 7u);
  for (std::int64_t limit : {1, 2, 3, 7}) {
    EXPECT_EQ((WalkPages<SiteRecord, std::pair<std::int64_t, std::string>>(
                  limit,
                  [&](const TimeId& after, std::int64_t n) {
                    return ReadOk([&](Transaction& tx) {
                      return tx.site_audit().ListAuditSites("p1", KeysetPage{after, n});
                    });
                  },
                  [](const SiteRecord& s) { return std::make_pair(s.created_at, s.id); },
                  [](const SiteRecord& s) { return s.id; })),
              oldest_first)
        << "limit " << limit;
    EXPECT_EQ((WalkPages<AiBrandRecord, std::pair<std::int64_t, std::string>>(
                  limit,
                  [&](const TimeId& after, std::int64_t n) {
                    return ReadOk([&](Transaction& tx) {
                      return tx.ai_visibility().ListAiBrands("p1", KeysetPage{after, n});
                    });
                  },
                  [](const AiBrandRecord& b) { return std::make_pair(b.created_at, b.id); },
                  [](const AiBrandRecord& b) { return b.id; })),
              oldest_first)
        << "limit " << limit;
  }
}

INSTANTIATE_TEST_SUITE_P(Sqlite, KeysetPaging, ::testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, KeysetPaging, ::testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
