// Synthetic crawls for the audit checks' tests: pages whose details JSON is written as
// site_audit/page_facts.cpp writes it, links as site_audit/crawler.cpp records them, and a clean site survey.
#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "site_audit/rules.h"
#include "site_audit/checks.h"

namespace sightline::site_audit::testing {

namespace json = boost::json;

inline const std::string kSite = "https://example.com";

inline std::string U(const std::string& path) { return kSite + path; }

// The facts of a clean, indexable HTML page at `url`: unique title and description, one h1,
// lang, viewport, a self canonical, HSTS.
inline json::object CleanDetails(const std::string& url) {
  return {
      {"error", ""},
      {"responseMs", 20},
      {"truncated", false},
      {"hsts", "max-age=31536000; includeSubDomains"},
      {"xRobotsTag", json::array()},
      {"canonicals", json::array{json::string(url)}},
      {"titles", json::array{json::string("Page " + url)}},
      {"descriptions", json::array{json::string(
                           "About " + url + ": a description long enough to pass, and unique.")}},
      {"h1", json::array{"Heading"}},
      {"lang", "en"},
      {"viewport", true},
      {"metaRobots", json::array()},
      {"hreflang", json::array()},
      {"images", 1},
      {"imagesWithoutAlt", json::array()},
      {"mixedContent", json::array()},
      {"structuredData",
       json::object{{"blocks", 0}, {"items", json::array()}, {"errors", json::array()}}},
      {"textBytes", 1000},
      {"parseProblems", json::array()},
      {"links", 0},
      {"emptyAnchors", 0},
      {"html", true}};
}

inline json::object CleanSite(std::size_t sitemap_urls) {
  json::object robots{{"url", U("/robots.txt")},
                      {"status", 200},
                      {"policy", "rules"},
                      {"error", ""},
                      {"aiUsage", json::array()},
                      {"aiCrawlers", json::array()},
                      {"contradictions", json::array()}};
  json::object file{{"url", U("/sitemap.xml")}, {"status", 200},
                    {"kind", "urlset"},         {"listedInRobots", true},
                    {"urls", sitemap_urls},     {"problems", json::array()}};
  return {
      {"robots", std::move(robots)},
      {"sitemaps",
       json::object{{"files", json::array{file}}, {"urls", sitemap_urls}, {"truncated", false}}},
      {"llmsTxt", json::object{{"url", U("/llms.txt")},
                               {"status", 200},
                               {"present", true},
                               {"wellFormed", true},
                               {"problems", json::array()}}},
      {"https",
       json::object{{"startUrlHttps", true}, {"httpStatus", 301}, {"httpRedirectsToHttps", true}}}};
}

class Crawl {
 public:
  // A clean start page "/" (in the sitemap) is always there.
  Crawl() { Html("/", {}).source = "start"; }

  // A done, internal, indexable 200 HTML page in the sitemap, linked from "/"; `changes` replace
  // members of its clean details.
  storage::SiteAuditPageRecord& Html(const std::string& path, const json::object& changes) {
    json::object details = CleanDetails(U(path));
    for (const auto& [key, value] : changes) details[key] = value;
    if (path != "/") Link(U("/"), U(path));
    storage::SiteAuditPageRecord& page = Add(U(path), 200, details);
    page.in_sitemap = true;
    return page;
  }
  // Any fetched page (internal unless `url` is on another site).
  storage::SiteAuditPageRecord& Add(const std::string& url, int status, const json::object& details) {
    storage::SiteAuditPageRecord page{.url = url,
                                  .depth = 1,
                                  .source = "link",
                                  .internal = url.starts_with(kSite),
                                  .state = "done"};
    if (status == 0) {
      page.state = "error";
    } else {
      page.http_status = status;
    }
    page.details = json::serialize(details);
    bool noindex = false;
    for (const char* key : {"metaRobots", "xRobotsTag"}) {
      if (auto* v = details.if_contains(key)) {
        for (const auto& d : v->as_array()) noindex = noindex || d == "noindex";
      }
    }
    page.indexable = details.contains("html") && details.at("html").as_bool() && !noindex;
    pages.push_back(std::move(page));
    return pages.back();
  }
  storage::SiteAuditPageRecord& Redirect(const std::string& path, const std::string& to) {
    return Add(U(path), 301, {{"redirectTo", to}, {"html", false}, {"xRobotsTag", json::array()}});
  }
  void Link(const std::string& from, const std::string& to, const std::string& anchor = "go") {
    links.push_back({.from_url = from, .to_url = to, .anchor = anchor});
  }

  std::vector<Finding> Run() {
    const std::vector<Finding> found =
        RunChecks({.pages = pages, .links = links, .site = site, .start_url = start_url});
    for (std::size_t i = 0; i < found.size(); ++i) {
      EXPECT_NE(FindAuditRule(found[i].rule_id), nullptr) << found[i].rule_id;
      if (i > 0) {
        const Finding& a = found[i - 1];
        EXPECT_TRUE(a.rule_id < found[i].rule_id ||
                    (a.rule_id == found[i].rule_id && a.url <= found[i].url));
      }
    }
    return found;
  }
  // "rule url" of every finding, in order.
  std::vector<std::string> Pairs() {
    std::vector<std::string> out;
    for (const Finding& f : Run()) out.push_back(f.rule_id + " " + f.url);
    return out;
  }
  // The findings of one rule.
  std::vector<Finding> Of(std::string_view rule_id) {
    std::vector<Finding> out;
    for (Finding& f : Run()) {
      if (f.rule_id == rule_id) out.push_back(std::move(f));
    }
    return out;
  }

  std::vector<storage::SiteAuditPageRecord> pages;  // references from Add() last until the next Add()
  std::vector<storage::SiteAuditLinkRecord> links;
  json::object site = CleanSite(1);
  std::string start_url = U("/");
};

}  // namespace sightline::site_audit::testing
