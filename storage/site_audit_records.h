// The rows of site audit (storage/site_audit_repository.h): sites and their ownership proofs, crawls,
// the URLs and pages of a crawl, links, issues, cached robots.txt files, the crawler's keys and the
// crawler traffic the robots-vs-traffic report reads. Plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sightline::storage {

struct SiteRecord {
  std::string id;
  std::string project_id;
  std::string origin;  // "https://example.com" (scheme, host, port when not the default)
  std::string token;   // what the owner publishes to prove ownership
  std::optional<std::string> verified_method;  // "file", "meta" or "dns"; nullopt until proven
  std::optional<std::int64_t> verified_at;
  std::optional<std::int64_t> checked_at;
  std::string check_problem;  // why the last check failed, "" when it passed or never ran
  std::optional<std::string> created_by;
  std::int64_t created_at = 0;
};

struct SiteAuditCrawlRecord {
  std::string id;
  std::string project_id;
  std::string site_id;
  std::string start_url;
  std::string status;  // queued, running, completed, failed, cancelled
  std::int64_t max_pages = 0, max_depth = 0, max_duration_s = 0, concurrency = 1, delay_ms = 0;
  std::optional<std::string> created_by;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> started_at, finished_at;
  std::int64_t lease_until = 0;
  bool cancel_requested = false;
  std::string stop_reason;    // why a completed crawl stopped: "", page_limit, duration_limit
  std::string error_message;  // why a failed crawl failed
  std::optional<std::string> previous_crawl_id;  // the site's crawl its issues are compared with
  std::string summary;  // JSON: robots, sitemaps, llms.txt, HTTPS, counts (site_audit/crawl_summary)
};

// A URL the crawl met: queued until fetched, then its page.
struct SiteAuditPageRecord {
  std::string crawl_id;
  std::string url;
  std::int64_t seq = 0;    // discovery order
  std::int64_t depth = 0;  // clicks from the start URL (sitemap-only URLs: depth 0 of their own)
  std::string source;      // start, link, sitemap, redirect
  bool internal = true;    // on the audited site; external URLs are only checked for their status
  bool in_sitemap = false;
  std::string state;       // queued, done, blocked (robots.txt), error, skipped
  std::optional<std::int64_t> http_status;
  std::string content_type;
  std::int64_t bytes = 0;
  std::int64_t ttfb_ms = 0;
  std::string title;
  bool indexable = false;
  std::string etag, last_modified, content_hash;
  std::optional<std::int64_t> fetched_at;
  std::string details = "{}";  // JSON facts (site_audit/page_facts)
};

struct SiteAuditLinkRecord {
  std::string crawl_id;
  std::string from_url;
  std::string to_url;
  std::string anchor;
  bool nofollow = false;
};

struct SiteAuditIssueRecord {
  std::string crawl_id;
  std::string project_id;
  std::string rule_id;
  std::string url;  // the affected URL ("" for a site-wide issue)
  std::string severity;  // error, warning, notice
  std::string evidence = "{}";  // JSON
  std::string state;     // new, open
};

struct SiteAuditIssueCount {
  std::string rule_id;
  std::string severity;
  std::int64_t count = 0;
  std::int64_t new_count = 0;
};

struct SiteAuditPageCounts {
  std::int64_t total = 0, queued = 0, done = 0, blocked = 0, error = 0, skipped = 0;
};

struct RobotsCacheRecord {
  std::string origin;
  std::int64_t fetched_at = 0;
  std::int64_t http_status = 0;  // 0: unreachable
  std::string body;
};

// The crawler requests of one bot, verification outcome and path in a time window
// (SiteAuditRepository::BotTrafficByPath): what robots.txt is set against in the robots-vs-traffic
// report.
struct SiteBotTrafficRow {
  std::string bot_name;        // as the bot catalog or User-Agent rules named it ("GPTBot")
  std::string classification;  // verified, spoofed or suspected
  std::string path;            // path and query as stored; "" when unknown or `other_paths`
  std::int64_t requests = 0;
  bool other_paths = false;    // the bot's requests to the paths past the per-bot bound, folded
};

struct CrawlerKeyRecord {
  std::string id;  // the key's RFC 7638 thumbprint
  std::string seed;  // base64; sealed when `sealed`
  bool sealed = false;
  std::string public_key;  // base64url of the 32 raw bytes
  std::int64_t created_at = 0;
  std::optional<std::int64_t> retired_at;
};

}  // namespace sightline::storage
