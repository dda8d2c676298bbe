// Site audit by ServiceAuditBot (docs/site-audit.md): the sites a project proved it owns and the
// rule catalog (site_operations.cpp); crawls, their pages, issues and summary
// (crawl_operations.cpp); the robots-vs-traffic report (report_operations.cpp) and, for the
// crawler page, the crawler-access report (crawler_access_operation.cpp).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListAuditSites, kAddAuditSite, kGetAuditSite, kVerifyAuditSite,
    kDeleteAuditSite, kListAuditRules;
extern const OperationSpec kStartSiteCrawl, kListSiteCrawls, kGetSiteCrawl, kCancelSiteCrawl,
    kListCrawlPages, kGetCrawlPage, kListCrawlIssues, kGetSiteAuditSummary;
extern const OperationSpec kGetRobotsTrafficReport, kGetCrawlerAccess;

}  // namespace sightline::tools
