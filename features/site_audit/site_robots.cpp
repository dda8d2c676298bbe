#include "features/site_audit/site_robots.h"

#include "core/clock.h"
#include "core/url.h"
#include "site_audit/robots_traffic.h"
#include "features/site_audit/views.h"
#include "site_audit/site_survey.h"
#include "storage/site_audit_repository.h"

namespace sightline::tools::site_audit {

namespace json = boost::json;

core::Result<SiteRobots> RobotsOfSite(storage::Transaction& tx, const std::string& project_id,
                                      const std::string& site_id) {
  auto crawls = tx.site_audit().ListAuditCrawls(project_id, site_id, 10, 0);
  if (!crawls) return crawls.error();
  for (const auto& crawl : *crawls) {
    json::object summary = SiteAuditSummaryOf(crawl);
    const json::value* site = summary.if_contains("site");
    if (!site || !site->is_object() || !site->as_object().contains("robots")) continue;
    const json::object& fetched = site->at("robots").as_object();
    json::object source{{"crawlId", crawl.id},
                        {"crawledAt", core::FormatRfc3339(crawl.created_at)}};
    for (std::string_view key : {"url", "status", "policy"}) {
      if (const json::value* value = fetched.if_contains(key)) source[key] = *value;
    }
    return SiteRobots{sightline::site_audit::RobotsOfSurvey(site->as_object()), std::move(source),
                      crawl.created_at};
  }
  return SiteRobots{};
}

core::Result<SiteTraffic> TrafficOfSite(storage::Transaction& tx, const std::string& project_id,
                                        const storage::SiteRecord& site,
                                        const reports::ReportWindows& windows) {
  const auto origin = core::SplitUrl(site.origin);
  const std::string host = core::SiteHost(origin ? origin->host : "");
  auto traffic = [&](const reports::UtcWindow& window) {
    return tx.site_audit().BotTrafficByPath(project_id, host, window.start_ms, window.end_ms,
                                            sightline::site_audit::kRobotsTrafficPathsPerBot);
  };
  SiteTraffic out;
  auto current = traffic(windows.selection);
  if (!current) return current.error();
  out.current = std::move(*current);
  if (windows.comparison) {
    auto rows = traffic(*windows.comparison);
    if (!rows) return rows.error();
    out.previous = std::move(*rows);
  }
  return out;
}

}  // namespace sightline::tools::site_audit
