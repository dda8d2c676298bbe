// Site audit's view of the crawler analytics: the project's named bot requests by bot,
// verification outcome and path, which the robots-vs-traffic report (site_audit/robots_traffic) sets
// against robots.txt. Written once for both backends.
#include "storage/site_audit_repository.h"

#include <algorithm>

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;

// "verified_bot" -> "verified"; the query only reads the three bot outcomes.
std::string Classification(std::string actor_type) {
  constexpr std::string_view kSuffix = "_bot";
  if (actor_type.size() > kSuffix.size() &&
      actor_type.compare(actor_type.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
    actor_type.resize(actor_type.size() - kSuffix.size());
  }
  return actor_type;
}

// Counts per (bot, outcome, path), then ranks each bot's paths by their requests over every
// outcome (DENSE_RANK over distinct paths with a path tie-break numbers them 1, 2, 3, …): the
// first $4 keep their rows, the others fold into one row per bot and outcome. SUM over BIGINT
// is NUMERIC on PostgreSQL; SqlRow::Int reads either.
constexpr std::string_view kTrafficByPath =
    "WITH counted AS ("
    "SELECT bot_name, actor_type, COALESCE(path, '') AS path, COUNT(*) AS requests "
    "FROM bot_requests WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3 "
    "AND host IN ($5, $6) AND bot_name IS NOT NULL AND bot_name <> '' "
    "AND actor_type IN ('verified_bot', 'spoofed_bot', 'suspected_bot') "
    "GROUP BY bot_name, actor_type, COALESCE(path, '')), "
    "ranked AS ("
    "SELECT bot_name, actor_type, path, requests, "
    "DENSE_RANK() OVER (PARTITION BY bot_name ORDER BY path_requests DESC, path) AS path_rank "
    "FROM (SELECT bot_name, actor_type, path, requests, "
    "SUM(requests) OVER (PARTITION BY bot_name, path) AS path_requests FROM counted) AS totals) "
    "SELECT bot_name, actor_type, path, requests, 0 AS other_paths FROM ranked "
    "WHERE path_rank <= $4 "
    "UNION ALL "
    "SELECT bot_name, actor_type, '', SUM(requests), 1 FROM ranked WHERE path_rank > $4 "
    "GROUP BY bot_name, actor_type "
    "ORDER BY 1, 5, 4 DESC, 3, 2";

}  // namespace

Result<std::vector<SiteBotTrafficRow>> SiteAuditRepository::BotTrafficByPath(
    std::string_view project_id, std::string_view site_host, std::int64_t from_ms,
    std::int64_t to_ms, std::int64_t paths_per_bot) {
  // Hosts are stored normalized (ingest), so two equalities find both spellings of the site.
  const std::string host(site_host);
  return internal::FindAll<SiteBotTrafficRow>(
      session_, kTrafficByPath,
      {std::string(project_id), from_ms, to_ms, std::max<std::int64_t>(paths_per_bot, 1), host,
       "www." + host},
      [](const SqlRow& r) {
        return SiteBotTrafficRow{r.Text(0), Classification(r.Text(1)), r.Text(2), r.Int(3),
                                  r.Bool(4)};
      });
}

}  // namespace sightline::storage
