// What a crawl learns about the whole site before its pages, kept as the "site" object of the
// crawl's summary (so a resumed crawl does not ask again): robots.txt with ServiceAuditBot's
// crawl-delay and every AI crawler's verdict, the AI-usage lines and their contradictions, the
// sitemaps, llms.txt, and HTTPS (does http:// redirect to https://). Thread-safe functions.
#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <vector>

#include "site_audit/ai_usage.h"
#include "site_audit/site_files.h"

namespace sightline::site_audit {

struct SiteSurvey {
  boost::json::object site;            // the summary's "site" object
  RobotsTxt robots;                    // the start origin's rules
  std::vector<std::string> sitemap_urls;
};

SiteSurvey SurveySite(const PageFetcher& fetcher, storage::Store& store,
                      const core::Clock& clock, const std::string& start_url,
                      const std::vector<AiCrawler>& ai_crawlers, const Cancelled& cancelled);

// The rules a survey recorded (a resumed crawl reads them back).
RobotsTxt RobotsOfSurvey(const boost::json::object& site);

// The robots.txt object of the summary: what was fetched and how it reads for AI crawlers.
boost::json::object DescribeRobots(const RobotsFetch& robots,
                                   const std::vector<AiCrawler>& ai_crawlers);

}  // namespace sightline::site_audit
