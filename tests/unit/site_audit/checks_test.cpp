#include "site_audit/checks.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "tests/sanitizer/slowdown.h"
#include "tests/unit/site_audit/checks_fixture.h"

namespace sightline::site_audit {
namespace {

using testing::Crawl;
using testing::U;
namespace json = boost::json;
using Pairs = std::vector<std::string>;

TEST(SiteAuditChecks, CleanSiteHasNoFindings) {
  Crawl crawl;
  crawl.Html("/a", {});
  crawl.Link(U("/a"), U("/"));
  EXPECT_EQ(crawl.Pairs(), Pairs{});
}

TEST(SiteAuditChecks, StatusAndBrokenLinksAreReportedPerSourcePage) {
  Crawl crawl;
  crawl.Add(U("/gone"), 404, {});
  crawl.Add(U("/boom"), 503, {});
  crawl.Add(U("/dead"), 0, {{"error", "connection refused"}});
  crawl.Add("https://other.org/x", 404, {});
  crawl.Add("https://other.org/busy", 429, {});
  for (const char* to : {"/gone", "/boom", "/dead", "/gone"}) crawl.Link(U("/"), U(to), "t");
  crawl.Link(U("/"), "https://other.org/x", "ext");
  crawl.Link(U("/"), "https://other.org/busy", "ext");
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"links/broken-external " + U("/"), "links/broken-internal " + U("/"),
                   "status/client-error " + U("/gone"), "status/server-error " + U("/boom"),
                   "status/unreachable " + U("/dead")}));
  const Finding broken = crawl.Of("links/broken-internal").at(0);
  EXPECT_EQ(broken.evidence.at("count"), 3);
  EXPECT_EQ(broken.evidence.at("links").as_array().at(0),
            (json::object{{"href", U("/gone")}, {"status", 404}, {"anchor", "t"}}));
  EXPECT_TRUE(broken.evidence.at("links").as_array().at(2).at("status").is_null());
  EXPECT_EQ(crawl.Of("status/client-error").at(0).evidence.at("linkedFrom"),
            (json::array{json::string(U("/"))}));
  EXPECT_EQ(crawl.Of("status/unreachable").at(0).evidence.at("error"), "connection refused");
}

TEST(SiteAuditChecks, EmptyAnchorsAreListedOncePerHref) {
  Crawl crawl;
  crawl.Html("/a", {});
  crawl.Link(U("/a"), U("/"), " ");
  crawl.Link(U("/a"), U("/"), "");
  const auto found = crawl.Of("links/empty-anchor");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].url, U("/a"));
  EXPECT_EQ(found[0].evidence.at("links"), (json::array{json::string(U("/"))}));
}

TEST(SiteAuditChecks, RedirectChainOfThreeHops) {
  Crawl crawl;
  crawl.Redirect("/r1", U("/r2"));
  crawl.Redirect("/r2", U("/r3"));
  crawl.Redirect("/r3", U("/final"));
  crawl.Redirect("/one-hop", U("/final"));
  crawl.Html("/final", {});
  crawl.Link(U("/"), U("/r1"));
  crawl.Link(U("/"), U("/one-hop"));
  EXPECT_EQ(crawl.Pairs(), Pairs{"redirects/chain " + U("/r1")});
  const Finding chain = crawl.Of("redirects/chain").at(0);
  EXPECT_EQ(chain.evidence.at("hops"), 3);
  EXPECT_EQ(chain.evidence.at("chain"),
            (json::array{json::string(U("/r1")), json::string(U("/r2")), json::string(U("/r3")),
                         json::string(U("/final"))}));
  EXPECT_EQ(chain.evidence.at("final"), json::value(U("/final")));
  EXPECT_EQ(chain.evidence.at("finalStatus"), 200);
}

TEST(SiteAuditChecks, RedirectLoopIsReportedWhereItIsEntered) {
  Crawl crawl;
  crawl.Redirect("/loop-a", U("/loop-b"));
  crawl.Redirect("/loop-b", U("/loop-a"));
  crawl.Link(U("/"), U("/loop-b"));
  EXPECT_EQ(crawl.Pairs(), Pairs{"redirects/loop " + U("/loop-b")});
  EXPECT_EQ(crawl.Of("redirects/loop").at(0).evidence.at("hops"), 2);
  // Nobody links in: the cycle is still reported, once.
  crawl.links.pop_back();
  EXPECT_EQ(crawl.Pairs(), Pairs{"redirects/loop " + U("/loop-a")});
}

TEST(SiteAuditChecks, Canonicals) {
  Crawl crawl;
  crawl.Html("/none", {{"canonicals", json::array()}});
  crawl.Html("/two", {{"canonicals", json::array{json::string(U("/a")), json::string(U("/b"))}}});
  crawl.Html("/to-404", {{"canonicals", json::array{json::string(U("/gone"))}}});
  crawl.Html("/to-redirect", {{"canonicals", json::array{json::string(U("/moved"))}}});
  crawl.Html("/to-noindex", {{"canonicals", json::array{json::string(U("/hidden"))}}});
  crawl.Html("/to-blocked", {{"canonicals", json::array{json::string(U("/private"))}}});
  crawl.Html("/to-unknown", {{"canonicals", json::array{"https://example.com/never"}}});
  crawl.Html("/hidden", {{"metaRobots", json::array{"noindex"}}});
  crawl.Add(U("/gone"), 404, {});
  crawl.Redirect("/moved", U("/"));
  crawl.Add(U("/private"), 0, {}).state = "blocked";
  EXPECT_EQ(crawl.Of("canonical/missing").size(), 1u);
  EXPECT_EQ(crawl.Of("canonical/missing").at(0).url, U("/none"));
  EXPECT_EQ(crawl.Of("canonical/conflicting").at(0).url, U("/two"));
  const auto not_ok = crawl.Of("canonical/target-not-ok");
  ASSERT_EQ(not_ok.size(), 2u);
  EXPECT_EQ(not_ok[0].evidence, (json::object{{"canonical", U("/gone")}, {"targetStatus", 404}}));
  EXPECT_EQ(not_ok[1].url, U("/to-redirect"));
  EXPECT_EQ(not_ok[1].evidence.at("redirectTo"), json::value(U("/")));
  const auto not_indexable = crawl.Of("canonical/target-not-indexable");
  ASSERT_EQ(not_indexable.size(), 2u);
  EXPECT_EQ(not_indexable[0].url, U("/to-blocked"));
  EXPECT_EQ(not_indexable[0].evidence.at("reason"), "robots");
  EXPECT_EQ(not_indexable[1].url, U("/to-noindex"));
  EXPECT_EQ(not_indexable[1].evidence.at("reason"), "noindex");
  EXPECT_TRUE(crawl.Of("canonical/loop").empty());
}

TEST(SiteAuditChecks, CanonicalLoop) {
  Crawl crawl;
  crawl.Html("/a", {{"canonicals", json::array{json::string(U("/b"))}}});
  crawl.Html("/b", {{"canonicals", json::array{json::string(U("/a"))}}});
  crawl.Html("/c", {{"canonicals", json::array{json::string(U("/a"))}}});  // into the loop
  EXPECT_EQ(crawl.Pairs(), (Pairs{"canonical/loop " + U("/a"), "canonical/loop " + U("/b")}));
  EXPECT_EQ(crawl.Of("canonical/loop").at(0).evidence.at("chain"),
            (json::array{json::string(U("/a")), json::string(U("/b")), json::string(U("/a"))}));
}

json::array Alternates(std::initializer_list<std::pair<const char*, std::string>> items) {
  json::array out;
  for (const auto& [lang, href] : items)
    out.push_back(json::object{{"lang", lang}, {"href", href}});
  return out;
}

TEST(SiteAuditChecks, HreflangReciprocity) {
  Crawl crawl;
  crawl.Html("/en", {{"hreflang", Alternates({{"en", U("/en")}, {"de", U("/de")}})}});
  crawl.Html("/de", {{"hreflang", Alternates({{"de", U("/de")}, {"en", U("/en")}})}});
  EXPECT_EQ(crawl.Pairs(), Pairs{});  // a reciprocal pair
  crawl.Html("/fr", {{"hreflang", Alternates({{"en", U("/en")}, {"es", U("/es")}})}});
  crawl.Add(U("/es"), 404, {});
  crawl.Link(U("/"), U("/es"));
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"hreflang/not-reciprocal " + U("/fr"), "hreflang/target-not-ok " + U("/fr"),
                   "links/broken-internal " + U("/"), "status/client-error " + U("/es")}));
  const Finding one_way = crawl.Of("hreflang/not-reciprocal").at(0);
  EXPECT_EQ(one_way.evidence.at("hreflang"), "en");
  EXPECT_EQ(one_way.evidence.at("target"), json::value(U("/en")));
  EXPECT_EQ(crawl.Of("hreflang/target-not-ok").at(0).evidence.at("targetStatus"), 404);
}

TEST(SiteAuditChecks, DuplicateTitlesAcrossThreePages) {
  Crawl crawl;
  for (const char* path : {"/x", "/y", "/z"})
    crawl.Html(path, {{"titles", json::array{"Same title"}}});
  crawl.Html("/hidden",
             {{"titles", json::array{"Same title"}}, {"metaRobots", json::array{"noindex"}}});
  const auto found = crawl.Of("title/duplicate");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].url, U("/x"));
  EXPECT_EQ(found[0].evidence,
            (json::object{{"title", "Same title"},
                          {"pages", json::array{json::string(U("/y")), json::string(U("/z"))}},
                          {"count", 3}}));
  EXPECT_TRUE(crawl.Of("description/duplicate").empty());
  const json::array same{"One description shared by two pages, which is long enough."};
  crawl.Html("/d1", {{"descriptions", same}});
  crawl.Html("/d2", {{"descriptions", same}});
  const auto descriptions = crawl.Of("description/duplicate");
  ASSERT_EQ(descriptions.size(), 2u);
  EXPECT_EQ(descriptions[1].url, U("/d2"));
  EXPECT_EQ(descriptions[1].evidence.at("pages"), (json::array{json::string(U("/d1"))}));
}

TEST(SiteAuditChecks, TitleAndDescriptionRules) {
  Crawl crawl;
  crawl.Html("/no-title", {{"titles", json::array{"  "}}});
  crawl.Html("/two-titles", {{"titles", json::array{"A fine title", "Another title"}}});
  std::string e30, e61;  // "é" is 2 bytes: 60 bytes is 30 characters
  for (int i = 0; i < 30; ++i) e30 += "é";
  for (int i = 0; i < 61; ++i) e61 += "é";
  crawl.Html("/accented", {{"titles", json::array{json::string(e30)}}});
  crawl.Html("/long", {{"titles", json::array{json::string(e61)}}});
  crawl.Html("/short", {{"titles", json::array{"Hi"}}});
  crawl.Html("/no-desc", {{"descriptions", json::array()}});
  crawl.Html("/short-desc", {{"descriptions", json::array{"Too short."}}});
  crawl.Html("/long-desc", {{"descriptions", json::array{json::string(std::string(161, 'd'))}}});
  // A noindex page: its title is still required, its snippet texts are not judged.
  crawl.Html("/hidden", {{"titles", json::array()},
                         {"descriptions", json::array()},
                         {"metaRobots", json::array{"noindex"}},
                         {"h1", json::array()}});
  EXPECT_EQ(
      crawl.Pairs(),
      (Pairs{"description/missing " + U("/no-desc"), "description/too-long " + U("/long-desc"),
             "description/too-short " + U("/short-desc"), "indexability/noindex " + U("/hidden"),
             "sitemap/non-indexable-url " + U("/hidden"), "title/missing " + U("/hidden"),
             "title/missing " + U("/no-title"), "title/multiple " + U("/two-titles"),
             "title/too-long " + U("/long"), "title/too-short " + U("/short")}));
  EXPECT_EQ(crawl.Of("title/too-long").at(0).evidence.at("length"), 61);
}

TEST(SiteAuditChecks, MarkupRules) {
  Crawl crawl;
  crawl.Html("/bare", {{"h1", json::array()}, {"lang", nullptr}, {"viewport", false}});
  crawl.Html("/h1s",
             {{"h1", json::array{"One", "Two"}}, {"imagesWithoutAlt", json::array{"a.png"}}});
  json::object data{
      {"blocks", 2},
      {"errors", json::array{"block 2: expected '}'"}},
      {"items", json::array{json::object{{"type", "Product"},
                                         {"missingRequired", json::array{"name"}},
                                         {"missingRecommended", json::array{"sku"}}}}}};
  crawl.Html("/data", {{"structuredData", data}});
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"h1/missing " + U("/bare"), "h1/multiple " + U("/h1s"),
                   "html/lang-missing " + U("/bare"), "html/viewport-missing " + U("/bare"),
                   "images/missing-alt " + U("/h1s"), "structured-data/invalid " + U("/data"),
                   "structured-data/missing-recommended " + U("/data"),
                   "structured-data/missing-required " + U("/data")}));
  EXPECT_EQ(crawl.Of("structured-data/missing-required").at(0).evidence.at("items"),
            (json::array{json::object{{"type", "Product"}, {"missing", json::array{"name"}}}}));
}

TEST(SiteAuditChecks, MixedContentOnlyOnHttpsPages) {
  Crawl crawl;
  const json::array mixed{"http://cdn.example.com/a.js"};
  crawl.Html("/secure", {{"mixedContent", mixed}});
  json::object plain = testing::CleanDetails("http://example.com/plain");
  plain["mixedContent"] = mixed;
  crawl.Add("http://example.com/plain", 200, plain).internal = true;
  crawl.Link(U("/"), "http://example.com/plain");
  EXPECT_EQ(crawl.Of("security/mixed-content").size(), 1u);
  EXPECT_EQ(crawl.Of("security/mixed-content").at(0).url, U("/secure"));
  EXPECT_EQ(crawl.Of("security/mixed-content").at(0).evidence.at("resources"), mixed);
}

TEST(SiteAuditChecks, DepthAndSlowResponse) {
  Crawl crawl;
  crawl.Html("/deep", {}).depth = 4;
  crawl.Html("/ok", {}).depth = 3;
  crawl.Html("/slow", {}).ttfb_ms = 1501;
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"depth/too-deep " + U("/deep"), "performance/slow-response " + U("/slow")}));
}

TEST(SiteAuditChecks, OrphansAndPagesMissingFromTheSitemap) {
  Crawl crawl;
  crawl.Html("/linked", {});
  crawl.Html("/orphan", {});
  crawl.links.pop_back();  // nobody links to /orphan
  crawl.Html("/via-redirect", {});
  crawl.links.pop_back();
  crawl.Redirect("/old", U("/via-redirect"));  // linked, and leads to a sitemap URL
  crawl.Link(U("/linked"), U("/old"));
  crawl.Html("/unlisted", {}).in_sitemap = false;
  crawl.Html("/unlisted-hidden", {{"metaRobots", json::array{"noindex"}}}).in_sitemap = false;
  crawl.Html("/dup", {{"canonicals", json::array{json::string(U("/linked"))}}}).in_sitemap = false;
  crawl.Add(U("/moved"), 301, {{"redirectTo", U("/")}}).in_sitemap = true;
  crawl.Link(U("/"), U("/moved"));
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"indexability/noindex " + U("/unlisted-hidden"),
                   "sitemap/non-indexable-url " + U("/moved"),
                   "sitemap/not-in-sitemap " + U("/unlisted"), "sitemap/orphan " + U("/orphan")}));
  EXPECT_EQ(crawl.Of("sitemap/non-indexable-url").at(0).evidence,
            (json::object{{"reason", "redirect"}, {"status", 301}, {"redirectTo", U("/")}}));
  // Without any sitemap, nothing is "missing" from it.
  for (auto& page : crawl.pages) page.in_sitemap = false;
  crawl.site["sitemaps"] = json::object{{"files", json::array()}, {"urls", 0}};
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"indexability/noindex " + U("/unlisted-hidden"), "sitemap/none "}));
}

TEST(SiteAuditChecks, RobotsTxt) {
  Crawl crawl;
  crawl.Add(U("/admin"), 0, {{"robotsRule", "/admin"}, {"robotsLine", 3}}).state = "blocked";
  crawl.Add(U("/cart"), 0, {{"robotsRule", "/cart"}, {"robotsLine", 4}}).state = "blocked";
  crawl.Link(U("/"), U("/admin"));  // /cart was only met as, say, a canonical target
  EXPECT_EQ(crawl.Pairs(), Pairs{"robots/blocked-url " + U("/admin")});
  EXPECT_EQ(crawl.Of("robots/blocked-url").at(0).evidence.at("robotsLine"), 3);
  crawl.site["robots"].as_object()["policy"] = "disallow_all";
  crawl.site["robots"].as_object()["status"] = 503;
  EXPECT_EQ(crawl.Pairs(), Pairs{"robots/unreachable "});
  EXPECT_EQ(crawl.Of("robots/unreachable").at(0).evidence.at("status"), 503);
}

TEST(SiteAuditChecks, SitemapFiles) {
  Crawl crawl;
  json::array& files = crawl.site["sitemaps"].as_object()["files"].as_array();
  files.push_back(json::object{{"url", U("/listed.xml")},
                               {"status", 500},
                               {"kind", "invalid"},
                               {"listedInRobots", true},
                               {"problems", json::array()}});
  files.push_back(json::object{{"url", U("/sitemap_index.xml")},
                               {"status", 403},
                               {"kind", "invalid"},
                               {"listedInRobots", false},
                               {"problems", json::array()}});  // a guess: not a finding
  files.push_back(json::object{{"url", U("/big.xml")},
                               {"status", 200},
                               {"kind", "urlset"},
                               {"listedInRobots", false},
                               {"problems", json::array{"line 3: bad <loc>"}}});
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"sitemap/invalid " + U("/big.xml"), "sitemap/invalid " + U("/listed.xml")}));
}

TEST(SiteAuditChecks, Https) {
  Crawl crawl;
  json::object start = testing::CleanDetails(U("/"));
  start["hsts"] = "max-age=0";
  crawl.pages[0].details = json::serialize(start);
  crawl.site["https"].as_object()["httpRedirectsToHttps"] = false;
  crawl.site["https"].as_object()["httpStatus"] = 200;
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"security/hsts-missing " + U("/"), "security/http-not-redirected "}));
  crawl.site["https"].as_object()["httpStatus"] = 0;  // port 80 closed: nothing to downgrade to
  start.erase("hsts");
  crawl.pages[0].details = json::serialize(start);
  EXPECT_EQ(crawl.Pairs(), Pairs{"security/hsts-missing " + U("/")});
  EXPECT_TRUE(crawl.Of("security/hsts-missing").at(0).evidence.at("header").is_null());
  crawl.start_url = "http://example.com/";
  ASSERT_EQ(crawl.Of("security/no-https").size(), 1u);
  EXPECT_TRUE(crawl.Of("security/hsts-missing").empty());
}

TEST(SiteAuditChecks, AiReadiness) {
  Crawl crawl;
  json::object& robots = crawl.site["robots"].as_object();
  robots["aiCrawlers"] = json::array{
      json::object{{"name", "GPTBot"},
                   {"purpose", "training"},
                   {"access", "disallowed"},
                   {"rule", "/"},
                   {"line", 2}},
      json::object{{"name", "ClaudeBot"}, {"purpose", "training"}, {"access", "allowed"}},
      json::object{{"name", "PerplexityBot"},
                   {"purpose", "search"},
                   {"access", "partial"},
                   {"rule", "/docs"},
                   {"line", 5}}};
  const json::object contradiction{{"key", "ai-train"},
                                   {"message", "says no, lets in"},
                                   {"lines", json::array{7}},
                                   {"crawlers", json::array{"CCBot"}}};
  robots["contradictions"] = json::array{contradiction, contradiction};
  robots["aiUsage"] = json::array{
      json::object{{"directive", "Content-Signal"}, {"line", 7}, {"problems", json::array()}},
      json::object{{"directive", "Content-Usage"},
                   {"line", 8},
                   {"problems", json::array{"unknown key: foo"}}}};
  crawl.site["llmsTxt"].as_object()["wellFormed"] = false;
  EXPECT_EQ(crawl.Pairs(),
            (Pairs{"ai/crawler-blocked ", "ai/llms-txt-malformed ", "ai/usage-contradiction ",
                   "ai/usage-contradiction ", "ai/usage-line-invalid "}));
  const Finding blocked_finding = crawl.Of("ai/crawler-blocked").at(0);
  const json::array& blocked = blocked_finding.evidence.at("crawlers").as_array();
  ASSERT_EQ(blocked.size(), 2u);
  EXPECT_EQ(blocked[0].at("name"), "GPTBot");
  EXPECT_EQ(blocked[1].at("purpose"), "search");
  EXPECT_EQ(crawl.Of("ai/usage-contradiction").at(0).evidence, contradiction);
  EXPECT_EQ(crawl.Of("ai/usage-line-invalid").at(0).evidence.at("lines").as_array().size(), 1u);
  crawl.site["llmsTxt"].as_object()["present"] = false;
  EXPECT_EQ(crawl.Of("ai/llms-txt-missing").size(), 1u);
  // No survey (an old crawl): the site-wide checks stay silent.
  crawl.site = {};
  EXPECT_EQ(crawl.Pairs(), Pairs{});
}

TEST(SiteAuditRules, CatalogIsSortedUniqueAndWellFormed) {
  std::string previous;
  for (const SiteAuditRule& rule : SiteAuditRules()) {
    EXPECT_LT(previous, rule.id) << "unsorted or duplicate: " << rule.id;
    previous = std::string(rule.id);
    EXPECT_TRUE(rule.severity == "error" || rule.severity == "warning" || rule.severity == "notice")
        << rule.id;
    EXPECT_EQ(rule.id.substr(0, rule.id.find('/')), rule.category) << rule.id;
    EXPECT_FALSE(rule.title.empty());
    EXPECT_FALSE(rule.description.empty());
    EXPECT_EQ(FindAuditRule(rule.id), &rule);
  }
  EXPECT_EQ(SiteAuditRules().size(), 51u);
  EXPECT_EQ(FindAuditRule("title/nope"), nullptr);
  EXPECT_EQ(FindAuditRule("redirects/loop")->severity, "error");
}

// Crawl::Run checks every finding's rule against the catalog; this crawl trips most rules.
TEST(SiteAuditChecks, LargeCrawlIsFast) {
  Crawl crawl;
  crawl.pages.reserve(10001);
  for (int i = 0; i < 10000; ++i) {
    const std::string path = "/p" + std::to_string(i);
    crawl
        .Html(path,
              {{"titles", json::array{json::string("Title group " + std::to_string(i % 50))}}})
        .depth = i % 6;
  }
  crawl.links.reserve(200000);
  for (int i = 0; i < 190000; ++i) {
    crawl.Link(U("/p" + std::to_string(i % 10000)), U("/p" + std::to_string((i * 7919) % 10003)),
               i % 11 == 0 ? "" : "text");
  }
  const auto started = std::chrono::steady_clock::now();
  const std::vector<Finding> found = crawl.Run();
  const auto elapsed = std::chrono::steady_clock::now() - started;
  std::printf("RunChecks on 10,001 pages and 200,000 links: %lld ms\n",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()));
  EXPECT_GT(found.size(), 10000u);
  EXPECT_LT(elapsed, std::chrono::seconds(5) * sightline::testing::kSanitizerSlowdown);
}

}  // namespace
}  // namespace sightline::site_audit
