// HTML facts for the site audit: real-looking pages, markup HTML5 repairs, and hostile input
// (deep nesting, formatting-element bombs, huge values, invalid UTF-8).
#include "site_audit/html_document.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <chrono>
#include <string>

namespace sightline::site_audit {
namespace {

using Strings = std::vector<std::string>;

constexpr char kArticlePage[] = R"(<!DOCTYPE html>
<html lang=" en-GB ">
<head>
  <meta charset="utf-8">
  <title>
    Winter   tyres &amp; chains | Example Motors
  </title>
  <meta name="Description" content="How to choose winter tyres.">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="google-site-verification" content="abc123">
  <meta property="og:title" content="Winter tyres">
  <link rel="canonical" href=" https://example.com/winter-tyres ">
  <link rel="alternate" hreflang="de" href="https://example.com/de/winterreifen">
  <link rel="alternate" hreflang="x-default" href="https://example.com/winter-tyres">
  <link rel="alternate" type="application/rss+xml" href="/feed.xml">
  <link rel="stylesheet" href="/css/site.css">
  <base href="https://example.com/">
  <script type="application/ld+json">{"@type": "Article", "headline": "Winter tyres"}</script>
  <script src="/js/app.js"></script>
</head>
<body>
  <h1>Winter <em>tyres</em></h1>
  <p>Choose tyres with the <a href="/snowflake">three-peak
     mountain   snowflake</a> symbol.</p>
  <a href="https://partner.example/shop" rel="sponsored NOFOLLOW">Buy</a>
  <a href="/home"><img src="/logo.png" alt="Example Motors home"></a>
  <img src="/chart.png">
  <img src="/spacer.gif" alt="">
  <a name="no-href">anchor only</a>
</body>
</html>)";

TEST(HtmlDocument, ReadsTheFactsOfAnArticlePage) {
  const HtmlFacts facts = ParseHtml(kArticlePage);
  EXPECT_EQ(facts.lang, "en-GB");
  EXPECT_EQ(facts.titles, (Strings{"Winter tyres & chains | Example Motors"}));
  EXPECT_EQ(facts.meta_descriptions, (Strings{"How to choose winter tyres."}));
  EXPECT_TRUE(facts.has_viewport);
  EXPECT_EQ(facts.canonicals, (Strings{"https://example.com/winter-tyres"}));
  EXPECT_EQ(facts.h1s, (Strings{"Winter tyres"}));
  EXPECT_EQ(facts.base_href, "https://example.com/");
  EXPECT_TRUE(facts.robots_directives.empty());
  EXPECT_TRUE(facts.problems.empty());
  EXPECT_GT(facts.text_bytes, 40u);
  EXPECT_LT(facts.text_bytes, 200u);
}

TEST(HtmlDocument, LinksKeepOrderTextAndNofollow) {
  const HtmlFacts facts = ParseHtml(kArticlePage);
  ASSERT_EQ(facts.links.size(), 3u);  // the <a name> without href is not a link
  EXPECT_EQ(facts.links[0].href, "/snowflake");
  EXPECT_EQ(facts.links[0].text, "three-peak mountain snowflake");
  EXPECT_FALSE(facts.links[0].nofollow);
  EXPECT_EQ(facts.links[1].rel, "sponsored NOFOLLOW");
  EXPECT_TRUE(facts.links[1].nofollow);
  EXPECT_EQ(facts.links[2].text, "Example Motors home");  // an image link's text is its alt
}

TEST(HtmlDocument, ImagesTellMissingAltFromEmptyAlt) {
  const HtmlFacts facts = ParseHtml(kArticlePage);
  ASSERT_EQ(facts.images.size(), 3u);
  EXPECT_EQ(facts.images[0].alt, "Example Motors home");
  EXPECT_EQ(facts.images[1].src, "/chart.png");
  EXPECT_EQ(facts.images[1].alt, std::nullopt);
  EXPECT_EQ(facts.images[2].alt, "");
}

TEST(HtmlDocument, HreflangAlternatesJsonLdAndMetas) {
  const HtmlFacts facts = ParseHtml(kArticlePage);
  ASSERT_EQ(facts.alternates.size(), 2u);  // the RSS alternate has no hreflang
  EXPECT_EQ(facts.alternates[0].hreflang, "de");
  EXPECT_EQ(facts.alternates[0].href, "https://example.com/de/winterreifen");
  EXPECT_EQ(facts.alternates[1].hreflang, "x-default");
  EXPECT_EQ(facts.json_ld, (Strings{R"({"@type": "Article", "headline": "Winter tyres"})"}));
  using Meta = std::pair<std::string, std::string>;
  EXPECT_EQ(facts.metas, (std::vector<Meta>{{"description", "How to choose winter tyres."},
                                            {"viewport", "width=device-width, initial-scale=1"},
                                            {"google-site-verification", "abc123"},
                                            {"og:title", "Winter tyres"}}));
}

TEST(HtmlDocument, MissingTitleAndLang) {
  const HtmlFacts facts = ParseHtml("<html><head></head><body><p>Hello</p></body></html>");
  EXPECT_EQ(facts.lang, std::nullopt);
  EXPECT_TRUE(facts.titles.empty());
  EXPECT_TRUE(facts.h1s.empty());
  EXPECT_FALSE(facts.has_viewport);
  EXPECT_EQ(facts.text_bytes, 5u);
}

TEST(HtmlDocument, TwoTitlesAreBothReported) {
  const HtmlFacts facts =
      ParseHtml("<title>First</title><title>Second</title><body><svg><title>Icon</title></svg>");
  EXPECT_EQ(facts.titles, (Strings{"First", "Second"}));  // an SVG <title> is not the page's
}

TEST(HtmlDocument, CanonicalRelIsACaseInsensitiveTokenList) {
  const HtmlFacts facts = ParseHtml(R"(<link rel="Canonical foo" href="/a">
      <link rel="canonicalish" href="/b"><link rel="canonical">
      <link rel=" CANONICAL " href="/c">)");
  EXPECT_EQ(facts.canonicals, (Strings{"/a", "/c"}));
}

TEST(HtmlDocument, RobotsDirectivesFromRobotsAndOurOwnMeta) {
  const HtmlFacts facts = ParseHtml(R"(<meta name="ROBOTS" content=" NoIndex ,NoFollow,,">
      <meta name="ServiceAuditBot" content="noarchive, max-snippet:50">
      <meta name="googlebot" content="nosnippet">)");
  EXPECT_EQ(facts.robots_directives,
            (Strings{"noindex", "nofollow", "noarchive", "max-snippet:50"}));
}

TEST(HtmlDocument, UnclosedAndMisnestedTagsAreReadAsBrowsersRepairThem) {
  const HtmlFacts facts = ParseHtml(
      "<html lang=fr><title>Repaired<body><h1>Heading<p>One<p>Two"
      "<a href=/a>first<a href=/b>second</b><div>block</div>"
      "<table><a href=/c>fostered</a><tr><td>cell");
  EXPECT_EQ(facts.titles, (Strings{"Repaired<body><h1>Heading<p>One<p>Two<a href=/a>first"
                                   "<a href=/b>second</b><div>block</div><table><a href=/c>"
                                   "fostered</a><tr><td>cell"}));  // <title> is raw text
  const HtmlFacts body = ParseHtml(
      "<html lang=fr><title>Repaired</title><h1>Heading<p>One<p>Two"
      "<a href=/a>first<a href=/b>second</b><div>block</div>"
      "<table><a href=/c>fostered</a><tr><td>cell");
  EXPECT_EQ(body.lang, "fr");
  EXPECT_EQ(body.titles, (Strings{"Repaired"}));
  EXPECT_EQ(body.h1s, Strings{"HeadingOneTwofirstsecondblockfosteredcell"});  // never closed
  // A second <a> closes the first; the adoption agency algorithm then moves the <div> out of
  // the unclosed "/b" link and wraps its content in a copy of that link, as browsers do.
  ASSERT_EQ(body.links.size(), 4u);
  EXPECT_EQ(body.links[0].text, "first");
  EXPECT_EQ(body.links[1].text, "second");
  EXPECT_EQ(body.links[2].href, "/b");
  EXPECT_EQ(body.links[2].text, "block");
  EXPECT_EQ(body.links[3].href, "/c");  // fostered out of the table
  EXPECT_EQ(body.links[3].text, "fostered");
}

TEST(HtmlDocument, SubresourcesForTheMixedContentCheck) {
  const HtmlFacts facts = ParseHtml(R"(<head>
      <link rel="stylesheet" href="http://cdn.example/a.css">
      <link rel="shortcut icon" href="http://example.com/favicon.ico">
      <link rel="preload" as="font" href="https://example.com/f.woff2">
      <link rel="alternate" hreflang="de" href="http://example.com/de/">
      <script src=" http://cdn.example/lib.js "></script>
    </head><body>
      <a href="http://example.com/page">plain links are not subresources</a>
      <img src="http://img.example/a.jpg"
           srcset="https://img.example/w_100,h_50/a.jpg 1x, http://img.example/b.jpg 2x,
                   data:image/png;base64,AAA= 3x">
      <picture><source srcset="http://img.example/c.webp" type="image/webp"></picture>
      <iframe src="http://video.example/embed"></iframe>
      <video src="/v.mp4" poster="http://img.example/poster.jpg">
        <track src="http://example.com/captions.vtt"></video>
      <audio src="http://example.com/a.mp3"></audio>
      <embed src="http://example.com/e.swf"><object data="http://example.com/o.pdf"></object>
      <form action="http://example.com/search"><input type="image" src="http://example.com/go.png">
      </form>
    </body>)");
  EXPECT_EQ(
      facts.subresources,
      (Strings{
          "http://cdn.example/a.css", "http://example.com/favicon.ico",
          "https://example.com/f.woff2", "http://cdn.example/lib.js", "http://img.example/a.jpg",
          "https://img.example/w_100,h_50/a.jpg", "http://img.example/b.jpg",
          "data:image/png;base64,AAA=", "http://img.example/c.webp", "http://video.example/embed",
          "/v.mp4", "http://img.example/poster.jpg", "http://example.com/captions.vtt",
          "http://example.com/a.mp3", "http://example.com/e.swf", "http://example.com/o.pdf",
          "http://example.com/search", "http://example.com/go.png"}));
}

TEST(HtmlDocument, JsonLdBlocksByMimeEssence) {
  const HtmlFacts facts = ParseHtml(R"(
      <script type="Application/LD+JSON; charset=utf-8">
        {"@type": "Product"}
      </script>
      <script type="application/json">{"not": "ld"}</script>
      <script>var ld = "<script type='application/ld+json'>";</script>
      <body><script type="application/ld+json">[1, "</p>"]</script>)");
  ASSERT_EQ(facts.json_ld.size(), 2u);
  EXPECT_EQ(facts.json_ld[0], "\n        {\"@type\": \"Product\"}\n      ");  // raw, untrimmed
  EXPECT_EQ(facts.json_ld[1], R"([1, "</p>"])");
}

TEST(HtmlDocument, VisibleTextLeavesOutScriptsStylesAndTemplates) {
  const HtmlFacts facts = ParseHtml(
      "<head><title>Not counted</title><style>p{}</style></head><body>"
      "<p>Hello,\n\n   world</p><script>var x = 1;</script><noscript>Enable JS</noscript>"
      "<template><p>inert</p><a href=/t>template link</a></template></body>");
  EXPECT_EQ(facts.text_bytes, std::string("Hello, world").size());
  EXPECT_TRUE(facts.links.empty());  // <template> content is not part of the page
}

TEST(HtmlDocument, SvgLinksAndImageMapAreas) {
  const HtmlFacts facts = ParseHtml(
      R"(<svg><a href="/from-svg"><text>Chart</text></a></svg>
         <map name=m><area href="/north" alt="North region"><area alt="no href"></map>)");
  ASSERT_EQ(facts.links.size(), 2u);
  EXPECT_EQ(facts.links[0].href, "/from-svg");
  EXPECT_EQ(facts.links[0].text, "Chart");
  EXPECT_EQ(facts.links[1].text, "North region");
}

TEST(HtmlDocument, InvalidUtf8BecomesReplacementCharacters) {
  constexpr char kPage[] = "<title>Caf\xC3 \xFF\xFE ok</title><p>\x80\x80 text\0 more";
  const HtmlFacts facts = ParseHtml(std::string_view(kPage, sizeof kPage - 1));
  EXPECT_EQ(facts.text_bytes, std::string("\xEF\xBF\xBD\xEF\xBF\xBD text more").size());
  ASSERT_EQ(facts.titles.size(), 1u);
  EXPECT_NE(facts.titles[0].find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD
  EXPECT_NE(facts.titles[0].find("ok"), std::string::npos);
}

TEST(HtmlDocument, LongTextsAreCutAtACharacterBoundary) {
  std::string title;
  for (int i = 0; i < 3000; ++i) title += "\xC3\xA9 ";  // "é " is 3 bytes
  const HtmlFacts facts = ParseHtml("<title>" + title + "</title>");
  ASSERT_EQ(facts.titles.size(), 1u);
  EXPECT_LE(facts.titles[0].size(), kHtmlMaxTextBytes);
  EXPECT_GT(facts.titles[0].size(), kHtmlMaxTextBytes - 3);
  EXPECT_EQ(facts.titles[0].back(), '\xA9');  // ends on a whole "é", no trailing space
}

TEST(HtmlDocument, HugeAttributeValuesAreKeptWhole) {
  const std::string href = "https://example.com/?q=" + std::string(5 << 20, 'x');
  const HtmlFacts facts = ParseHtml("<a href=\"" + href + "\" rel=nofollow>big</a>");
  ASSERT_EQ(facts.links.size(), 1u);
  EXPECT_EQ(facts.links[0].href, href);
  EXPECT_TRUE(facts.links[0].nofollow);
}

TEST(HtmlDocument, ListsStopAtTheItemCap) {
  std::string page;
  for (std::size_t i = 0; i < kHtmlMaxItems + 5; ++i) {
    page += "<a href=/" + std::to_string(i) + ">x</a>";
  }
  const HtmlFacts facts = ParseHtml(page);
  EXPECT_EQ(facts.links.size(), kHtmlMaxItems);
  EXPECT_EQ(facts.links.back().href, "/9999");
  EXPECT_EQ(facts.problems, (Strings{"more than 10,000 links: the rest were ignored"}));
}

TEST(HtmlDocument, OnlyTheFirst15MegabytesAreParsed) {
  const HtmlFacts facts = ParseHtml("<title>Big</title>" + std::string(kHtmlMaxBytes, 'a'));
  EXPECT_EQ(facts.titles, (Strings{"Big"}));
  EXPECT_EQ(facts.problems, (Strings{"larger than 15 MB: only the first 15 MB were parsed"}));
}

std::string NestedDivs(int depth) {
  std::string page = "<html lang=en><title>Deep</title><body>";
  for (int i = 0; i < depth; ++i) page += "<div>";
  return page + "bottom<a href=/deep>deep link</a>";
}

TEST(HtmlDocument, HundredThousandNestedDivsAreCutToAPrefixNotACrash) {
  // Gumbo alone spends ~35 s (and, recording parse errors, ~80 GB) on this 500 kB page.
  const auto start = std::chrono::steady_clock::now();
  const HtmlFacts facts = ParseHtml(NestedDivs(100000));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(facts.lang, "en");
  EXPECT_EQ(facts.titles, (Strings{"Deep"}));
  ASSERT_EQ(facts.problems.size(), 1u);
  EXPECT_NE(facts.problems[0].find("too long to parse"), std::string::npos) << facts.problems[0];
  EXPECT_NE(facts.problems[0].find("only the first 31,"), std::string::npos) << facts.problems[0];
  EXPECT_TRUE(facts.links.empty());  // the link was past the prefix
}

TEST(HtmlDocument, ReopenedFormattingElementsHitTheMemoryBudget) {
  // Each paragraph reopens every <b> left in the list of active formatting elements: gumbo would
  // build 10 million elements (~4 GB) from these 90 kB.
  std::string page = "<title>Bomb</title><p>";
  for (int i = 0; i < 1000; ++i) page += "<b id=" + std::to_string(i) + ">";
  page += "</p>";
  for (int i = 0; i < 10000; ++i) page += "<p>x</p>";
  const HtmlFacts facts = ParseHtml(page);
  EXPECT_EQ(facts.titles, (Strings{"Bomb"}));
  ASSERT_EQ(facts.problems.size(), 1u);
  EXPECT_NE(facts.problems[0].find("too much memory"), std::string::npos) << facts.problems[0];
}

// gumbo_destroy_output (recursive) crashes on this page with a 128 kB stack, as would a
// recursive walk of the tree.
TEST(HtmlDocument, DeepTreesNeedNoDeepStack) {
  struct Job {
    HtmlFacts facts;
  } job;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, 128 * 1024);
  pthread_t thread;
  auto run = [](void* arg) -> void* {
    static_cast<Job*>(arg)->facts = ParseHtml(NestedDivs(5000));
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
  EXPECT_TRUE(job.facts.problems.empty());
  ASSERT_EQ(job.facts.links.size(), 1u);
  EXPECT_EQ(job.facts.links[0].text, "deep link");
}

// Gumbo 0.10 aborts the process (failed assertions) on these; they must parse like any page.
TEST(HtmlDocument, ForeignContentInTablesDoesNotAbort) {
  for (const char* page : {"<table><math><select><mi><select><table>",
                           "<table><svg><select><foreignObject><select><table>",
                           "<TABLE><caption><svg><td><foreignObject><Table></table></table>"}) {
    const HtmlFacts facts = ParseHtml(std::string("<title>T</title>") + page);
    EXPECT_EQ(facts.titles, (Strings{"T"})) << page;
    EXPECT_TRUE(facts.problems.empty()) << page;
  }
}

TEST(HtmlDocument, TablesNextToSvgKeepTheirContent) {
  const HtmlFacts facts = ParseHtml(R"(<svg viewBox="0 0 1 1"><title>icon</title></svg>
      <table><tr><td><a href="/a">A</a></td><td><img src="/i.png" alt="I"></td></tr></table>
      <svg/><a href="/b">B</a>)");
  EXPECT_TRUE(facts.titles.empty());  // an SVG <title> is not the page's, nor visible text
  EXPECT_EQ(facts.text_bytes, std::string("AB").size());
  ASSERT_EQ(facts.links.size(), 2u);
  EXPECT_EQ(facts.links[0].text, "A");
  EXPECT_EQ(facts.links[1].text, "B");
  ASSERT_EQ(facts.images.size(), 1u);
  EXPECT_EQ(facts.images[0].alt, "I");
}

}  // namespace
}  // namespace sightline::site_audit
