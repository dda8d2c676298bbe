#include "site_audit/rules.h"

#include <algorithm>
#include <array>

namespace sightline::site_audit {
namespace {

// Sorted by id (a test keeps it so): FindAuditRule is a binary search.
constexpr std::array kRules = std::to_array<SiteAuditRule>({
    {"ai/crawler-blocked", "notice", "ai", "AI crawlers blocked by robots.txt",
     "robots.txt disallows some AI crawlers entirely or in part. Check that each one listed is "
     "blocked on purpose: search and user-fetch bots decide whether AI assistants can cite you."},
    {"ai/llms-txt-malformed", "warning", "ai", "llms.txt is malformed",
     "/llms.txt exists but does not follow llmstxt.org (an H1 title, then an optional summary "
     "and H2 sections of links). Fix the problems listed."},
    {"ai/llms-txt-missing", "notice", "ai", "No llms.txt",
     "The site has no /llms.txt. Publishing one gives AI agents a curated map of your content."},
    {"ai/usage-contradiction", "warning", "ai", "AI usage signals contradict robots.txt",
     "A Content-Signal or Content-Usage line says one thing while the allow/disallow rules or "
     "another line say the opposite. Make the usage lines and the rules agree."},
    {"ai/usage-line-invalid", "notice", "ai", "Invalid AI usage lines",
     "Some Content-Signal or Content-Usage lines in robots.txt have unknown keys or values and "
     "may be ignored. Correct the lines listed."},
    {"canonical/conflicting", "error", "canonical", "Conflicting canonicals",
     "The page declares more than one canonical URL (in the HTML or the Link header), so search "
     "engines may ignore them all. Keep a single canonical."},
    {"canonical/loop", "error", "canonical", "Canonical loop",
     "Canonicals point in a circle (A to B and back to A), so no page is the canonical one. "
     "Point every page of the group at the one preferred URL, which canonicalizes to itself."},
    {"canonical/missing", "warning", "canonical", "Missing canonical",
     "The indexable page declares no canonical URL. Add <link rel=\"canonical\"> (usually "
     "pointing at itself) so URL variants are consolidated."},
    {"canonical/target-not-indexable", "error", "canonical", "Canonical target not indexable",
     "The canonical URL is noindex or blocked by robots.txt, so neither page may be indexed. "
     "Point the canonical at an indexable URL or lift the block."},
    {"canonical/target-not-ok", "error", "canonical", "Canonical target not 200",
     "The canonical URL redirects, errors or is unreachable. Point the canonical at the final, "
     "200 OK URL."},
    {"depth/too-deep", "notice", "depth", "Page is deep in the site",
     "The page is more than 3 clicks from the start URL, which makes it harder for visitors and "
     "crawlers to find. Link to it from higher-level pages."},
    {"description/duplicate", "warning", "description", "Duplicate meta description",
     "Several indexable pages share this meta description. Write a distinct one per page."},
    {"description/missing", "warning", "description", "Missing meta description",
     "The indexable page has no meta description (or an empty one), so search engines pick a "
     "snippet themselves. Add a summary of 50 to 160 characters."},
    {"description/too-long", "notice", "description", "Meta description too long",
     "The meta description is longer than 160 characters and will likely be truncated in "
     "search results. Shorten it."},
    {"description/too-short", "notice", "description", "Meta description too short",
     "The meta description is shorter than 50 characters and says little. Expand it."},
    {"h1/missing", "warning", "h1", "Missing H1",
     "The indexable page has no <h1> heading. Add one that states the page's main topic."},
    {"h1/multiple", "notice", "h1", "Multiple H1 headings",
     "The page has more than one <h1>. Prefer one main heading and use <h2>-<h6> below it."},
    {"hreflang/not-reciprocal", "error", "hreflang", "Hreflang not reciprocal",
     "The page lists an alternate that does not list the page back, so search engines ignore "
     "the pair. Add the return hreflang link on the target."},
    {"hreflang/target-not-ok", "warning", "hreflang", "Hreflang target not 200",
     "An hreflang alternate redirects, errors or is unreachable. Point it at the final 200 URL."},
    {"html/lang-missing", "warning", "html", "Missing lang attribute",
     "The <html> element has no lang attribute, which screen readers, translators and search "
     "engines rely on. Add e.g. <html lang=\"en\">."},
    {"html/viewport-missing", "notice", "html", "Missing viewport meta tag",
     "Without <meta name=\"viewport\"> mobile browsers render the page zoomed out. Add "
     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">."},
    {"images/missing-alt", "warning", "images", "Images without alt text",
     "Some images have no alt attribute. Describe each meaningful image; use alt=\"\" for "
     "decorative ones."},
    {"indexability/noindex", "notice", "indexability", "Page is noindex",
     "A robots meta tag or X-Robots-Tag header keeps this page out of search results. Make sure "
     "that is intended."},
    {"links/broken-external", "warning", "links", "Broken external links",
     "The page links to external URLs that answer 4xx/5xx or are unreachable. Update or remove "
     "those links."},
    {"links/broken-internal", "error", "links", "Broken internal links",
     "The page links to URLs on this site that answer 4xx/5xx or are unreachable. Fix the "
     "target or update the links."},
    {"links/empty-anchor", "notice", "links", "Links without anchor text",
     "Some links have no text (nor an image alt inside them), so users and crawlers cannot tell "
     "where they lead. Add descriptive text or an aria-label."},
    {"performance/slow-response", "notice", "performance", "Slow server response",
     "The page's time to first byte exceeded 1.5 s. Look at server-side rendering, caching and "
     "database queries."},
    {"redirects/chain", "warning", "redirects", "Redirect chain",
     "The URL takes more than one redirect to reach its destination, slowing users and wasting "
     "crawl budget. Redirect straight to the final URL and update links to it."},
    {"redirects/loop", "error", "redirects", "Redirect loop",
     "The URL's redirects lead back to a URL already visited, so it never loads. Fix the "
     "redirect rules so the chain ends at a 200 page."},
    {"robots/blocked-url", "notice", "robots", "Linked URL blocked by robots.txt",
     "The site links to this URL or lists it in a sitemap, yet robots.txt disallows crawling "
     "it. Unblock it, or stop linking to and listing it."},
    {"robots/unreachable", "error", "robots", "robots.txt unreachable",
     "robots.txt answered 5xx or could not be fetched, so crawlers must assume the whole site "
     "is disallowed (RFC 9309). Make /robots.txt answer 200 (or 404)."},
    {"security/hsts-missing", "warning", "security", "HSTS header missing",
     "The HTTPS start page sends no Strict-Transport-Security header (or max-age=0), so "
     "browsers may still try plain HTTP first. Send e.g. max-age=31536000."},
    {"security/http-not-redirected", "warning", "security", "HTTP not redirected to HTTPS",
     "http:// of the site answers without redirecting to https://, so visitors can stay on an "
     "unencrypted connection. Redirect every http:// URL to its https:// twin (301)."},
    {"security/mixed-content", "error", "security", "Mixed content",
     "The HTTPS page loads resources over plain http://, which browsers block or flag. Serve "
     "them over https://."},
    {"security/no-https", "error", "security", "Site not on HTTPS",
     "The start URL uses plain http://. Serve the site over HTTPS and redirect HTTP to it."},
    {"sitemap/invalid", "error", "sitemap", "Invalid sitemap",
     "A sitemap is unreachable, not a valid sitemap, or has problems (too large, bad URLs). "
     "Fix the problems listed so search engines can read it."},
    {"sitemap/non-indexable-url", "warning", "sitemap", "Non-indexable URL in sitemap",
     "The sitemap lists a URL that redirects, errors, is noindex or is blocked by robots.txt. "
     "List only final, indexable 200 URLs."},
    {"sitemap/none", "notice", "sitemap", "No sitemap",
     "No XML sitemap was found in robots.txt or at /sitemap.xml. Publish one and list it in "
     "robots.txt with a Sitemap: line."},
    {"sitemap/not-in-sitemap", "notice", "sitemap", "Indexable page not in sitemap",
     "The page is linked and indexable but missing from the sitemap. Add it so it is "
     "discovered and recrawled reliably."},
    {"sitemap/orphan", "warning", "sitemap", "Orphan page",
     "The URL is in the sitemap but no crawled page links to it, so visitors cannot reach it "
     "by navigation. Link to it, or drop it from the sitemap."},
    {"status/client-error", "error", "status", "Page returns 4xx",
     "The URL answers with a client error (e.g. 404). Restore the page, redirect it to a "
     "relevant one, or remove links to it."},
    {"status/server-error", "error", "status", "Page returns 5xx",
     "The URL answers with a server error. Check the server logs for the failing request."},
    {"status/unreachable", "error", "status", "Page unreachable",
     "The URL could not be fetched (DNS, connection, TLS or timeout error). Check that the "
     "server answers for it."},
    {"structured-data/invalid", "error", "structured-data", "Invalid JSON-LD",
     "A JSON-LD block does not parse, so search engines ignore it. Fix the JSON syntax."},
    {"structured-data/missing-recommended", "notice", "structured-data",
     "Structured data lacks recommended properties",
     "A JSON-LD item lacks properties recommended for its @type. Add them for richer results."},
    {"structured-data/missing-required", "error", "structured-data",
     "Structured data lacks required properties",
     "A JSON-LD item lacks properties its @type requires, so it is not eligible for rich "
     "results. Add the properties listed."},
    {"title/duplicate", "warning", "title", "Duplicate title",
     "Several indexable pages share this title, so search engines cannot tell them apart. "
     "Give each page a distinct title."},
    {"title/missing", "error", "title", "Missing title",
     "The page has no <title> (or an empty one). Add a concise, descriptive title."},
    {"title/multiple", "warning", "title", "Multiple titles",
     "The page has more than one <title> element; browsers and search engines use only one. "
     "Keep a single title in <head>."},
    {"title/too-long", "notice", "title", "Title too long",
     "The title is longer than 60 characters and will likely be truncated in search results. "
     "Shorten it, keeping the key words first."},
    {"title/too-short", "notice", "title", "Title too short",
     "The title is shorter than 10 characters and says little about the page. Make it more "
     "descriptive."},
});

}  // namespace

std::span<const SiteAuditRule> SiteAuditRules() { return kRules; }

const SiteAuditRule* FindAuditRule(std::string_view id) {
  const auto* found =
      std::lower_bound(kRules.begin(), kRules.end(), id,
                       [](const SiteAuditRule& r, std::string_view v) { return r.id < v; });
  return found != kRules.end() && found->id == id ? &*found : nullptr;
}

}  // namespace sightline::site_audit
