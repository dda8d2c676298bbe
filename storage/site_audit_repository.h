// Site audit: the sites a project proved it owns, ServiceAuditBot's crawls (queued work that one
// node claims with a lease and renews while it crawls), the URLs and pages of each crawl, their
// links, the issues found, cached robots.txt files, the crawler's signing keys, and the crawler
// traffic the robots-vs-traffic report sets against robots.txt. Reached from a
// Transaction (`tx.site_audit()`); lives for one transaction and is used by one thread. Lookups return
// nullopt for "not there"; a unique-key clash is ErrorCode::kConflict.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "storage/site_audit_records.h"
#include "storage/keyset.h"

namespace sightline::storage {

class SqlSession;

class SiteAuditRepository {
 public:
  explicit SiteAuditRepository(SqlSession& session) : session_(session) {}

  // Sites (storage/site_audit_repository.cpp), in creation order.
  // Oldest first (created_at, then id); one page with `page`.
  core::Result<std::vector<SiteRecord>> ListAuditSites(std::string_view project_id,
                                                            const KeysetPage& page = {});
  core::Result<std::optional<SiteRecord>> FindAuditSite(std::string_view project_id,
                                                             std::string_view site_id);
  core::Result<void> InsertAuditSite(const SiteRecord& site);
  // Saves the outcome of an ownership check (verified_method, verified_at, checked_at, problem).
  core::Result<void> UpdateAuditSiteCheck(const SiteRecord& site);
  // With its crawls, pages, links and issues; whether it existed.
  core::Result<bool> DeleteAuditSite(std::string_view project_id, std::string_view site_id);

  // Crawls (storage/site_audit_repository_crawls.cpp).
  core::Result<void> InsertAuditCrawl(const SiteAuditCrawlRecord& crawl);
  core::Result<std::optional<SiteAuditCrawlRecord>> FindAuditCrawl(std::string_view project_id,
                                                               std::string_view crawl_id);
  core::Result<std::optional<SiteAuditCrawlRecord>> FindAuditCrawlById(std::string_view crawl_id);
  // Newest first; only the site's when `site_id` is not empty.
  // Newest first; `before` (created_at, id) is the keyset of the previous page's last crawl.
  core::Result<std::vector<SiteAuditCrawlRecord>> ListAuditCrawls(std::string_view project_id,
                                                              std::string_view site_id,
                                                              std::int64_t limit,
                                                              std::int64_t offset,
      const std::optional<std::pair<std::int64_t, std::string>>& before = std::nullopt);
  // The site's newest completed crawl created before `before`.
  core::Result<std::optional<SiteAuditCrawlRecord>> FindLastCompletedCrawl(std::string_view site_id,
                                                                       std::int64_t before);
  // Whether the site has a queued or running crawl.
  core::Result<bool> HasActiveAuditCrawl(std::string_view site_id);
  // Crawls due at `now`: queued ones, and running ones whose lease ran out (their node died).
  core::Result<std::vector<SiteAuditCrawlRecord>> ListDueAuditCrawls(std::int64_t now,
                                                                 std::int64_t limit);
  // Takes the crawl until `lease_until` unless another node holds it; whether this call did.
  core::Result<bool> ClaimAuditCrawl(std::string_view crawl_id, std::int64_t now,
                                     std::int64_t lease_until);
  // Moves a running crawl's lease from `held` to `lease_until` (jobs::LeaseStore::Renew); false
  // when another node claimed it since, it is no longer running, or a cancel was asked.
  core::Result<bool> RenewAuditCrawlLease(std::string_view crawl_id, std::int64_t held,
                                          std::int64_t lease_until);
  // Gives a held lease up (lease_until 0: due at once, still running); whether it was held.
  core::Result<bool> ReleaseAuditCrawlLease(std::string_view crawl_id, std::int64_t held);
  // A queued crawl becomes cancelled at once; a running one is asked to stop (its node marks it
  // cancelled). The crawl as it is afterwards, nullopt when not found.
  core::Result<std::optional<SiteAuditCrawlRecord>> CancelAuditCrawl(std::string_view project_id,
                                                                 std::string_view crawl_id,
                                                                 std::int64_t now);
  // Whether this node still holds the running crawl's lease (`held`, the lease_until it wrote).
  // Inside a write, it also locks the crawl's row until the commit, so another node's claim
  // waits and then sees the write: a node that stalled past its lease writes nothing more.
  core::Result<bool> HoldsAuditCrawlLease(std::string_view crawl_id, std::int64_t held);
  // Ends a crawl whose lease is `held`: status, stop reason or error, summary and finish time;
  // false (nothing written) when another node took it over.
  core::Result<bool> FinishAuditCrawl(const SiteAuditCrawlRecord& crawl, std::int64_t held);
  core::Result<void> SaveAuditCrawlSummary(std::string_view crawl_id, std::string_view summary);

  // URLs and pages (storage/site_audit_repository_pages.cpp).
  // Adds URLs not yet in the crawl (queued); those already there are left alone.
  core::Result<void> AddAuditUrls(std::span<const SiteAuditPageRecord> pages);
  core::Result<void> MarkInSitemap(std::string_view crawl_id, std::span<const std::string> urls);
  // A queued URL's click depth and source (a sitemap-only URL a link reached).
  core::Result<void> SetAuditUrlDepth(const SiteAuditPageRecord& page);
  // Stores a fetched (or blocked, failed, skipped) URL's outcome.
  core::Result<void> SaveAuditPage(const SiteAuditPageRecord& page);
  core::Result<std::optional<SiteAuditPageRecord>> FindAuditPage(std::string_view crawl_id,
                                                             std::string_view url);
  // Queued URLs in discovery order.
  core::Result<std::vector<SiteAuditPageRecord>> ListQueuedAuditUrls(std::string_view crawl_id,
                                                                 std::int64_t limit);
  // Every URL of the crawl, in discovery order (the checks read them all).
  core::Result<std::vector<SiteAuditPageRecord>> ListAllAuditPages(std::string_view crawl_id);
  struct PageFilter {
    std::string state;      // "" any
    bool internal = true;  // the site's pages; false: the external URLs checked
    std::string search;     // substring of the URL
    std::int64_t limit = 50, offset = 0;
    // Keyset: the (seq, url) of the previous page's last page; pages come in discovery order.
    std::optional<std::pair<std::int64_t, std::string>> after;
  };
  core::Result<std::vector<SiteAuditPageRecord>> ListAuditPages(std::string_view crawl_id,
                                                            const PageFilter& filter);
  core::Result<SiteAuditPageCounts> CountAuditPages(std::string_view crawl_id);
  core::Result<std::int64_t> NextAuditSeq(std::string_view crawl_id);
  // Marks every still-queued URL skipped (a limit was reached); how many.
  core::Result<std::int64_t> SkipQueuedAuditUrls(std::string_view crawl_id);

  core::Result<void> InsertAuditLinks(std::span<const SiteAuditLinkRecord> links);
  core::Result<std::vector<SiteAuditLinkRecord>> ListAuditLinksFrom(std::string_view crawl_id,
                                                                std::string_view from_url);
  core::Result<std::vector<SiteAuditLinkRecord>> ListAuditLinksTo(std::string_view crawl_id,
                                                              std::string_view to_url,
                                                              std::int64_t limit);
  core::Result<std::vector<SiteAuditLinkRecord>> ListAllAuditLinks(std::string_view crawl_id);

  // Issues (storage/site_audit_repository_pages.cpp).
  core::Result<void> ReplaceAuditIssues(std::string_view crawl_id,
                                        std::span<const SiteAuditIssueRecord> issues);
  struct IssueFilter {
    std::string rule_id, severity, url, state;  // "" any
    std::int64_t limit = 100, offset = 0;
    // Keyset: the previous page's last issue, as the list orders issues (severity rank: 0
    // errors, 1 warnings, 2 notices; then rule and URL).
    struct Position {
      std::int64_t severity_rank;
      std::string rule_id, url;
    };
    std::optional<Position> after;
  };
  core::Result<std::vector<SiteAuditIssueRecord>> ListAuditIssues(std::string_view crawl_id,
                                                              const IssueFilter& filter);
  core::Result<std::vector<SiteAuditIssueRecord>> ListAllAuditIssues(std::string_view crawl_id);
  core::Result<std::vector<SiteAuditIssueCount>> CountAuditIssues(std::string_view crawl_id);

  // robots.txt files fetched, by origin.
  core::Result<std::optional<RobotsCacheRecord>> FindRobotsCache(std::string_view origin);
  core::Result<void> SaveRobotsCache(const RobotsCacheRecord& robots);

  // Crawler traffic (storage/site_audit_repository_traffic.cpp): the project's named bot requests
  // (bot_requests rows with a bot name, verified, spoofed or suspected) to the site's host
  // (`site_host` as core::SiteHost gives it: rows whose stored, normalized host is it or it
  // with "www."; rows without a host are nobody's) occurred in [from_ms, to_ms), counted by bot name, classification and path (path and query as stored).
  // Bounded: per bot, only its `paths_per_bot` most requested paths (by requests over every
  // classification, ties by path) keep rows of their own; the rest of its requests come folded
  // into one `other_paths` row per classification, so per-bot totals stay exact. At most
  // 3 × (paths_per_bot + 1) rows per bot. Ordered by bot name, then folded rows last, then
  // requests descending, path, classification. One scan of the window by (project_id,
  // occurred_at). A `paths_per_bot` below 1 counts as 1.
  core::Result<std::vector<SiteBotTrafficRow>> BotTrafficByPath(std::string_view project_id,
                                                                 std::string_view site_host,
                                                                 std::int64_t from_ms,
                                                                 std::int64_t to_ms,
                                                                 std::int64_t paths_per_bot);

  // The crawler's keys, newest first; retired ones stay published for a while.
  core::Result<std::vector<CrawlerKeyRecord>> ListCrawlerKeys();
  core::Result<void> InsertCrawlerKey(const CrawlerKeyRecord& key);
  // Retires every current key but `keep_id`.
  core::Result<void> RetireCrawlerKeys(std::string_view keep_id, std::int64_t at);
  // Forgets keys retired before `before`.
  core::Result<void> DeleteCrawlerKeysRetiredBefore(std::int64_t before);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
