// The robots-vs-traffic report: the site's robots.txt, as its latest crawl read it, set against
// the crawler requests the project stored in the period and the comparison period
// (site_audit/robots_traffic.h does the reckoning).
#include "site_audit/robots_traffic.h"
#include "core/clock.h"
#include "storage/site_audit_repository.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"
#include "features/site_audit/common.h"
#include "features/site_audit/operations.h"
#include "features/site_audit/site_robots.h"
#include "features/site_audit/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::Permission;
using site_audit::kCallers;
using site_audit::ProjectId;
using site_audit::RobotsOfSite;

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
    auto traffic = site_audit::TrafficOfSite(tx, ProjectId(context), **site, windows);
    if (!traffic) return traffic.error();
    const auto report = sightline::site_audit::CompareRobotsWithTraffic(
        robots->rules, (*service)->settings().ai_crawlers, traffic->current, traffic->Previous());
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
