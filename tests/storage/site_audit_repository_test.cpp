// Site audit's repository (storage/site_audit_repository.h) on each backend: sites, the crawl claim
// that only one node wins, cancel, the frontier's URLs (added once, in discovery order), pages,
// links, issues with their filters and counts, the robots.txt cache, the crawler's keys and the
// crawler traffic the robots-vs-traffic report reads.
#include "storage/site_audit_repository.h"

#include <algorithm>

#include "storage/event_repository.h"
#include "storage/migrations.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

class SiteAuditStore : public StoreConformance {
 protected:
  SiteAuditCrawlRecord Crawl(const std::string& id, std::int64_t created_at,
                        const std::string& site_id = "s1") {
    SiteAuditCrawlRecord crawl;
    crawl.id = id;
    crawl.project_id = "p1";
    crawl.site_id = site_id;
    crawl.start_url = "https://example.com/";
    crawl.status = "queued";
    crawl.max_pages = 100;
    crawl.max_depth = 5;
    crawl.max_duration_s = 600;
    crawl.concurrency = 2;
    crawl.created_at = created_at;
    crawl.summary = "{}";
    return crawl;
  }
  SiteAuditPageRecord Url(const std::string& url, std::int64_t seq) {
    return {.crawl_id = "c1", .url = url, .seq = seq, .depth = 1, .source = "link",
            .state = "queued"};
  }
};

TEST_P(SiteAuditStore, SitesAreKeptPerProjectAndOncePerOrigin) {
  SiteRecord site{"s1", "p1", "https://example.com", "sl-token", std::nullopt, std::nullopt,
                       std::nullopt, "", std::string("u1"), 1000};
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.site_audit().InsertAuditSite(site); })));
  site.id = "s2";
  auto again = store().Write([&](Transaction& tx) { return tx.site_audit().InsertAuditSite(site); });
  EXPECT_TRUE(IsError(again, ErrorCode::kConflict));
  site.id = "s1";
  site.verified_method = "dns";
  site.verified_at = site.checked_at = 2000;
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) {
    return tx.site_audit().UpdateAuditSiteCheck(site);
  })));
  auto found = ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditSite("p1", "s1"); });
  ASSERT_TRUE(found);
  EXPECT_EQ(found->verified_method, "dns");
  EXPECT_EQ(found->verified_at, 2000);
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditSite("p2", "s1"); }));
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.site_audit().DeleteAuditSite("p1", "s1"); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.site_audit().ListAuditSites("p1"); })
                  .empty());
}

TEST_P(SiteAuditStore, OneNodeClaimsACrawlAndAnotherResumesItWhenTheLeaseRunsOut) {
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) {
    return tx.site_audit().InsertAuditCrawl(Crawl("c1", 1000));
  })));
  auto claim = [&](std::int64_t now) {
    return WriteOk([&](Transaction& tx) { return tx.site_audit().ClaimAuditCrawl("c1", now, now + 60000); });
  };
  EXPECT_TRUE(claim(2000));
  EXPECT_FALSE(claim(2001)) << "the first node holds it";
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.site_audit().ListDueAuditCrawls(30000, 10); })
                  .empty());
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().ListDueAuditCrawls(70000, 10); })
                .size(),
            1u);
  EXPECT_TRUE(claim(70000)) << "a dead node's crawl is claimed again";
  auto crawl = ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditCrawlById("c1"); });
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->status, "running");
  EXPECT_EQ(crawl->started_at, 2000) << "the first start is kept";
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.site_audit().RenewAuditCrawlLease("c1", 62000, 120000);
  })) << "the first node's lease is no longer the crawl's";
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.site_audit().ReleaseAuditCrawlLease("c1", 62000); }));
  EXPECT_TRUE(WriteOk([](Transaction& tx) {
    return tx.site_audit().RenewAuditCrawlLease("c1", 130000, 200000);
  })) << "the new holder renews";
  EXPECT_TRUE(
      WriteOk([](Transaction& tx) { return tx.site_audit().ReleaseAuditCrawlLease("c1", 200000); }));
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().ListDueAuditCrawls(70001, 10); }).size(),
            1u)
      << "a released crawl is due at once";
}

// Two start_site_crawl calls at once both find no active crawl; the store lets one insert.
TEST_P(SiteAuditStore, ASiteHasOneQueuedOrRunningCrawlAtATime) {
  auto insert = [&](const SiteAuditCrawlRecord& crawl) {
    return store().Write([&](Transaction& tx) { return tx.site_audit().InsertAuditCrawl(crawl); });
  };
  ASSERT_TRUE(Ok(insert(Crawl("c1", 1000))));
  EXPECT_TRUE(IsError(insert(Crawl("c2", 1001)), ErrorCode::kConflict)) << "c1 is queued";
  ASSERT_TRUE(WriteOk([](Transaction& tx) { return tx.site_audit().ClaimAuditCrawl("c1", 5, 60000); }));
  EXPECT_TRUE(IsError(insert(Crawl("c2", 1001)), ErrorCode::kConflict)) << "c1 is running";
  EXPECT_TRUE(Ok(insert(Crawl("c3", 1002, "s2")))) << "another site's crawl";
  SiteAuditCrawlRecord finished = Crawl("c1", 1000);
  finished.status = "completed";
  finished.finished_at = 2000;
  ASSERT_TRUE(WriteOk([&](Transaction& tx) { return tx.site_audit().FinishAuditCrawl(finished, 60000); }));
  EXPECT_TRUE(Ok(insert(Crawl("c2", 1001)))) << "once c1 ended";
  SiteAuditCrawlRecord done = Crawl("c4", 900);
  done.status = "cancelled";
  EXPECT_TRUE(Ok(insert(done))) << "ended crawls are not limited";
}

// A node that stalled past its lease writes nothing more to the crawl: the lease_until it wrote
// is its proof of holding, and another node's claim replaced it.
TEST_P(SiteAuditStore, OnlyTheLeaseHolderWritesToACrawlOrFinishesIt) {
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.site_audit().InsertAuditCrawl(Crawl("c1", 1)); })));
  auto holds = [&](std::int64_t held) {
    return WriteOk([&](Transaction& tx) { return tx.site_audit().HoldsAuditCrawlLease("c1", held); });
  };
  EXPECT_FALSE(holds(1000)) << "queued: nobody holds it";
  ASSERT_TRUE(WriteOk([](Transaction& tx) { return tx.site_audit().ClaimAuditCrawl("c1", 5, 1000); }));
  EXPECT_TRUE(holds(1000));
  ASSERT_TRUE(WriteOk([](Transaction& tx) { return tx.site_audit().ClaimAuditCrawl("c1", 2000, 62000); }))
      << "the lease ran out: another node takes the crawl";
  EXPECT_FALSE(holds(1000));
  EXPECT_TRUE(holds(62000));

  SiteAuditCrawlRecord finished = Crawl("c1", 1);
  finished.status = "completed";
  finished.finished_at = 3000;
  EXPECT_FALSE(WriteOk([&](Transaction& tx) { return tx.site_audit().FinishAuditCrawl(finished, 1000); }));
  auto crawl = ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditCrawlById("c1"); });
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->status, "running") << "the stalled node's finish changed nothing";
  EXPECT_TRUE(WriteOk([&](Transaction& tx) { return tx.site_audit().FinishAuditCrawl(finished, 62000); }));
  crawl = ReadOk([](Transaction& tx) { return tx.site_audit().FindAuditCrawlById("c1"); });
  ASSERT_TRUE(crawl);
  EXPECT_EQ(crawl->status, "completed");
  EXPECT_FALSE(holds(62000)) << "a finished crawl is nobody's";
}

// Migration 0021 on data stored before it: sites with several active crawls keep the running
// one (else the oldest queued), the others end cancelled, so the unique index can be made; bot
// request hosts are stored as ingestion now writes them.
TEST_P(SiteAuditStore, Migration0021SettlesDuplicateCrawlsAndNormalizesHosts) {
  const Migration* migration = nullptr;
  for (const Migration& m : AllMigrations()) {
    if (m.version == 21) migration = &m;
  }
  ASSERT_NE(migration, nullptr);
  auto script = [&](std::string_view sql) {
    return store().database().Transact(TxMode::kWrite, [&](SqlSession& session) {
      return session.ExecuteScript(sql);
    });
  };
  ASSERT_TRUE(Ok(script("DROP INDEX audit_crawls_one_active")));  // as before 0021
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) -> Result<void> {
    for (const auto& crawl : {Crawl("a1", 1000), Crawl("a2", 1001), Crawl("a3", 1002),
                              Crawl("b1", 1000, "s2"), Crawl("b2", 999, "s2"),
                              Crawl("c1", 1000, "s3")}) {
      if (auto inserted = tx.site_audit().InsertAuditCrawl(crawl); !inserted) return inserted;
    }
    if (auto claimed = tx.site_audit().ClaimAuditCrawl("a2", 5, 60000); !claimed) return claimed.error();
    std::vector<BotRequestRecord> bots;
    for (const char* host : {"WWW.Example.COM:8443", "example.com.", "[::1]:8080", "2001:db8::1",
                             "plain.example", " "}) {
      bots.push_back(MinimalBot(std::string("h") + std::to_string(bots.size()), "p1", 1000));
      bots.back().host = host;
    }
    return tx.events().InsertBotRequests(bots);
  })));
  ASSERT_TRUE(Ok(script(GetParam() == Backend::kSqlite ? migration->sqlite_sql
                                                       : migration->postgres_sql)));
  auto status = [&](const char* id) {
    auto crawl = ReadOk([&](Transaction& tx) { return tx.site_audit().FindAuditCrawlById(id); });
    return crawl ? crawl->status : std::string("missing");
  };
  EXPECT_EQ(status("a1"), "cancelled");
  EXPECT_EQ(status("a2"), "running") << "a running crawl is kept over older queued ones";
  EXPECT_EQ(status("a3"), "cancelled");
  EXPECT_EQ(status("b1"), "cancelled");
  EXPECT_EQ(status("b2"), "queued") << "else the oldest";
  EXPECT_EQ(status("c1"), "queued");
  EXPECT_TRUE(IsError(store().Write([&](Transaction& tx) {
                return tx.site_audit().InsertAuditCrawl(Crawl("c2", 2000, "s3"));
              }),
              ErrorCode::kConflict))
      << "the index exists";
  std::vector<std::string> hosts;
  for (const auto& row : ReadOk([](Transaction& tx) {
         return tx.events().ListRecentBotRequests("p1", 10);
       })) {
    hosts.push_back(row.host.value_or("(null)"));
  }
  std::sort(hosts.begin(), hosts.end());
  EXPECT_EQ(hosts, (std::vector<std::string>{"(null)", "2001:db8::1", "[::1]", "example.com",
                                             "plain.example", "www.example.com"}));
}

TEST_P(SiteAuditStore, CancelStopsAQueuedCrawlAtOnceAndAsksARunningOneToStop) {
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) -> Result<void> {
    if (auto a = tx.site_audit().InsertAuditCrawl(Crawl("c1", 1000)); !a) return a;
    return tx.site_audit().InsertAuditCrawl(Crawl("c2", 1001, "s2"));
  })));
  ASSERT_TRUE(WriteOk([](Transaction& tx) { return tx.site_audit().ClaimAuditCrawl("c2", 5, 60000); }));
  auto queued = WriteOk([](Transaction& tx) { return tx.site_audit().CancelAuditCrawl("p1", "c1", 7); });
  ASSERT_TRUE(queued);
  EXPECT_EQ(queued->status, "cancelled");
  auto running = WriteOk([](Transaction& tx) { return tx.site_audit().CancelAuditCrawl("p1", "c2", 7); });
  ASSERT_TRUE(running);
  EXPECT_EQ(running->status, "running");
  EXPECT_TRUE(running->cancel_requested);
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.site_audit().RenewAuditCrawlLease("c2", 60000, 60009);
  })) << "the crawling node learns it from its next renewal";
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.site_audit().CancelAuditCrawl("p2", "c2", 7); }))
      << "another project's crawl is not found";
}

TEST_P(SiteAuditStore, UrlsAreAddedOnceAndPagesKeepTheirFacts) {
  std::vector<SiteAuditPageRecord> urls = {Url("https://example.com/", 1),
                                       Url("https://example.com/a", 2)};
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) { return tx.site_audit().AddAuditUrls(urls); })));
  urls = {Url("https://example.com/a", 9), Url("https://example.com/b", 3)};
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) { return tx.site_audit().AddAuditUrls(urls); })));
  auto queued = ReadOk([](Transaction& tx) { return tx.site_audit().ListQueuedAuditUrls("c1", 10); });
  ASSERT_EQ(queued.size(), 3u);
  EXPECT_EQ(queued[1].url, "https://example.com/a");
  EXPECT_EQ(queued[1].seq, 2) << "the first discovery stands";
  SiteAuditPageRecord page = queued[0];
  page.state = "done";
  page.http_status = 200;
  page.title = "Home";
  page.indexable = true;
  page.etag = "\"v1\"";
  page.details = R"({"titles":["Home"]})";
  const std::vector<std::string> in_sitemap = {"https://example.com/"};
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) -> Result<void> {
    if (auto saved = tx.site_audit().SaveAuditPage(page); !saved) return saved;
    return tx.site_audit().MarkInSitemap("c1", in_sitemap);
  })));
  auto found = ReadOk([](Transaction& tx) {
    return tx.site_audit().FindAuditPage("c1", "https://example.com/");
  });
  ASSERT_TRUE(found);
  EXPECT_EQ(found->http_status, 200);
  EXPECT_EQ(found->etag, "\"v1\"");
  EXPECT_TRUE(found->in_sitemap);
  EXPECT_EQ(found->details, R"({"titles":["Home"]})");
  auto counts = ReadOk([](Transaction& tx) { return tx.site_audit().CountAuditPages("c1"); });
  EXPECT_EQ(counts.total, 3);
  EXPECT_EQ(counts.done, 1);
  EXPECT_EQ(counts.queued, 2);
  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.site_audit().SkipQueuedAuditUrls("c1"); }), 2);
  SiteAuditRepository::PageFilter filter;
  filter.search = "example.com/b";
  auto matching = ReadOk([&](Transaction& tx) { return tx.site_audit().ListAuditPages("c1", filter); });
  ASSERT_EQ(matching.size(), 1u);
  EXPECT_EQ(matching[0].state, "skipped");
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().NextAuditSeq("c1"); }), 4);
}

TEST_P(SiteAuditStore, IssuesAreReplacedFilteredAndCounted) {
  std::vector<SiteAuditIssueRecord> issues = {
      {"c1", "p1", "title/missing", "https://example.com/a", "error", "{}", "new"},
      {"c1", "p1", "images/missing-alt", "https://example.com/a", "warning", "{}", "open"},
      {"c1", "p1", "images/missing-alt", "https://example.com/b", "warning", "{}", "new"},
      {"c1", "p1", "ai/llms-txt-missing", "", "notice", "{}", "new"}};
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) { return tx.site_audit().ReplaceAuditIssues("c1", issues); })));
  auto all = ReadOk([](Transaction& tx) { return tx.site_audit().ListAuditIssues("c1", {}); });
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].severity, "error") << "errors first";
  EXPECT_EQ(all[3].severity, "notice");
  SiteAuditRepository::IssueFilter warnings;
  warnings.severity = "warning";
  warnings.state = "new";
  auto fresh = ReadOk([&](Transaction& tx) { return tx.site_audit().ListAuditIssues("c1", warnings); });
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh[0].url, "https://example.com/b");
  auto counts = ReadOk([](Transaction& tx) { return tx.site_audit().CountAuditIssues("c1"); });
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[1].rule_id, "images/missing-alt");
  EXPECT_EQ(counts[1].count, 2);
  EXPECT_EQ(counts[1].new_count, 1);
  issues.resize(1);
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) { return tx.site_audit().ReplaceAuditIssues("c1", issues); })));
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().ListAllAuditIssues("c1"); }).size(), 1u);
}

TEST_P(SiteAuditStore, RobotsFilesAndCrawlerKeysAreKept) {
  ASSERT_TRUE(Ok(store().Write([](Transaction& tx) {
    return tx.site_audit().SaveRobotsCache({"https://example.com", 10, 200, "User-agent: *"});
  })));
  ASSERT_TRUE(Ok(store().Write([](Transaction& tx) {
    return tx.site_audit().SaveRobotsCache({"https://example.com", 20, 503, ""});
  })));
  auto robots = ReadOk([](Transaction& tx) { return tx.site_audit().FindRobotsCache("https://example.com"); });
  ASSERT_TRUE(robots);
  EXPECT_EQ(robots->http_status, 503);
  EXPECT_EQ(robots->fetched_at, 20);
  ASSERT_TRUE(Ok(store().Write([](Transaction& tx) -> Result<void> {
    if (auto a = tx.site_audit().InsertCrawlerKey({"k1", "seed1", true, "pub1", 1, std::nullopt}); !a) return a;
    if (auto b = tx.site_audit().InsertCrawlerKey({"k2", "seed2", true, "pub2", 2, std::nullopt}); !b) return b;
    return tx.site_audit().RetireCrawlerKeys("k2", 3);
  })));
  auto keys = ReadOk([](Transaction& tx) { return tx.site_audit().ListCrawlerKeys(); });
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].id, "k2");
  EXPECT_FALSE(keys[0].retired_at);
  EXPECT_EQ(keys[1].retired_at, 3);
  ASSERT_TRUE(Ok(store().Write([](Transaction& tx) { return tx.site_audit().DeleteCrawlerKeysRetiredBefore(4); })));
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.site_audit().ListCrawlerKeys(); }).size(), 1u);
}

BotRequestRecord TrafficBot(std::string id, std::string project, std::int64_t at,
                            std::optional<std::string> name, std::string actor_type,
                            std::optional<std::string> path,
                            std::optional<std::string> host = "example.com") {
  BotRequestRecord b = MinimalBot(std::move(id), std::move(project), at);
  b.host = std::move(host);
  b.bot_name = std::move(name);
  b.actor_type = std::move(actor_type);
  b.path = std::move(path);
  return b;
}

using TrafficRow = std::tuple<std::string, std::string, std::string, std::int64_t, bool>;

std::vector<TrafficRow> Tuples(const std::vector<SiteBotTrafficRow>& rows) {
  std::vector<TrafficRow> out;
  for (const SiteBotTrafficRow& r : rows) {
    out.emplace_back(r.bot_name, r.classification, r.path, r.requests, r.other_paths);
  }
  return out;
}

TEST_P(SiteAuditStore, BotTrafficIsCountedByBotOutcomeAndPathWithTheTailFolded) {
  std::vector<BotRequestRecord> rows = {
      TrafficBot("g1", "p1", 1000, "GPTBot", "verified_bot", "/a"),
      TrafficBot("g2", "p1", 1100, "GPTBot", "verified_bot", "/a"),
      TrafficBot("g3", "p1", 1999, "GPTBot", "verified_bot", "/a"),
      TrafficBot("g4", "p1", 1200, "GPTBot", "spoofed_bot", "/a"),
      TrafficBot("g5", "p1", 1300, "GPTBot", "verified_bot", "/b"),
      TrafficBot("g6", "p1", 1301, "GPTBot", "verified_bot", "/b"),
      TrafficBot("g7", "p1", 1400, "GPTBot", "suspected_bot", "/c"),
      TrafficBot("g8", "p1", 1500, "GPTBot", "verified_bot", std::nullopt),
      TrafficBot("c1", "p1", 1600, "ClaudeBot", "verified_bot", "/a?x=1", "www.example.com"),
      // Left out: outside [1000, 2000), unnamed, not a bot outcome, another project's, another
      // host's (a subdomain is another site), no host.
      TrafficBot("x1", "p1", 999, "GPTBot", "verified_bot", "/a"),
      TrafficBot("x2", "p1", 2000, "GPTBot", "verified_bot", "/a"),
      TrafficBot("x3", "p1", 1500, std::nullopt, "suspected_bot", "/a"),
      TrafficBot("x4", "p1", 1500, "", "suspected_bot", "/a"),
      TrafficBot("x5", "p1", 1500, "GPTBot", "human", "/a"),
      TrafficBot("x6", "p1", 1500, "GPTBot", "unknown", "/a"),
      TrafficBot("x7", "p2", 1500, "GPTBot", "verified_bot", "/a"),
      TrafficBot("x8", "p1", 1500, "GPTBot", "verified_bot", "/a", "other.example"),
      TrafficBot("x9", "p1", 1500, "GPTBot", "verified_bot", "/a", "blog.example.com"),
      TrafficBot("x10", "p1", 1500, "GPTBot", "verified_bot", "/a", std::nullopt),
  };
  ASSERT_TRUE(Ok(store().Write([&](Transaction& tx) { return tx.events().InsertBotRequests(rows); })));
  auto traffic = [&](std::int64_t paths_per_bot) {
    return Tuples(ReadOk([&](Transaction& tx) {
      return tx.site_audit().BotTrafficByPath("p1", "example.com", 1000, 2000, paths_per_bot);
    }));
  };
  // GPTBot's paths by requests: /a 4, /b 2, then "" (no path) and /c 1 each.
  EXPECT_EQ(traffic(10), (std::vector<TrafficRow>{
                             {"ClaudeBot", "verified", "/a?x=1", 1, false},
                             {"GPTBot", "verified", "/a", 3, false},
                             {"GPTBot", "verified", "/b", 2, false},
                             {"GPTBot", "verified", "", 1, false},
                             {"GPTBot", "spoofed", "/a", 1, false},
                             {"GPTBot", "suspected", "/c", 1, false},
                         }));
  EXPECT_EQ(traffic(2), (std::vector<TrafficRow>{
                            {"ClaudeBot", "verified", "/a?x=1", 1, false},
                            {"GPTBot", "verified", "/a", 3, false},
                            {"GPTBot", "verified", "/b", 2, false},
                            {"GPTBot", "spoofed", "/a", 1, false},
                            {"GPTBot", "suspected", "", 1, true},
                            {"GPTBot", "verified", "", 1, true},
                        }))
      << "the paths past the first two fold into one row per outcome";
  EXPECT_TRUE(Tuples(ReadOk([](Transaction& tx) {
                return tx.site_audit().BotTrafficByPath("p1", "example.com", 2000, 3000, 2);
              })).size() == 1u)
      << "only x2 at 2000";
  EXPECT_TRUE(ReadOk([](Transaction& tx) {
                return tx.site_audit().BotTrafficByPath("p3", "example.com", 0, 5000, 2);
              }).empty());
  EXPECT_EQ(Tuples(ReadOk([](Transaction& tx) {
              return tx.site_audit().BotTrafficByPath("p1", "other.example", 1000, 2000, 10);
            })),
            (std::vector<TrafficRow>{{"GPTBot", "verified", "/a", 1, false}}))
      << "another site of the project sees its own requests only";
}

INSTANTIATE_TEST_SUITE_P(Sqlite, SiteAuditStore, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, SiteAuditStore, testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::storage
