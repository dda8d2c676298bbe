// The robots-vs-traffic report: the site's robots.txt, as its latest crawl read it, set against
// the crawler requests the project stored in the period and the comparison period
// (site_audit/robots_traffic.h does the reckoning).
#include "site_audit/robots_traffic.h"
#include "site_audit/site_survey.h"
#include "core/clock.h"
#include "core/url.h"
#include "storage/site_audit_repository.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"
#include "features/site_audit/common.h"
#include "features/site_audit/operations.h"
#include "features/site_audit/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::Permission;
using site_audit::kCallers;
using site_audit::ProjectId;

struct SiteRobots {
  sightline::site_audit::RobotsTxt rules = sightline::site_audit::RobotsTxt::AllowAll();
  json::value source = nullptr;  // which crawl read them, null when none has yet
};

// The rules the site's newest crawl recorded (a crawl still running has read them already).
Result<SiteRobots> RobotsOfSite(storage::Transaction& tx, const std::string& project_id,
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
    return SiteRobots{sightline::site_audit::RobotsOfSurvey(site->as_object()), std::move(source)};
  }
  return SiteRobots{};
}

Result<json::value> RunGetRobotsTrafficReport(OperationContext& context,
                                              const json::object& args) {
  auto service = site_audit::Service(context);
  if (!service) return service.error();
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  const reports::ReportWindows& windows = setup->windows;
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto site = tx.site_audit().FindAuditSite(ProjectId(context), RequiredString(args, "siteId"));
    if (!site) return site.error();
    if (!*site) return NotFound("site");
    auto robots = RobotsOfSite(tx, ProjectId(context), (*site)->id);
    if (!robots) return robots.error();
    // Only the requests to this site's host: a project's other sites have robots.txt files
    // of their own.
    const auto origin = core::SplitUrl((*site)->origin);
    const std::string site_host = core::SiteHost(origin ? origin->host : "");
    auto traffic = [&](const reports::UtcWindow& window) {
      return tx.site_audit().BotTrafficByPath(ProjectId(context), site_host, window.start_ms,
                                         window.end_ms, sightline::site_audit::kRobotsTrafficPathsPerBot);
    };
    auto current = traffic(windows.selection);
    if (!current) return current.error();
    std::optional<std::vector<storage::SiteBotTrafficRow>> previous;
    if (windows.comparison) {
      auto rows = traffic(*windows.comparison);
      if (!rows) return rows.error();
      previous = std::move(*rows);
    }
    const auto report = sightline::site_audit::CompareRobotsWithTraffic(
        robots->rules, (*service)->settings().ai_crawlers, *current,
        previous ? std::optional<std::span<const storage::SiteBotTrafficRow>>(*previous)
                 : std::nullopt);
    json::object out = HeaderJson(*setup);
    out["siteId"] = (*site)->id;
    out["origin"] = (*site)->origin;
    out["robotsSource"] = robots->source;
    for (auto& [key, value] : sightline::site_audit::RobotsTrafficJson(report)) out[key] = value;
    return json::value(std::move(out));
  });
}

}  // namespace

const OperationSpec kGetRobotsTrafficReport{
    .name = "get_robots_traffic_report",
    .summary = "robots.txt against observed crawler traffic",
    .description =
        "For each AI crawler of the bot catalog (and any other robots.txt names): its "
        "robots.txt verdict for the site (as the site's newest crawl read it; everything "
        "allowed before any crawl, `robotsSource` null), the requests the project stored from "
        "it in the period by verified, spoofed and suspected, how many went to paths robots.txt "
        "disallows for it and which, the comparison period's figures, and a sentence such as "
        "\"GPTBot is disallowed and still fetched 412 pages (380 verified, 32 spoofed)\" or "
        "\"PerplexityBot is allowed and never came\". `blockedPaths`: the disallowed paths "
        "crawlers hit most.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/site-audit/sites/{siteId}/robots-traffic",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .error_statuses = "503",
    .run = RunGetRobotsTrafficReport,
};

}  // namespace sightline::tools
