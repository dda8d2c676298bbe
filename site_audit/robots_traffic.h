// The robots-vs-traffic report, the one only Sightline can make: a site's robots.txt set against
// the crawler requests the same project's analytics observed. Per crawler: its access at "/",
// what it fetched in the period by verification outcome, how much of that went to paths the
// rules disallow for it (and which), the previous period's same figures, and one sentence
// ("GPTBot is disallowed and still fetched 412 pages (380 verified, 32 spoofed).").
// Pure functions over plain values; thread-safe.
//
// Traffic rows (storage::SiteBotTrafficRow, from SiteAuditRepository::BotTrafficByPath) are matched
// to crawlers by product token, case-insensitively: the bot name up to a '/' or whitespace
// ("gptbot", "GPTBot/1.1" and "GPTBot" are one crawler). A row's path is checked as robots.txt
// sees it (RobotsTxt::Check: path and query, percent-escapes normalized); an absolute URL counts
// as its path and query. Rows that cannot be checked — no path, a path that is neither
// "/…" nor an http(s) URL, or the storage's folded `other_paths` rows — count in the crawler's
// requests and in `unchecked`, never as disallowed; so with `unchecked` > 0 the disallowed
// figures are lower bounds.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "site_audit/ai_usage.h"
#include "site_audit/robots_txt.h"
#include "storage/site_audit_records.h"

namespace sightline::site_audit {

// The per-bot path bound to ask SiteAuditRepository::BotTrafficByPath for: a bot's 200 most
// requested paths are checked one by one, the rest of its requests counted as unchecked.
inline constexpr std::int64_t kRobotsTrafficPathsPerBot = 200;
// How many disallowed paths a crawler's figures list, and how many the report-wide list keeps.
inline constexpr std::size_t kRobotsTrafficTopPaths = 10;
inline constexpr std::size_t kRobotsTrafficBlockedPaths = 25;

// Requests by verification outcome; `total` also holds any outcome other than the three.
struct TrafficCounts {
  std::int64_t total = 0, verified = 0, spoofed = 0, suspected = 0;
};

// A disallowed path a crawler fetched, with the rule that disallows it.
struct DisallowedPathHits {
  std::string path;  // as stored
  TrafficCounts requests;
  std::string rule;  // "Disallow: /private/" (RobotsVerdict::rule)
  int line = 0;
};

struct CrawlerTrafficFigures {
  TrafficCounts requests;      // every request in the period
  TrafficCounts disallowed;    // those to paths robots.txt disallows for the crawler
  std::int64_t unchecked = 0;  // requests whose path could not be checked (see above)
  std::vector<DisallowedPathHits> top_disallowed;  // most requested first (ties by path), at
                                                   // most kRobotsTrafficTopPaths
};

struct CrawlerTrafficVerdict {
  std::string name;     // the AiCrawler's name; for an unlisted crawler, its name in traffic
  std::string purpose;  // training, search, user_fetch; "" for an unlisted crawler
  bool listed = true;   // false: not in the AI crawler list, but a robots.txt group names it
  CrawlAccess access = CrawlAccess::kAllowed;  // as SiteAiUsage reports it
  RobotsVerdict root;                          // the verdict for "/"
  CrawlerTrafficFigures current;
  std::optional<CrawlerTrafficFigures> previous;  // nullopt without a previous period
  std::string statement;  // one plain-English sentence, with the comparison when there is one
};

// A disallowed path the report's crawlers fetched, summed over them.
struct BlockedPathHits {
  std::string path;
  TrafficCounts requests;
  std::vector<std::string> crawlers;  // who fetched it, most requests first (ties by name)
};

struct RobotsTrafficReport {
  // The listed crawlers in input order (a repeated product token only once), then the unlisted
  // crawlers seen in either period whose product token a robots.txt group (not `*`) names, most
  // current requests first, ties by name.
  std::vector<CrawlerTrafficVerdict> crawlers;
  // The disallowed paths of the current period, most requested first (ties by path), at most
  // kRobotsTrafficBlockedPaths.
  std::vector<BlockedPathHits> blocked_paths;
  // Over every crawler of the report.
  TrafficCounts requests, disallowed;
  std::optional<TrafficCounts> previous_requests, previous_disallowed;
};

// Sets `robots` against the traffic of the current period and, when given, of the previous one.
RobotsTrafficReport CompareRobotsWithTraffic(
    const RobotsTxt& robots, const std::vector<AiCrawler>& crawlers,
    std::span<const storage::SiteBotTrafficRow> current,
    std::optional<std::span<const storage::SiteBotTrafficRow>> previous);

// The report as the operation returns it (camelCase keys):
// {"crawlers": [{"name", "purpose", "listed", "access": "allowed"|"partial"|"disallowed",
//   "root": {"allowed", "rule", "line", "group"}, "statement",
//   "current": Figures, "previous": Figures|null,
//   "change": {"requests": Change, "disallowedRequests": Change}|null}],
//  "blockedPaths": [{"path", "requests": Counts, "crawlers": [name…]}],
//  "totals": {"requests": Counts, "disallowedRequests": Counts,
//             "previousRequests": Counts|null, "previousDisallowedRequests": Counts|null}}
// Figures: {"requests": Counts, "disallowedRequests": Counts, "uncheckedRequests",
//           "topDisallowedPaths": [{"path", "requests": Counts, "rule", "line"}]}
// Counts: {"total", "verified", "spoofed", "suspected"}
// Change (of the totals): {"absoluteChange", "percentageChange": number (2 decimals)|null when
// the previous total is 0}.
boost::json::object RobotsTrafficJson(const RobotsTrafficReport& report);

}  // namespace sightline::site_audit
