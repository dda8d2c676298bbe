// The site audit's checks: from a finished crawl's pages, links and site survey, the findings of
// every rule in site_audit/rules.h. Pure function of its input; thread-safe. Linear in pages and
// links (hash maps; per-page work is bounded), so 10,000 pages and 200,000 links take well under a
// second.
//
// Which records count:
// - "Pages" are internal records in state "done". A 3xx page is a redirect (details.redirectTo).
//   HTML checks read only pages whose details.html is true and whose status is 200.
// - Noindex pages are still checked for title/missing, title/multiple, html/*, images/*,
//   security/* and structured-data/*: browser tabs, screen readers and AI agents read those
//   whatever search engines do (WCAG 2.4.2 and 3.1.1 ask for a title and a lang). Search-snippet
//   checks (title length and duplicates, description/*, h1/*, canonical/missing,
//   sitemap/not-in-sitemap) skip them: the page never shows in results. Duplicates are only
//   counted among indexable pages.
// - Redirect chains and loops are reported where they are entered: a redirect no other redirect
//   leads to, or one that is linked, listed in a sitemap or the start URL.
// - Site-wide checks need `site`; robots/blocked-url is not reported when robots.txt was
//   unreachable (robots/unreachable says it once for every URL). Unlisted sitemap guesses
//   (/sitemap.xml) that are not sitemaps at all are not sitemap/invalid, only sitemap/none.
// - A broken link is one whose target answered 4xx (but 429, "slow down", which says nothing about
//   the target), 5xx, or nothing. Targets the crawl never fetched (limits, robots.txt) are unknown,
//   not broken, and so are canonical and hreflang targets it did not fetch.
// - Orphans are judged from the links of the pages the crawl fetched: a crawl stopped by its page
//   limit may report orphans that unfetched pages link to.
// Each (rule, url) pair occurs at most once, except ai/usage-contradiction (one per contradiction,
// all site-wide).
#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <vector>

#include "storage/site_audit_records.h"

namespace sightline::site_audit {

struct CheckInput {
  const std::vector<storage::SiteAuditPageRecord>& pages;
  const std::vector<storage::SiteAuditLinkRecord>& links;
  const boost::json::object& site;  // the crawl summary's "site" object; may be empty
  const std::string& start_url;
};

struct Finding {
  std::string rule_id;           // an SiteAuditRule id
  std::string url;               // the affected URL; "" for a site-wide finding
  boost::json::object evidence;  // what a user needs to act; arrays hold at most 50 entries
};

// Every finding, ordered by rule id, then url (ties keep their discovery order). Malformed
// details JSON is read as "{}" rather than failing the audit.
std::vector<Finding> RunChecks(const CheckInput& input);

}  // namespace sightline::site_audit
