// The site-audit tests' two sides: the fixture website ServiceAuditBot crawls
// (tests/interop/fixture_site.mjs, a process on loopback whose table lists every page and the
// findings it must produce), and the site-audit operations of one project as the tests call them
// (REST, with the project's private API key). Helpers that expect success check it with gtest's
// EXPECT_*; neither class is thread-safe.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness.h"

namespace sightline::e2e {

// Findings as (rule id, URL); the URL is "" for a site-wide finding.
using IssueSet = std::set<std::pair<std::string, std::string>>;

class FixtureSite {
 public:
  // `options`: fixture_site.mjs's own (--robots=500, --delay-ms=N).
  explicit FixtureSite(const std::vector<std::string>& options = {});

  unsigned short port() const { return port_; }
  std::string Origin() const;                              // http://127.0.0.1:P
  std::string Url(const std::string& path) const;          // Origin() + path
  std::string ExternalUrl(const std::string& path) const;  // the "other site" it links to
  std::string DeadUrl(const std::string& path) const;      // a port nothing listens on

  // Every request the site (and its external twin) received since the last clear, oldest first:
  // {server, method, path, headers (lowercased names), status}.
  boost::json::array Requests();
  void ClearRequests();
  // Serves `file` at /.well-known/sightline-verification.txt and puts `meta` in the home page's
  // <head>; "" publishes nothing there.
  void Publish(const std::string& file, const std::string& meta);
  // Switches `path` to the variant the table calls `changed`.
  void Change(const std::string& path);
  // The findings the table promises for the pages as they are now, with URLs on `origin`
  // (default Origin(); "http://site.test:P" when the site is crawled by a DNS name).
  IssueSet ExpectedIssues(const std::string& origin = "");
  // The table's rows: {path, sitemap, home, status, redirect, blocked}.
  boost::json::array ExpectedPages();

 private:
  Response Control(const std::string& method, const std::string& path,
                   const std::string& body = "");

  std::unique_ptr<ChildProcess> process_;
  unsigned short port_ = 0, external_port_ = 0, dead_port_ = 0;
};

// The options of a server whose crawler may reach the fixture: loopback allowed, queued crawls
// claimed within 200 ms, and on PostgreSQL the encryption key file kept in `keys`; then `extra`.
std::vector<std::string> SiteAuditServerArgs(const Backend& backend,
                                             const std::filesystem::path& keys,
                                             std::vector<std::string> extra = {});

// The site-audit operations of the project `creds` names, on `server`.
class SiteAuditApi {
 public:
  // `server` and `creds` must outlive the object.
  SiteAuditApi(ServerProcess& server, const Credentials& creds)
      : server_(&server), creds_(&creds) {}

  // A request to `rest`, relative to /{org}/projects/{project}/site-audit/.
  Response Raw(const std::string& method, const std::string& rest,
               const std::string& body = "") const;
  // The same, expecting `status`; the JSON answer (null when empty).
  boost::json::value Call(const std::string& method, const std::string& rest,
                          const std::string& body = "", int status = 200) const;

  boost::json::object AddSite(const std::string& url) const;
  // Adds the fixture's site, publishes the file the server asks for and verifies it; its id.
  std::string AddVerifiedSite(FixtureSite& site) const;
  boost::json::object StartCrawl(const std::string& site_id,
                                 const std::string& body = kFastCrawl) const;
  // Polls until the crawl is completed, failed or cancelled (a test failure after `limit`).
  boost::json::object WaitForCrawl(const std::string& crawl_id,
                                   std::chrono::seconds limit = std::chrono::seconds(120)) const;
  // Starts a crawl of `site_id` and waits for its end.
  boost::json::object Crawl(const std::string& site_id, const std::string& body = kFastCrawl) const;
  // Every issue (every page of list_crawl_issues) with `query` ("state=fixed").
  boost::json::array Issues(const std::string& crawl_id, const std::string& query = "") const;
  // Every page of list_crawl_pages with `query`.
  boost::json::array Pages(const std::string& crawl_id, const std::string& query = "") const;

  // No delay between requests: the fixture is on loopback.
  static constexpr char kFastCrawl[] = R"({"concurrency":2,"delayMs":0,"maxPages":500})";

 private:
  boost::json::array AllRows(const std::string& rest, const std::string& member,
                             const std::string& query) const;

  ServerProcess* server_;
  const Credentials* creds_;
};

// (ruleId, url) of each issue.
IssueSet IssueKeys(const boost::json::array& issues);
// The pairs of `a` not in `b`, one per line, for failure messages.
std::string Difference(const IssueSet& a, const IssueSet& b);
// The member of `value` at `path`: object keys, or array indexes written as numbers ("0");
// null when a step is missing, so a wrong shape fails the comparison rather than the whole test.
boost::json::value Dig(const boost::json::value& value,
                       std::initializer_list<std::string_view> path);
// The array at `path` of `value` (a copy: safe to loop over), or an empty one.
boost::json::array List(const boost::json::value& value,
                        std::initializer_list<std::string_view> path = {});
// The string `value` holds, or "" when it holds something else.
std::string Text(const boost::json::value& value);
// The issue of `rule_id` at `url`; null (and a test failure) when there is none.
boost::json::value FindIssue(const boost::json::array& issues, const std::string& rule_id,
                             const std::string& url);
// The record of `url` in a list_crawl_pages answer; null when there is none.
boost::json::value FindPage(const boost::json::array& pages, const std::string& url);
// The strings of an array, or the string member `member` of each object in it; empty for
// anything else.
std::set<std::string> Strings(const boost::json::value& array, const std::string& member = "");

}  // namespace sightline::e2e
