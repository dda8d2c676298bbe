// End-to-end: the site audit on every backend — ServiceAuditBot, run by the real server, crawls the
// fixture website on loopback (tests/interop/fixture_site.mjs), and what it reports is held
// against the fixture's table of known defects: every issue with its evidence, the pages, one
// page's detail, the summary; ownership proofs (file, meta tag, DNS TXT) before any crawl; a
// second crawl's new, open and fixed issues over conditional requests; a robots.txt answering
// 5xx; cancelling. site_audit_bot_test.cpp checks the crawler's requests and the npm oracles.
#include "fixture_site.h"
#include "loopback_services.h"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "core/http_types.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

class SiteAudit : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("audit"), "Shop");
    StartServer();
  }
  void StartServer(std::vector<std::string> extra = {}) {
    api_.reset();
    server_.reset();
    server_ = std::make_unique<ServerProcess>(
        GetParam(), SiteAuditServerArgs(GetParam(), keys_.path(), std::move(extra)));
    api_ = std::make_unique<SiteAuditApi>(*server_, creds_);
  }
  const SiteAuditApi& api() const { return *api_; }
  // Adds and verifies the fixture's site, crawls it to the end; the finished crawl.
  json::object CrawlOf(FixtureSite& fixture) {
    const std::string site = api().AddVerifiedSite(fixture);
    return api().Crawl(site);
  }

  TempDir keys_{"sightline-audit-keys-"};
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<SiteAuditApi> api_;
};

std::string IdOf(const json::value& record) { return Text(Dig(record, {"id"})); }

std::string UrlQuery(const std::string& url) { return "url=" + core::PercentEncode(url); }

// Whether some string member of an object of `links` (page detail's Link) is `url`.
bool AnyLinkNames(const json::value& links, const std::string& url) {
  if (!links.is_array()) return false;
  return std::any_of(links.as_array().begin(), links.as_array().end(), [&](const json::value& l) {
    return l.is_object() && std::any_of(l.as_object().begin(), l.as_object().end(),
                                        [&](const auto& m) { return m.value() == url.c_str(); });
  });
}

// A whole number, or -1 for anything else (a missing member).
std::int64_t Int(const json::value& value) {
  if (value.is_int64()) return value.as_int64();
  return value.is_uint64() ? static_cast<std::int64_t>(value.as_uint64()) : -1;
}

json::array Array(std::initializer_list<std::string> items) {
  json::array out;
  for (const std::string& item : items) out.emplace_back(item);
  return out;
}

TEST_P(SiteAudit, OwnershipIsProvenByFileOrMetaTagBeforeAnyCrawl) {
  FixtureSite fixture;
  const json::object site = api().AddSite(fixture.Url("/about.html?x=1"));
  const std::string id = IdOf(site);
  ASSERT_FALSE(id.empty()) << json::serialize(site);
  EXPECT_EQ(Dig(site, {"origin"}), fixture.Origin().c_str()) << "scheme, host and port only";
  EXPECT_EQ(Dig(site, {"verified"}), false);
  EXPECT_TRUE(Dig(site, {"verifiedMethod"}).is_null());
  const std::string token = Text(Dig(site, {"token"}));
  ASSERT_FALSE(token.empty());
  EXPECT_EQ(Dig(site, {"proofs", "file", "url"}),
            fixture.Url("/.well-known/sightline-verification.txt").c_str());
  const std::string file = Text(Dig(site, {"proofs", "file", "content"}));
  const std::string meta = Text(Dig(site, {"proofs", "meta", "tag"}));
  EXPECT_NE(file.find(token), std::string::npos);
  EXPECT_NE(meta.find(token), std::string::npos);
  EXPECT_NE(meta.find("sightline-site-verification"), std::string::npos);
  EXPECT_NE(json::serialize(Dig(site, {"proofs", "dns", "value"})).find(token), std::string::npos);

  const Response again = api().Raw("POST", "sites", R"({"url":")" + fixture.Url("/") + R"("})");
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_EQ(again.ErrorCode(), "AUDIT_003");
  EXPECT_EQ(Dig(again.Json(), {"error", "details", "siteId"}), id.c_str());
  EXPECT_EQ(Strings(Dig(api().Call("GET", "sites"), {"sites"}), "id"), std::set<std::string>{id});

  // Nothing published yet: no crawl, and verifying says what each way found.
  const Response early = api().Raw("POST", "sites/" + id + "/crawls", "{}");
  EXPECT_EQ(early.status, 409) << early.body;
  EXPECT_EQ(early.ErrorCode(), "AUDIT_001");
  const Response unproven = api().Raw("POST", "sites/" + id + "/verify", "{}");
  EXPECT_EQ(unproven.status, 409) << unproven.body;
  EXPECT_EQ(unproven.ErrorCode(), "AUDIT_001");
  const std::string message = json::serialize(Dig(unproven.Json(), {"error", "message"}));
  EXPECT_NE(message.find("file"), std::string::npos) << message;
  EXPECT_NE(message.find("meta"), std::string::npos) << message;

  // The meta tag proves it; asking for the file alone still fails.
  fixture.Publish("", meta);
  EXPECT_EQ(api().Raw("POST", "sites/" + id + "/verify", R"({"method":"file"})").status, 409);
  const json::value verified =
      api().Call("POST", "sites/" + id + "/verify", R"({"method":"meta"})");
  EXPECT_EQ(Dig(verified, {"verified"}), true);
  EXPECT_EQ(Dig(verified, {"verifiedMethod"}), "meta");
  EXPECT_FALSE(Dig(verified, {"verifiedAt"}).is_null());
  EXPECT_EQ(Dig(api().Call("GET", "sites/" + id), {"verified"}), true);
  EXPECT_EQ(Strings(fixture.Requests(), "path"),
            (std::set<std::string>{"/.well-known/sightline-verification.txt", "/"}))
      << "the file, and the home page for its meta tag; nothing else";

  // Another site: a file with someone else's token proves nothing; its own token does.
  FixtureSite other;
  const json::object second = api().AddSite(other.Url("/"));
  const std::string second_id = IdOf(second);
  other.Publish(file, "");
  EXPECT_EQ(api().Raw("POST", "sites/" + second_id + "/verify", "{}").status, 409);
  other.Publish(Text(Dig(second, {"proofs", "file", "content"})), "");
  EXPECT_EQ(Dig(api().Call("POST", "sites/" + second_id + "/verify", "{}"), {"verifiedMethod"}),
            "file");
  api().Call("DELETE", "sites/" + second_id, "", 204);
  EXPECT_EQ(api().Raw("GET", "sites/" + second_id).status, 404);
}

// The site is named by a host only the test's DNS server knows: its TXT record proves ownership,
// and the crawler reaches the site through the same resolver and finds the same defects.
TEST_P(SiteAudit, OwnershipIsProvenByADnsTxtRecordAndTheSiteIsCrawledByItsName) {
  FixtureSite fixture;
  const std::string origin = "http://site.test:" + std::to_string(fixture.port());
  const json::object site = api().AddSite(origin + "/");
  const json::object other = api().AddSite("http://other.test:" + std::to_string(fixture.port()));
  const std::string name = Text(Dig(site, {"proofs", "dns", "name"}));
  const std::string value = Text(Dig(site, {"proofs", "dns", "value"}));
  const Dnsmasq dns({"--local=/test/", "--host-record=site.test,127.0.0.1",
                     "--host-record=other.test,127.0.0.1", "--txt-record=" + name + "," + value});
  StartServer({"--dns-server", dns.address()});
  const json::value verified =
      api().Call("POST", "sites/" + IdOf(site) + "/verify", R"({"method":"dns"})");
  EXPECT_EQ(Dig(verified, {"verified"}), true);
  EXPECT_EQ(Dig(verified, {"verifiedMethod"}), "dns");
  const Response refused =
      api().Raw("POST", "sites/" + IdOf(other) + "/verify", R"({"method":"dns"})");
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(refused.ErrorCode(), "AUDIT_001");
  EXPECT_NE(refused.body.find("other.test"), std::string::npos) << refused.body;

  const json::object crawl = api().Crawl(IdOf(site));
  ASSERT_EQ(Dig(crawl, {"status"}), "completed") << json::serialize(crawl);
  const IssueSet expected = fixture.ExpectedIssues(origin);
  const IssueSet got = IssueKeys(api().Issues(IdOf(crawl)));
  EXPECT_EQ(got, expected) << "missing:\n"
                           << Difference(expected, got) << "unexpected:\n"
                           << Difference(got, expected);
  for (const json::value& r : fixture.Requests()) {
    if (r.at("server") != "site") continue;
    EXPECT_EQ(Dig(r, {"headers", "host"}), ("site.test:" + std::to_string(fixture.port())).c_str())
        << Dig(r, {"path"});
  }
}

// The evidence of the link and status findings of the fixture's /links.html.
void ExpectLinkEvidence(FixtureSite& fixture, const json::array& issues) {
  const std::string links = fixture.Url("/links.html");
  std::map<std::string, json::value> internal;
  const json::value evidence = Dig(FindIssue(issues, "links/broken-internal", links), {"evidence"});
  for (const json::value& l : List(evidence, {"links"})) {
    internal[Text(Dig(l, {"href"}))] = Dig(l, {"status"});
  }
  EXPECT_EQ(internal, (std::map<std::string, json::value>{{fixture.Url("/missing.html"), 404},
                                                          {fixture.Url("/reset.html"), nullptr}}));
  EXPECT_EQ(Strings(Dig(FindIssue(issues, "links/broken-external", links), {"evidence", "links"}),
                    "href"),
            (std::set<std::string>{fixture.ExternalUrl("/gone"), fixture.DeadUrl("/")}))
      << "a 404 on another host, and a host where nothing listens";
  EXPECT_EQ(Strings(Dig(FindIssue(issues, "links/empty-anchor", links), {"evidence", "links"})),
            std::set<std::string>{fixture.Url("/about.html")});
  const json::value missing =
      FindIssue(issues, "status/client-error", fixture.Url("/missing.html"));
  EXPECT_EQ(Dig(missing, {"evidence", "status"}), 404);
  EXPECT_EQ(Strings(Dig(missing, {"evidence", "linkedFrom"})), std::set<std::string>{links});
}

void ExpectRedirectAndCanonicalEvidence(FixtureSite& fixture, const json::array& issues) {
  const json::value chain = FindIssue(issues, "redirects/chain", fixture.Url("/chain/1"));
  EXPECT_EQ(Dig(chain, {"evidence", "hops"}), 3);
  EXPECT_EQ(Dig(chain, {"evidence", "chain"}),
            Array({fixture.Url("/chain/1"), fixture.Url("/chain/2"), fixture.Url("/chain/3"),
                   fixture.Url("/chain-end.html")}));
  EXPECT_EQ(Dig(chain, {"evidence", "finalStatus"}), 200);
  EXPECT_EQ(Dig(FindIssue(issues, "redirects/loop", fixture.Url("/loop/a")), {"evidence", "chain"}),
            Array({fixture.Url("/loop/a"), fixture.Url("/loop/b"), fixture.Url("/loop/a")}));
  EXPECT_EQ(
      Dig(FindIssue(issues, "canonical/loop", fixture.Url("/canon-a.html")), {"evidence", "chain"}),
      Array({fixture.Url("/canon-a.html"), fixture.Url("/canon-b.html"),
             fixture.Url("/canon-a.html")}));
  EXPECT_EQ(Dig(FindIssue(issues, "canonical/target-not-indexable",
                          fixture.Url("/canon-to-noindex.html")),
                {"evidence", "reason"}),
            "noindex");
  EXPECT_EQ(Dig(FindIssue(issues, "sitemap/non-indexable-url", fixture.Url("/noindex-meta.html")),
                {"evidence", "reason"}),
            "noindex");
  EXPECT_EQ(Dig(FindIssue(issues, "indexability/noindex", fixture.Url("/noindex-header.html")),
                {"evidence", "xRobotsTag"}),
            Array({"noindex"}));
}

void ExpectPageEvidence(FixtureSite& fixture, const json::array& issues) {
  const json::value hreflang =
      FindIssue(issues, "hreflang/not-reciprocal", fixture.Url("/hreflang/fr.html"));
  EXPECT_EQ(Dig(hreflang, {"evidence", "target"}), fixture.Url("/hreflang/en.html").c_str());
  EXPECT_EQ(Dig(hreflang, {"evidence", "count"}), 1);
  const json::value data =
      FindIssue(issues, "structured-data/missing-required", fixture.Url("/products/gadget.html"));
  EXPECT_EQ(Dig(data, {"evidence", "items", "0", "type"}), "Product");
  EXPECT_EQ(Dig(data, {"evidence", "items", "0", "missing"}),
            Array({"offers|review|aggregateRating"}));
  EXPECT_EQ(Strings(Dig(FindIssue(issues, "structured-data/invalid",
                                  fixture.Url("/products/broken-json.html")),
                        {"evidence", "errors"}))
                .size(),
            1u);
  const json::value images = FindIssue(issues, "images/missing-alt", fixture.Url("/images.html"));
  EXPECT_EQ(Strings(Dig(images, {"evidence", "images"})),
            (std::set<std::string>{"/img/a.png", "/img/d.png"}))
      << "c's empty alt is deliberate, not missing";
  EXPECT_EQ(Dig(images, {"evidence", "total"}), 4);
  EXPECT_EQ(Strings(Dig(FindIssue(issues, "title/duplicate", fixture.Url("/dup-a.html")),
                        {"evidence", "pages"})),
            std::set<std::string>{fixture.Url("/dup-b.html")});
  EXPECT_EQ(
      Dig(FindIssue(issues, "depth/too-deep", fixture.Url("/deep/4.html")), {"evidence", "depth"}),
      4)
      << "four clicks from the start page, although the sitemap lists it too";
}

void ExpectRobotsEvidence(FixtureSite& fixture, const json::array& issues) {
  const json::value blocked =
      FindIssue(issues, "robots/blocked-url", fixture.Url("/private/secret.html"));
  EXPECT_EQ(Dig(blocked, {"evidence", "robotsRule"}), "Disallow: /private/");
  EXPECT_EQ(Dig(blocked, {"evidence", "robotsLine"}), 3);
  EXPECT_EQ(
      Strings(Dig(FindIssue(issues, "ai/crawler-blocked", ""), {"evidence", "crawlers"}), "name"),
      std::set<std::string>{"GPTBot"})
      << "PerplexityBot is allowed by its own group, the other AI crawlers by *";
  const json::value contradiction = FindIssue(issues, "ai/usage-contradiction", "");
  EXPECT_EQ(Dig(contradiction, {"evidence", "key"}), "ai-train");
  EXPECT_EQ(Dig(contradiction, {"evidence", "lines"}), json::array{14});
  const std::set<std::string> trainers = Strings(Dig(contradiction, {"evidence", "crawlers"}));
  EXPECT_TRUE(trainers.contains("ClaudeBot") && !trainers.contains("GPTBot")) << contradiction;
}

// Every (rule, URL) of the fixture's table and nothing else, with the evidence a site owner needs.
TEST_P(SiteAudit, ACrawlReportsExactlyTheFixtureSitesDefects) {
  FixtureSite fixture;
  const json::object crawl = CrawlOf(fixture);
  ASSERT_EQ(Dig(crawl, {"status"}), "completed") << json::serialize(crawl);
  const std::string crawl_id = IdOf(crawl);
  EXPECT_EQ(Dig(crawl, {"startUrl"}), fixture.Url("/").c_str());
  EXPECT_TRUE(Dig(crawl, {"previousCrawlId"}).is_null());
  EXPECT_FALSE(Dig(crawl, {"finishedAt"}).is_null());

  const json::array issues = api().Issues(crawl_id);
  const IssueSet expected = fixture.ExpectedIssues();
  const IssueSet got = IssueKeys(issues);
  EXPECT_EQ(got, expected) << "missing:\n"
                           << Difference(expected, got) << "unexpected:\n"
                           << Difference(got, expected);
  EXPECT_EQ(issues.size(), got.size()) << "each (rule, URL) once";

  // Each rule is in the catalog, with its severity; all are new in a first crawl.
  std::map<std::string, std::string> severity;
  for (const json::value& rule : List(api().Call("GET", "rules"), {"rules"})) {
    severity[Text(Dig(rule, {"id"}))] = Text(Dig(rule, {"severity"}));
  }
  EXPECT_EQ(severity.size(), 51u);
  std::size_t notices = 0;
  for (const json::value& issue : issues) {
    const std::string rule = Text(Dig(issue, {"ruleId"}));
    EXPECT_EQ(Dig(issue, {"severity"}), severity[rule].c_str()) << rule;
    EXPECT_EQ(Dig(issue, {"state"}), "new") << rule;
    notices += severity[rule] == "notice";
  }
  const auto total = static_cast<std::int64_t>(expected.size());
  EXPECT_EQ(Dig(crawl, {"counts", "issues"}), total);
  EXPECT_EQ(Dig(crawl, {"counts", "new"}), total);
  EXPECT_EQ(Dig(crawl, {"counts", "fixed"}), 0);
  EXPECT_EQ(IssueKeys(api().Issues(crawl_id, "ruleId=" + core::PercentEncode("redirects/loop"))),
            (IssueSet{{"redirects/loop", fixture.Url("/loop/a")}}));
  EXPECT_EQ(api().Issues(crawl_id, "severity=notice").size(), notices);

  ExpectLinkEvidence(fixture, issues);
  ExpectRedirectAndCanonicalEvidence(fixture, issues);
  ExpectPageEvidence(fixture, issues);
  ExpectRobotsEvidence(fixture, issues);
}

// Every row of the fixture's table is a page of the crawl, in the state and status it serves.
void ExpectTheTablesPages(FixtureSite& fixture, const json::array& pages) {
  for (const json::value& row : fixture.ExpectedPages()) {
    const std::string url = fixture.Url(std::string(row.at("path").as_string()));
    const json::value page = FindPage(pages, url);
    ASSERT_FALSE(page.is_null()) << "no page " << url;
    EXPECT_EQ(Dig(page, {"internal"}), true) << url;
    EXPECT_EQ(Dig(page, {"inSitemap"}), !row.at("sitemap").is_null()) << url;
    const std::int64_t status = row.at("status").as_int64();
    if (row.at("blocked").as_bool()) {
      EXPECT_EQ(Dig(page, {"state"}), "blocked") << url;
    } else if (status == 0) {
      EXPECT_EQ(Dig(page, {"state"}), "error") << url;
    } else {
      EXPECT_EQ(Dig(page, {"state"}), "done") << url;
      EXPECT_EQ(Dig(page, {"httpStatus"}), status) << url;
    }
  }
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/")), {"depth"}), 0);
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/")), {"source"}), "start");
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/about.html")), {"depth"}), 1)
      << "linked from the start page (and listed in the sitemap)";
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/not-in-sitemap.html")), {"depth"}), 1);
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/orphan.html")), {"source"}), "sitemap");
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/about.html")), {"title"}), "About us | Fixture Shop");
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/about.html")), {"indexable"}), true);
  EXPECT_EQ(Dig(FindPage(pages, fixture.Url("/noindex-meta.html")), {"indexable"}), false);
}

TEST_P(SiteAudit, PagesPageDetailAndSummaryDescribeTheCrawl) {
  FixtureSite fixture;
  const json::object crawl = CrawlOf(fixture);
  ASSERT_EQ(Dig(crawl, {"status"}), "completed") << json::serialize(crawl);
  const std::string crawl_id = IdOf(crawl);
  const json::array pages = api().Pages(crawl_id);
  ExpectTheTablesPages(fixture, pages);
  EXPECT_EQ(Strings(api().Pages(crawl_id, "external=true"), "url"),
            (std::set<std::string>{fixture.ExternalUrl("/ok"), fixture.ExternalUrl("/gone"),
                                   fixture.DeadUrl("/")}));
  EXPECT_EQ(Strings(api().Pages(crawl_id, "state=blocked"), "url"),
            std::set<std::string>{fixture.Url("/private/secret.html")});
  EXPECT_EQ(Strings(api().Pages(crawl_id, "search=deep"), "url"),
            (std::set<std::string>{fixture.Url("/deep/1.html"), fixture.Url("/deep/2.html"),
                                   fixture.Url("/deep/3.html"), fixture.Url("/deep/4.html")}));
  EXPECT_EQ(Dig(crawl, {"progress", "total"}), static_cast<std::int64_t>(pages.size()))
      << "the site's own pages";
  EXPECT_EQ(Dig(crawl, {"progress", "queued"}), 0);

  // One page: its facts, its issues, who links to it and what it links to.
  const json::value detail =
      api().Call("GET", "crawls/" + crawl_id + "/page?" + UrlQuery(fixture.Url("/links.html")));
  EXPECT_EQ(Dig(detail, {"url"}), fixture.Url("/links.html").c_str());
  EXPECT_EQ(Dig(detail, {"httpStatus"}), 200);
  EXPECT_TRUE(Dig(detail, {"details"}).is_object());
  EXPECT_EQ(Strings(Dig(detail, {"issues"}), "ruleId"),
            (std::set<std::string>{"links/broken-internal", "links/broken-external",
                                   "links/empty-anchor"}));
  EXPECT_TRUE(AnyLinkNames(Dig(detail, {"inlinks"}), fixture.Url("/")));
  for (const std::string& target :
       {fixture.Url("/missing.html"), fixture.ExternalUrl("/ok"), fixture.DeadUrl("/")}) {
    EXPECT_TRUE(AnyLinkNames(Dig(detail, {"outlinks"}), target)) << target;
  }
  EXPECT_EQ(
      api().Raw("GET", "crawls/" + crawl_id + "/page?" + UrlQuery(fixture.Url("/nope"))).status,
      404);

  // The summary: the site's files, and a row per rule with its count.
  const json::value summary = api().Call("GET", "crawls/" + crawl_id + "/summary");
  EXPECT_EQ(Dig(summary, {"crawl", "id"}), crawl_id.c_str());
  EXPECT_EQ(Dig(summary, {"site", "robots", "policy"}), "rules");
  EXPECT_EQ(Dig(summary, {"site", "robots", "status"}), 200);
  EXPECT_EQ(
      Strings(Dig(summary, {"site", "sitemaps", "files"}), "url"),
      (std::set<std::string>{fixture.Url("/sitemap_index.xml"), fixture.Url("/sitemap-pages.xml"),
                             fixture.Url("/sitemap-more.xml.gz")}))
      << "the index, a plain and a gzip sitemap; /sitemap.xml answered 404 and is no file";
  std::int64_t listed = 0;
  for (const json::value& row : fixture.ExpectedPages()) listed += !row.at("sitemap").is_null();
  EXPECT_EQ(Dig(summary, {"site", "sitemaps", "urls"}), listed);
  EXPECT_EQ(Dig(summary, {"site", "llmsTxt", "present"}), true);
  EXPECT_EQ(Dig(summary, {"site", "llmsTxt", "wellFormed"}), true);
  std::map<std::string, std::int64_t> expected, rows;
  for (const auto& finding : fixture.ExpectedIssues()) ++expected[finding.first];
  for (const json::value& row : List(summary, {"rules"})) {
    if (Dig(row, {"count"}) == 0) continue;
    rows[Text(Dig(row, {"ruleId"}))] = Int(Dig(row, {"count"}));
    EXPECT_EQ(Dig(row, {"new"}), Dig(row, {"count"})) << row;
  }
  EXPECT_EQ(rows, expected);
}

// The fixture changes one page between two crawls: its old finding is fixed, its new one new,
// all others still open; the unchanged pages answer 304 to the crawler's conditional requests.
TEST_P(SiteAudit, ASecondCrawlSaysWhatIsNewStillOpenAndFixed) {
  FixtureSite fixture;
  const std::string site = api().AddVerifiedSite(fixture);
  const json::object first = api().Crawl(site);
  ASSERT_EQ(Dig(first, {"status"}), "completed") << json::serialize(first);
  const IssueSet before = IssueKeys(api().Issues(IdOf(first)));
  fixture.ClearRequests();
  fixture.Change("/fixable.html");

  const json::object second = api().Crawl(site);
  ASSERT_EQ(Dig(second, {"status"}), "completed") << json::serialize(second);
  EXPECT_EQ(Dig(second, {"previousCrawlId"}), IdOf(first).c_str());
  const IssueSet fixed = IssueKeys(api().Issues(IdOf(second), "state=fixed"));
  const IssueSet fresh = IssueKeys(api().Issues(IdOf(second), "state=new"));
  const IssueSet open = IssueKeys(api().Issues(IdOf(second), "state=open"));
  EXPECT_EQ(fixed, (IssueSet{{"h1/missing", fixture.Url("/fixable.html")}}));
  EXPECT_EQ(fresh, (IssueSet{{"h1/multiple", fixture.Url("/fixable.html")}}));
  IssueSet still = before;
  still.erase({"h1/missing", fixture.Url("/fixable.html")});
  EXPECT_EQ(open, still) << "missing:\n" << Difference(still, open);
  IssueSet now = open;
  now.insert(fresh.begin(), fresh.end());
  EXPECT_EQ(now, fixture.ExpectedIssues());
  EXPECT_EQ(Dig(second, {"counts", "new"}), 1);
  EXPECT_EQ(Dig(second, {"counts", "fixed"}), 1);
  EXPECT_EQ(Dig(second, {"counts", "open"}), static_cast<std::int64_t>(still.size()));

  // Every page that answered 200 before is asked with its validators; only the changed one
  // answers with a body.
  std::set<std::string> pages, asked;
  for (const json::value& row : fixture.ExpectedPages()) {
    if (row.at("status") == 200 && !row.at("blocked").as_bool()) pages.insert(Text(row.at("path")));
  }
  for (const json::value& r : fixture.Requests()) {
    const std::string path(r.at("path").as_string());
    EXPECT_NE(path, "/robots.txt") << "robots.txt is cached for up to 24 hours";
    const json::object& headers = r.at("headers").as_object();
    if (r.at("server") != "site" || !headers.contains("if-none-match")) continue;
    asked.insert(path);
    EXPECT_TRUE(headers.contains("if-modified-since")) << path;
    EXPECT_EQ(r.at("status"), path == "/fixable.html" ? 200 : 304) << path;
  }
  EXPECT_EQ(asked, pages);
}

TEST_P(SiteAudit, ARobotsTxtAnswering5xxDisallowsEverything) {
  FixtureSite fixture({"--robots=500"});
  const std::string site = api().AddVerifiedSite(fixture);
  fixture.ClearRequests();
  const json::object crawl = api().Crawl(site);
  ASSERT_EQ(Dig(crawl, {"status"}), "completed") << json::serialize(crawl);
  const json::array requests = fixture.Requests();
  EXPECT_FALSE(requests.empty());
  EXPECT_EQ(Strings(requests, "path"), std::set<std::string>{"/robots.txt"})
      << "RFC 9309 2.3.1.4: a 5xx robots.txt disallows everything else";
  const json::array issues = api().Issues(IdOf(crawl));
  EXPECT_EQ(Dig(FindIssue(issues, "robots/unreachable", ""), {"evidence", "status"}), 500);
  EXPECT_FALSE(IssueKeys(issues).contains({"robots/blocked-url", fixture.Url("/")}))
      << "said once, site-wide";
  const json::array pages = api().Pages(IdOf(crawl));
  ASSERT_EQ(pages.size(), 1u) << json::serialize(pages);
  EXPECT_EQ(Dig(pages, {"0", "url"}), fixture.Url("/").c_str());
  EXPECT_EQ(Dig(pages, {"0", "state"}), "blocked");
  EXPECT_EQ(
      Dig(api().Call("GET", "crawls/" + IdOf(crawl) + "/summary"), {"site", "robots", "policy"}),
      "disallow_all");
}

TEST_P(SiteAudit, ARunningOrQueuedCrawlCanBeCancelled) {
  FixtureSite fixture({"--delay-ms=1000"});  // every page takes a second
  const std::string site = api().AddVerifiedSite(fixture);
  const std::string id = IdOf(api().StartCrawl(site, R"({"concurrency":1,"delayMs":0})"));
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  json::value crawl;
  do {
    std::this_thread::sleep_for(100ms);
    crawl = api().Call("GET", "crawls/" + id);
  } while (Int(Dig(crawl, {"progress", "done"})) < 2 &&
           std::chrono::steady_clock::now() < deadline);
  ASSERT_EQ(Dig(crawl, {"status"}), "running") << crawl;

  const Response busy = api().Raw("POST", "sites/" + site + "/crawls", "{}");
  EXPECT_EQ(busy.status, 409) << busy.body;
  EXPECT_EQ(busy.ErrorCode(), "AUDIT_002");
  EXPECT_EQ(Dig(busy.Json(), {"error", "details", "crawlId"}), id.c_str());

  EXPECT_EQ(Dig(api().Call("POST", "crawls/" + id + "/cancel"), {"cancelRequested"}), true);
  const json::object cancelled = api().WaitForCrawl(id, 20s);
  EXPECT_EQ(Dig(cancelled, {"status"}), "cancelled");
  EXPECT_FALSE(Dig(cancelled, {"finishedAt"}).is_null());
  EXPECT_LT(Int(Dig(cancelled, {"progress", "done"})), 10) << "stopped early";
  const std::size_t asked = fixture.Requests().size();
  std::this_thread::sleep_for(2500ms);
  EXPECT_EQ(fixture.Requests().size(), asked) << "no request after the cancellation";

  // A crawl cancelled at once (most likely still queued), twice, ends cancelled too.
  const std::string next = IdOf(api().StartCrawl(site, R"({"concurrency":1,"delayMs":0})"));
  api().Call("POST", "crawls/" + next + "/cancel");
  api().Call("POST", "crawls/" + next + "/cancel");
  EXPECT_EQ(Dig(api().WaitForCrawl(next, 20s), {"status"}), "cancelled");
  EXPECT_EQ(Strings(Dig(api().Call("GET", "crawls?siteId=" + site), {"crawls"}), "id"),
            (std::set<std::string>{id, next}));
}

// Crawls are background work in the store: with two nodes on it, each crawl is run by one of
// them; a node that stops gives its leases up and the other resumes from the stored URLs, so
// the crawl ends with the same findings as one run straight through, each page fetched once
// (or twice when a stop caught its fetch in flight).
TEST_P(SiteAudit, ACrawlResumesOnTheOtherNodeWhenItsNodeStops) {
  FixtureSite fixture({"--delay-ms=150"});
  const std::string site = api().AddVerifiedSite(fixture);
  auto second = std::make_unique<ServerProcess>(
      GetParam(), SiteAuditServerArgs(GetParam(), keys_.path()));
  fixture.ClearRequests();
  const std::string id = IdOf(api().StartCrawl(site, R"({"concurrency":1,"delayMs":0})"));
  auto wait_for_done = [&](std::int64_t pages) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    json::value crawl;
    do {
      std::this_thread::sleep_for(100ms);
      crawl = SiteAuditApi(*second, creds_).Call("GET", "crawls/" + id);
    } while (Int(Dig(crawl, {"progress", "done"})) < pages &&
             Dig(crawl, {"status"}) != "completed" && std::chrono::steady_clock::now() < deadline);
    return crawl;
  };
  ASSERT_EQ(Dig(wait_for_done(3), {"status"}), "running");
  EXPECT_EQ(server_->Stop(), 0);  // whichever node crawls, the other goes on
  StartServer();
  const json::value halfway = wait_for_done(12);
  EXPECT_EQ(second->Stop(), 0);
  second.reset();
  const json::object crawl = api().WaitForCrawl(id, 120s);
  ASSERT_EQ(Dig(crawl, {"status"}), "completed") << crawl << "\nhalfway: " << halfway;

  std::map<std::string, int> fetches;
  for (const auto& request : fixture.Requests()) {
    if (Dig(request, {"server"}) == "site" && Dig(request, {"method"}) == "GET") {
      ++fetches[Text(Dig(request, {"path"}))];
    }
  }
  int refetched = 0;
  for (const auto& [path, count] : fetches) {
    EXPECT_LE(count, 2) << path;
    refetched += count > 1;
  }
  // robots.txt and the site's files are read again by a resumed crawl only when not cached.
  EXPECT_LE(refetched, 8) << "pages fetched twice";
  EXPECT_EQ(IssueKeys(api().Issues(id)), fixture.ExpectedIssues())
      << "missing:\n" << Difference(fixture.ExpectedIssues(), IssueKeys(api().Issues(id)))
      << "unexpected:\n" << Difference(IssueKeys(api().Issues(id)), fixture.ExpectedIssues());
}

TEST_P(SiteAudit, BadInputIsRefusedAndUnknownIdsAreNotFound) {
  for (const char* body : {R"({"url":"ftp://example.com/"})", R"({"url":"not a url"})", "{}"}) {
    const Response r = api().Raw("POST", "sites", body);
    EXPECT_EQ(r.status, 400) << body << ": " << r.body;
  }
  FixtureSite fixture;
  const std::string crawls = "sites/" + api().AddVerifiedSite(fixture) + "/crawls";
  for (const char* body : {R"({"maxPages":0})", R"({"maxPages":100001})", R"({"concurrency":9})",
                           R"({"maxDepth":101})", R"({"delayMs":-1})", R"({"delayMs":60001})"}) {
    const Response r = api().Raw("POST", crawls, body);
    EXPECT_EQ(r.status, 400) << body << ": " << r.body;
    EXPECT_EQ(r.ErrorCode().substr(0, 4), "VAL_") << body;
  }
  const Response elsewhere = api().Raw("POST", crawls, R"({"startUrl":"http://elsewhere.test/"})");
  EXPECT_TRUE(elsewhere.status == 400 || elsewhere.status == 409)
      << "a start URL off the verified site: " << elsewhere.body;
  for (const auto& [method, rest] :
       std::vector<std::pair<std::string, std::string>>{{"GET", "sites/nope"},
                                                        {"POST", "sites/nope/verify"},
                                                        {"POST", "sites/nope/crawls"},
                                                        {"GET", "crawls/nope"},
                                                        {"POST", "crawls/nope/cancel"},
                                                        {"GET", "crawls/nope/issues"},
                                                        {"GET", "crawls/nope/pages"},
                                                        {"GET", "crawls/nope/summary"}}) {
    const Response r = api().Raw(method, rest, method == "POST" ? "{}" : "");
    EXPECT_EQ(r.status, 404) << method << " " << rest << ": " << r.body;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SiteAudit, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
