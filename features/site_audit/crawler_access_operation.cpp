// The crawler-access report, the join only Sightline has, for the crawler page's rows: per
// crawler that came, its robots.txt verdict on the project's audited site (as the newest crawl
// that read robots.txt recorded it) and the requests it made to paths robots.txt disallows for
// it; per vendor with an AI assistant, the visits people made from that assistant's answers.
#include <map>
#include <set>

#include "detection/bot_catalog.h"
#include "features/site_audit/common.h"
#include "features/site_audit/operations.h"
#include "features/site_audit/site_robots.h"
#include "reports/rollups.h"
#include "site_audit/robots_traffic.h"
#include "storage/ai_visibility_repository.h"
#include "storage/site_audit_repository.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using site_audit::ProjectId;

struct AuditedSite {
  storage::SiteRecord site;
  site_audit::SiteRobots robots;
};

// The project's site whose robots.txt was read most recently; nullopt before any crawl read one.
Result<std::optional<AuditedSite>> NewestAuditedSite(storage::Transaction& tx,
                                                     const std::string& project_id) {
  auto sites = tx.site_audit().ListAuditSites(project_id);
  if (!sites) return sites.error();
  std::optional<AuditedSite> newest;
  for (const storage::SiteRecord& site : *sites) {
    auto robots = site_audit::RobotsOfSite(tx, project_id, site.id);
    if (!robots) return robots.error();
    if (robots->source.is_null()) continue;
    if (!newest || robots->crawled_at > newest->robots.crawled_at) {
      newest = AuditedSite{site, std::move(*robots)};
    }
  }
  return newest;
}

// Every crawler that came to the site in either window, as the report's crawlers.
std::vector<sightline::site_audit::AiCrawler> CrawlersIn(
    std::span<const storage::SiteBotTrafficRow> current,
    std::span<const storage::SiteBotTrafficRow> previous) {
  std::set<std::string> names;
  for (const auto& row : current) names.insert(row.bot_name);
  for (const auto& row : previous) names.insert(row.bot_name);
  std::vector<sightline::site_audit::AiCrawler> out;
  for (const std::string& name : names) out.push_back({name, ""});
  return out;
}

Result<json::value> CrawlersJson(storage::Transaction& tx, const std::string& project_id,
                                 const AuditedSite& audited, const reports::ReportWindows& windows) {
  auto traffic = site_audit::TrafficOfSite(tx, project_id, audited.site, windows);
  if (!traffic) return traffic.error();
  const std::span<const storage::SiteBotTrafficRow> before =
      traffic->previous ? std::span<const storage::SiteBotTrafficRow>(*traffic->previous)
                        : std::span<const storage::SiteBotTrafficRow>();
  const auto report = sightline::site_audit::CompareRobotsWithTraffic(
      audited.robots.rules, CrawlersIn(traffic->current, before), traffic->current,
      traffic->Previous());
  json::array crawlers = sightline::site_audit::RobotsTrafficJson(report).at("crawlers").as_array();
  const auto& catalog = detection::BotCatalog::Builtin();
  for (json::value& row : crawlers) {
    json::object& crawler = row.as_object();
    crawler.erase("purpose");
    crawler.erase("listed");
    const detection::BotEntry* entry = catalog.FindByName(crawler.at("name").as_string());
    crawler["vendor"] = entry ? json::value(entry->vendor) : json::value(nullptr);
  }
  return json::value(std::move(crawlers));
}

// Visits from each vendor's assistant: the AI Assistants channel's visits by source.
Result<std::map<std::string, std::int64_t>> AssistantVisits(storage::Transaction& tx,
                                                            const std::string& project_id,
                                                            const std::string& zone,
                                                            const reports::UtcWindow& window) {
  auto visits =
      tx.ai_visibility().AiAssistantVisitsOf(project_id, zone, window.start_ms, window.end_ms);
  if (!visits) return visits.error();
  std::map<std::string, std::int64_t> by_source;
  for (const storage::AiAssistantVisits& row : *visits) by_source[row.source] += row.visits;
  return by_source;
}

Result<json::value> VendorsJson(storage::Transaction& tx, const std::string& project_id,
                                const ReportSetup& setup) {
  auto current = AssistantVisits(tx, project_id, setup.zone.name(), setup.windows.selection);
  if (!current) return current.error();
  std::optional<std::map<std::string, std::int64_t>> previous;
  if (setup.windows.comparison) {
    auto read = AssistantVisits(tx, project_id, setup.zone.name(), *setup.windows.comparison);
    if (!read) return read.error();
    previous = std::move(*read);
  }
  const auto& catalog = detection::BotCatalog::Builtin();
  std::set<std::string> vendors;
  for (const detection::BotEntry& entry : catalog.entries()) {
    if (!catalog.AssistantOf(entry.vendor).empty()) vendors.insert(entry.vendor);
  }
  json::array out;
  for (const std::string& vendor : vendors) {
    const std::string assistant(catalog.AssistantOf(vendor));
    auto count = [&](const std::map<std::string, std::int64_t>& visits) {
      const auto found = visits.find(assistant);
      return found == visits.end() ? std::int64_t{0} : found->second;
    };
    out.push_back(json::object{
        {"vendor", vendor},
        {"assistant", assistant},
        {"referralVisits", count(*current)},
        {"previousReferralVisits", previous ? json::value(count(*previous)) : json::value(nullptr)}});
  }
  return json::value(std::move(out));
}

Result<json::value> RunGetCrawlerAccess(OperationContext& context, const json::object& args) {
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  const std::string& project_id = ProjectId(context);
  // The visits come from the rollups' visit rows, as the AI-visibility loop's do.
  auto refreshed = reports::RefreshForReport(context.store, project_id, setup->windows);
  if (!refreshed) return refreshed.error();
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    json::object out = HeaderJson(*setup);
    auto audited = NewestAuditedSite(tx, project_id);
    if (!audited) return audited.error();
    out["site"] = nullptr;
    out["crawlers"] = json::array();
    if (*audited) {
      out["site"] = json::object{{"siteId", (*audited)->site.id},
                                 {"origin", (*audited)->site.origin},
                                 {"robotsSource", (*audited)->robots.source}};
      auto crawlers = CrawlersJson(tx, project_id, **audited, setup->windows);
      if (!crawlers) return crawlers.error();
      out["crawlers"] = std::move(*crawlers);
    }
    auto vendors = VendorsJson(tx, project_id, *setup);
    if (!vendors) return vendors.error();
    out["vendors"] = std::move(*vendors);
    return json::value(std::move(out));
  });
}

}  // namespace

const OperationSpec kGetCrawlerAccess{
    .name = "get_crawler_access",
    .summary = "Crawlers against robots.txt, and the visits back from AI assistants",
    .description =
        "Per crawler that requested the project's audited site in the period (the site whose "
        "robots.txt a crawl read most recently; `site` null and `crawlers` empty before any "
        "crawl): its robots.txt access and verdict for \"/\", its requests by verified, spoofed "
        "and suspected, how many went to paths robots.txt disallows for it (`disallowedRequests`, "
        "with the top paths), and the comparison period's figures. Per vendor that runs an AI "
        "assistant (`vendors`: OpenAI → ChatGPT, Anthropic → Claude, …, from the bot catalog): "
        "the visits people made from that assistant's answers in the period and the comparison "
        "period (the AI Assistants channel by source).",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/access",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = site_audit::kCallers,
    .run = RunGetCrawlerAccess,
};

}  // namespace sightline::tools
