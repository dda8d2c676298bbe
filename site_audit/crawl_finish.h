// The end of a crawl: the checks run over every stored page and link, each finding compared with
// the site's previous completed crawl (new or still open; fixed ones are the previous crawl's
// findings no longer present), the counts written into the summary, and the crawl's final
// status. Thread-safe functions over the store.
#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <vector>

#include "site_audit/crawler.h"
#include "core/result.h"

namespace sightline::site_audit {

// `stop_reason`: "" (done), page_limit, duration_limit, cancelled, store_failed (a crawl stopped
// by a shutdown or a lost lease is not finished: Crawler::Run leaves it to the next holder).
// `held` is the crawl's lease as this node holds it; nothing is written once another node has
// taken the crawl over.
core::Result<void> FinishCrawl(const CrawlerEnvironment& env, storage::SiteAuditCrawlRecord crawl,
                               boost::json::object summary, const std::string& stop_reason,
                               const std::string& failure, std::int64_t held);

// Findings of `current` against `previous` (the same rule and URL): state new or open.
std::vector<storage::SiteAuditIssueRecord> CompareWithPrevious(
    std::vector<storage::SiteAuditIssueRecord> current,
    const std::vector<storage::SiteAuditIssueRecord>& previous);

}  // namespace sightline::site_audit
