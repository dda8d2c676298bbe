// What the crawl keeps of one fetched URL: the record's columns and the facts the checks read
// later, as a JSON `details` object, made from the answer (status, headers, body) and, for an
// HTML page, the parsed document. Also which links to follow. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "site_audit/page_fetcher.h"
#include "storage/site_audit_records.h"

namespace sightline::site_audit {

// A URL a page points at, resolved and normalized.
struct FoundUrl {
  std::string url;
  std::string kind;  // link, redirect, canonical, hreflang
  std::string anchor;
  bool nofollow = false;
};

struct PageOutcome {
  storage::SiteAuditPageRecord page;  // state, status, facts filled in
  std::vector<FoundUrl> found;    // links and other URLs to record (and maybe follow)
  bool follow_links = true;       // false under a nofollow robots directive
};

// Fills `page` (whose url, depth and source are set) from `answer`. A page that is not HTML
// keeps its status and headers only.
PageOutcome DescribePage(storage::SiteAuditPageRecord page, const FetchResult& answer);

// Whether the answer is an HTML page worth reading whole.
bool IsHtml(const core::HttpHeaders& headers);

}  // namespace sightline::site_audit
