// The JSON shapes of site audit (docs/site-audit.md): sites with their ownership proofs, crawls
// with progress and counts, pages, links and issues. Pure functions of storage rows.
#pragma once

#include <boost/json/object.hpp>

#include "storage/site_audit_records.h"

namespace sightline::tools {

boost::json::object SiteView(const storage::SiteRecord& site);
boost::json::object SiteAuditCrawlView(const storage::SiteAuditCrawlRecord& crawl,
                                   const storage::SiteAuditPageCounts& progress);
boost::json::object SiteAuditPageView(const storage::SiteAuditPageRecord& page);
boost::json::object SiteAuditLinkView(const storage::SiteAuditLinkRecord& link);
// `state` overrides the stored one ("fixed" for an issue of the previous crawl).
boost::json::object SiteAuditIssueView(const storage::SiteAuditIssueRecord& issue,
                                   std::string_view state = {});
// What the crawl read of the page (site_audit/page_facts.h); an empty object when nothing.
boost::json::object SiteAuditPageDetails(const storage::SiteAuditPageRecord& page);
// The crawl's stored summary document; an empty object when it has none yet.
boost::json::object SiteAuditSummaryOf(const storage::SiteAuditCrawlRecord& crawl);

}  // namespace sightline::tools
