// The JSON shapes of site audit (docs/site-audit.md): sites with their ownership proofs, crawls
// with progress and counts, pages, links and issues. Pure functions of storage rows.
#pragma once

#include <boost/json/object.hpp>

#include "storage/audit_records.h"

namespace sightline::tools {

boost::json::object AuditSiteView(const storage::AuditSiteRecord& site);
boost::json::object AuditCrawlView(const storage::AuditCrawlRecord& crawl,
                                   const storage::AuditPageCounts& progress);
boost::json::object AuditPageView(const storage::AuditPageRecord& page);
boost::json::object AuditLinkView(const storage::AuditLinkRecord& link);
// `state` overrides the stored one ("fixed" for an issue of the previous crawl).
boost::json::object AuditIssueView(const storage::AuditIssueRecord& issue,
                                   std::string_view state = {});
// What the crawl read of the page (audit/page_facts.h); an empty object when nothing.
boost::json::object AuditPageDetails(const storage::AuditPageRecord& page);
// The crawl's stored summary document; an empty object when it has none yet.
boost::json::object AuditSummaryOf(const storage::AuditCrawlRecord& crawl);

}  // namespace sightline::tools
