#include "site_audit/page_facts.h"

#include <algorithm>
#include <boost/json.hpp>

#include "site_audit/crawl_url.h"
#include "site_audit/json_lists.h"
#include "site_audit/html_document.h"
#include "site_audit/structured_data.h"
#include "core/crypto.h"
#include "core/text.h"
#include "core/json_util.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;

// X-Robots-Tag directives that apply to every crawler or to ours ("googlebot: noindex" does not).
std::vector<std::string> HeaderRobots(const core::HttpHeaders& headers) {
  std::vector<std::string> out;
  for (const auto& [name, value] : headers.fields()) {
    if (!core::EqualsIgnoreCase(name, "X-Robots-Tag")) continue;
    std::string text = core::ToLowerAscii(value);
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos && text.find_first_of(", ") > colon) {
      const std::string agent(core::TrimSpaces(std::string_view(text).substr(0, colon)));
      if (agent != "serviceauditbot" && agent != "*") continue;
      text = text.substr(colon + 1);
    }
    for (const std::string& item : core::SplitList(text)) out.push_back(item);
  }
  return out;
}

bool Has(const std::vector<std::string>& directives, std::string_view wanted) {
  return std::any_of(directives.begin(), directives.end(), [&](const std::string& d) {
    return d == wanted || (wanted != "none" && d == "none");
  });
}

// Canonical URLs from `Link: <url>; rel="canonical"` headers.
std::vector<std::string> HeaderCanonicals(const core::HttpHeaders& headers) {
  std::vector<std::string> out;
  for (const auto& [name, value] : headers.fields()) {
    if (!core::EqualsIgnoreCase(name, "Link")) continue;
    for (const std::string& entry : core::SplitList(value)) {
      const std::size_t open = entry.find('<'), close = entry.find('>');
      if (open == std::string::npos || close == std::string::npos || close < open) continue;
      const std::string params = core::ToLowerAscii(entry.substr(close + 1));
      if (params.find("rel=\"canonical\"") != std::string::npos ||
          params.find("rel=canonical") != std::string::npos) {
        out.push_back(entry.substr(open + 1, close - open - 1));
      }
    }
  }
  return out;
}

json::object StructuredData(const std::vector<std::string>& blocks) {
  const StructuredDataReport report = CheckJsonLd(blocks);
  json::array items;
  for (const StructuredDataItem& item : report.items) {
    items.push_back(json::object{{"type", item.type},
                                 {"missingRequired", JsonStrings(item.missing_required)},
                                 {"missingRecommended", JsonStrings(item.missing_recommended)}});
  }
  return {{"blocks", blocks.size()}, {"items", std::move(items)},
          {"errors", JsonStrings(report.parse_errors)}};
}

void AddLinks(const HtmlFacts& html, const std::string& base, PageOutcome& out,
              json::object& details) {
  std::int64_t empty_anchors = 0;
  for (const HtmlLink& link : html.links) {
    auto url = ResolveUrl(base, link.href);
    if (!url) continue;
    if (core::TrimSpaces(link.text).empty()) ++empty_anchors;
    out.found.push_back({*url, "link", link.text, link.nofollow});
  }
  details["links"] = out.found.size();
  details["emptyAnchors"] = empty_anchors;
}

void AddHtmlFacts(const HtmlFacts& html, const std::string& url, PageOutcome& out,
                  json::object& details) {
  const std::string base = html.base_href ? ResolveUrl(url, *html.base_href).value_or(url) : url;
  details["titles"] = JsonStrings(html.titles);
  details["descriptions"] = JsonStrings(html.meta_descriptions);
  details["h1"] = JsonStrings(html.h1s);
  details["lang"] = html.lang ? json::value(*html.lang) : json::value(nullptr);
  details["viewport"] = html.has_viewport;
  details["metaRobots"] = JsonStrings(html.robots_directives);
  json::array canonicals = details["canonicals"].as_array();
  for (const std::string& href : html.canonicals) {
    canonicals.emplace_back(ResolveUrl(base, href).value_or(href));
  }
  details["canonicals"] = std::move(canonicals);
  json::array hreflang;
  for (const HtmlAlternate& alternate : html.alternates) {
    auto target = ResolveUrl(base, alternate.href);
    if (!target) continue;
    hreflang.push_back(json::object{{"lang", alternate.hreflang}, {"href", *target}});
    out.found.push_back({*target, "hreflang", "", false});
  }
  details["hreflang"] = std::move(hreflang);
  json::array missing_alt, mixed;
  for (const HtmlImage& image : html.images) {
    if (!image.alt && missing_alt.size() < 50) missing_alt.emplace_back(image.src);
  }
  details["images"] = html.images.size();
  details["imagesWithoutAlt"] = std::move(missing_alt);
  if (url.rfind("https://", 0) == 0) {
    for (const std::string& resource : html.subresources) {
      auto target = ResolveUrl(base, resource);
      if (target && target->rfind("http://", 0) == 0 && mixed.size() < 50) mixed.emplace_back(*target);
    }
  }
  details["mixedContent"] = std::move(mixed);
  details["structuredData"] = StructuredData(html.json_ld);
  details["textBytes"] = html.text_bytes;
  details["parseProblems"] = JsonStrings(html.problems);
  AddLinks(html, base, out, details);
}

}  // namespace

bool IsHtml(const core::HttpHeaders& headers) {
  const std::string type(core::MediaTypeOf(headers.Get("Content-Type").value_or("")));
  return type == "text/html" || type == "application/xhtml+xml";
}

PageOutcome DescribePage(storage::SiteAuditPageRecord page, const FetchResult& answer) {
  PageOutcome out;
  json::object details;
  page.http_status = answer.status ? std::optional<std::int64_t>(answer.status) : std::nullopt;
  page.state = answer.status == 0 ? "error" : "done";
  page.content_type = std::string(answer.headers.Get("Content-Type").value_or(""));
  page.bytes = static_cast<std::int64_t>(answer.body.size());
  page.ttfb_ms = answer.ttfb_ms;
  page.etag = std::string(answer.headers.Get("ETag").value_or(""));
  page.last_modified = std::string(answer.headers.Get("Last-Modified").value_or(""));
  details["error"] = answer.error;
  details["responseMs"] = answer.total_ms;
  details["truncated"] = answer.truncated;
  if (auto hsts = answer.headers.Get("Strict-Transport-Security")) details["hsts"] = *hsts;
  const std::vector<std::string> header_robots = HeaderRobots(answer.headers);
  details["xRobotsTag"] = JsonStrings(header_robots);
  details["canonicals"] = json::array();
  for (const std::string& href : HeaderCanonicals(answer.headers)) {
    details["canonicals"].as_array().emplace_back(ResolveUrl(page.url, href).value_or(href));
  }
  if (answer.status >= 300 && answer.status < 400) {
    if (auto location = answer.headers.Get("Location")) {
      if (auto target = ResolveUrl(page.url, *location)) {
        details["redirectTo"] = *target;
        out.found.push_back({*target, "redirect", "", false});
      }
    }
  }
  std::vector<std::string> robots = header_robots;
  const bool html = answer.status >= 200 && answer.status < 300 && IsHtml(answer.headers);
  if (html && page.internal) {
    const HtmlFacts facts = ParseHtml(answer.body);
    AddHtmlFacts(facts, page.url, out, details);
    robots.insert(robots.end(), facts.robots_directives.begin(), facts.robots_directives.end());
    page.title = facts.titles.empty() ? "" : core::TruncateUtf8(facts.titles.front(), 500);
    page.content_hash = core::Sha256Hex(answer.body);
    for (const json::value& canonical : details["canonicals"].as_array()) {
      out.found.push_back({std::string(canonical.as_string()), "canonical", "", false});
    }
  }
  details["html"] = html;
  page.indexable = html && !Has(robots, "noindex");
  out.follow_links = !Has(robots, "nofollow");
  page.details = core::ToJson(details);
  out.page = std::move(page);
  return out;
}

}  // namespace sightline::site_audit
