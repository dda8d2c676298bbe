// The files a crawl reads about a whole site before its pages: robots.txt (RFC 9309: up to five
// redirects, 4xx = allow all, 5xx or unreachable = disallow all, kept at most 24 h in the store),
// the sitemaps it lists and those at the usual places (indexes followed, gzip undone, 50,000 URLs
// and 50 MB per file), and llms.txt. Functions over a PageFetcher; thread-safe as it is.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "site_audit/llms_txt.h"
#include "site_audit/robots_txt.h"

namespace sightline::core {
class Clock;
}
namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

class PageFetcher;
using Cancelled = std::function<bool()>;

struct RobotsFetch {
  std::string url;        // <origin>/robots.txt
  int status = 0;         // of the last answer; 0 when unreachable
  int redirects = 0;
  std::string error;      // why it was unreachable
  std::string body;       // what was parsed (at most 512,000 bytes)
  std::string policy;     // "rules" (2xx), "allow_all" (4xx, too many redirects), "disallow_all"
  bool from_cache = false;
  std::int64_t fetched_at = 0;
  RobotsTxt rules;
};

// The robots.txt of `origin`, from the store when fetched less than 24 h ago.
RobotsFetch LoadRobots(const PageFetcher& fetcher, storage::Store& store, const core::Clock& clock,
                       std::string_view origin, const Cancelled& cancelled);

struct SitemapFile {
  std::string url;
  int status = 0;
  std::string kind;  // urlset, index, text, invalid, unreachable
  bool listed_in_robots = false;
  std::int64_t urls = 0;
  std::vector<std::string> problems;
};

struct SitemapHarvest {
  std::vector<SitemapFile> files;
  std::vector<std::string> page_urls;  // normalized, unique, on the audited site
  bool truncated = false;              // more than kMaxSitemapPageUrls in all
};
inline constexpr std::size_t kMaxSitemapPageUrls = 50000;
inline constexpr std::size_t kMaxSitemapFiles = 50;

// The sitemaps `robots` lists plus /sitemap.xml and /sitemap_index.xml of `origin` (those not
// listed only when robots.txt allows ServiceAuditBot to fetch them), indexes followed one level.
SitemapHarvest LoadSitemaps(const PageFetcher& fetcher, const RobotsFetch& robots,
                            std::string_view origin, const Cancelled& cancelled);

struct LlmsTxtFetch {
  std::string url;
  int status = 0;
  bool present = false;  // a 2xx answer that is not an HTML page
  LlmsTxtReport report;
};
LlmsTxtFetch LoadLlmsTxt(const PageFetcher& fetcher, std::string_view origin,
                         const Cancelled& cancelled);

}  // namespace sightline::site_audit
