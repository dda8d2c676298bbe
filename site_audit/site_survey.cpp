#include "site_audit/site_survey.h"

#include <boost/json.hpp>

#include "site_audit/crawl_url.h"
#include "site_audit/json_lists.h"
#include "site_audit/page_fetcher.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;

std::string AccessName(CrawlAccess access) {
  switch (access) {
    case CrawlAccess::kAllowed: return "allowed";
    case CrawlAccess::kPartial: return "partial";
    case CrawlAccess::kDisallowed: return "disallowed";
  }
  return "allowed";
}

json::array DescribeAiUsageLines(const RobotsTxt& rules) {
  json::array lines;
  for (const AiUsageLine& line : rules.ai_usage()) {
    json::object preferences;
    for (const auto& [key, value] : line.preferences) {
      preferences[key] = value ? json::value(*value) : json::value(nullptr);
    }
    lines.push_back(json::object{{"directive", line.directive}, {"line", line.line},
                                 {"scope", line.scope}, {"group", line.group},
                                 {"preferences", std::move(preferences)},
                                 {"problems", JsonStrings(line.problems)}});
  }
  return lines;
}

json::object DescribeSitemaps(const SitemapHarvest& harvest) {
  json::array files;
  for (const SitemapFile& file : harvest.files) {
    files.push_back(json::object{{"url", file.url}, {"status", file.status}, {"kind", file.kind},
                                 {"listedInRobots", file.listed_in_robots}, {"urls", file.urls},
                                 {"problems", JsonStrings(file.problems)}});
  }
  return {{"files", std::move(files)}, {"urls", harvest.page_urls.size()},
          {"truncated", harvest.truncated}};
}

json::object DescribeLlms(const LlmsTxtFetch& llms) {
  return {{"url", llms.url},
          {"status", llms.status},
          {"present", llms.present},
          {"wellFormed", llms.present && llms.report.well_formed},
          {"title", llms.report.title},
          {"sections", JsonStrings(llms.report.sections)},
          {"links", llms.report.link_count},
          {"problems", JsonStrings(llms.report.problems)}};
}

// Whether http:// of the start host answers with a redirect to https:// (only asked when the
// start URL is https).
json::object DescribeHttps(const PageFetcher& fetcher, const std::string& start_url,
                           const Cancelled& cancelled) {
  json::object https{{"startUrlHttps", start_url.rfind("https://", 0) == 0}};
  if (!https["startUrlHttps"].as_bool()) return https;
  const std::string http_url = "http://" + start_url.substr(8);
  FetchResult answer = fetcher.Fetch(
      FetchRequest{.url = http_url, .want_body = [](const auto&) { return false; }}, cancelled);
  const std::string location(answer.headers.Get("Location").value_or(""));
  https["httpStatus"] = answer.status;
  https["httpRedirectsToHttps"] =
      answer.status >= 300 && answer.status < 400 && location.rfind("https://", 0) == 0;
  return https;
}

}  // namespace

json::object DescribeRobots(const RobotsFetch& robots, const std::vector<AiCrawler>& ai_crawlers) {
  json::object out{{"url", robots.url},         {"status", robots.status},
                   {"redirects", robots.redirects}, {"error", robots.error},
                   {"policy", robots.policy},   {"fromCache", robots.from_cache},
                   {"fetchedAt", robots.fetched_at}, {"body", robots.body},
                   {"sitemaps", JsonStrings(robots.rules.sitemaps())}};
  const auto delay = robots.rules.CrawlDelay(kAuditBotToken);
  out["crawlDelay"] = delay ? json::value(*delay) : json::value(nullptr);
  out["aiUsage"] = DescribeAiUsageLines(robots.rules);
  const AiUsageAudit audit = SiteAiUsage(robots.rules, ai_crawlers);
  json::array crawlers, contradictions;
  for (const AiCrawlerAccess& access : audit.crawlers) {
    crawlers.push_back(json::object{{"name", access.name}, {"purpose", access.purpose},
                                    {"access", AccessName(access.access)},
                                    {"rule", access.root.rule}, {"line", access.root.line},
                                    {"group", access.root.group}});
  }
  for (const AiUsageContradiction& c : audit.contradictions) {
    json::array lines;
    for (int line : c.lines) lines.emplace_back(line);
    contradictions.push_back(json::object{{"key", c.key}, {"message", c.message},
                                          {"lines", std::move(lines)},
                                          {"crawlers", JsonStrings(c.crawlers)}});
  }
  out["aiCrawlers"] = std::move(crawlers);
  out["contradictions"] = std::move(contradictions);
  return out;
}

RobotsTxt RobotsOfSurvey(const json::object& site) {
  const json::object& robots = site.at("robots").as_object();
  const std::string policy(robots.at("policy").as_string());
  if (policy == "allow_all") return RobotsTxt::AllowAll();
  if (policy == "disallow_all") return RobotsTxt::DisallowAll();
  return RobotsTxt::Parse(robots.at("body").as_string());
}

SiteSurvey SurveySite(const PageFetcher& fetcher, storage::Store& store, const core::Clock& clock,
                      const std::string& start_url, const std::vector<AiCrawler>& ai_crawlers,
                      const Cancelled& cancelled) {
  SiteSurvey survey;
  const std::string origin = UrlOrigin(start_url);
  RobotsFetch robots = LoadRobots(fetcher, store, clock, origin, cancelled);
  SitemapHarvest sitemaps = LoadSitemaps(fetcher, robots, origin, cancelled);
  survey.site["robots"] = DescribeRobots(robots, ai_crawlers);
  survey.site["sitemaps"] = DescribeSitemaps(sitemaps);
  // robots.txt may keep the bot from /llms.txt too (a 5xx robots.txt disallows everything).
  survey.site["llmsTxt"] =
      robots.rules.IsAllowed(kAuditBotToken, "/llms.txt")
          ? DescribeLlms(LoadLlmsTxt(fetcher, origin, cancelled))
          : json::object{{"url", origin + "/llms.txt"}, {"blockedByRobots", true}};
  survey.site["https"] = DescribeHttps(fetcher, start_url, cancelled);
  survey.robots = std::move(robots.rules);
  survey.sitemap_urls = std::move(sitemaps.page_urls);
  return survey;
}

}  // namespace sightline::site_audit
