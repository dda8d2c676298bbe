// Runs one crawl that this node has claimed, from its first URL (or from where a previous node
// left it) to the end: the site's files first (robots.txt, sitemaps, llms.txt, HTTPS), then the
// pages breadth-first with `concurrency` workers, each host no more often than the crawl's delay
// or robots.txt's crawl-delay, within the crawl's page, depth and time limits; then the checks,
// compared with the site's previous crawl. Every fetched URL is stored as it is fetched, so a
// crawl interrupted by a restart resumes where it stopped. One Crawler per run; Run blocks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "site_audit/ai_usage.h"
#include "site_audit/page_fetcher.h"
#include "core/result.h"
#include "jobs/lease.h"
#include "storage/site_audit_records.h"

namespace sightline::core {
class Clock;
}
namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

struct CrawlerEnvironment {
  storage::Store& store;
  const PageFetcher& fetcher;
  const core::Clock& clock;
  std::vector<AiCrawler> ai_crawlers;  // the bot catalog's AI crawlers, for the robots verdicts
};

class Crawler {
 public:
  // `lease`: this node's claim on `crawl` (CrawlLeases), renewed while it runs.
  Crawler(CrawlerEnvironment environment, storage::SiteAuditCrawlRecord crawl, jobs::HeldLease lease);
  ~Crawler();
  Crawler(const Crawler&) = delete;
  Crawler& operator=(const Crawler&) = delete;

  // Crawls until done, cancelled, out of limits, or `shutting_down()` turns true (then the crawl
  // is left running, its lease given up, for the next node to resume) or the lease is lost (then
  // the crawl is its new holder's and this node writes nothing more). Errors only when the store
  // fails.
  core::Result<void> Run(const std::function<bool()>& shutting_down);

  struct State;  // crawler.cpp's

 private:
  std::unique_ptr<State> state_;
};

}  // namespace sightline::site_audit
