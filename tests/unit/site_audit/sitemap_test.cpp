// Sitemaps: urlsets, indexes, prefixed and missing namespaces, text sitemaps, malformed XML,
// XXE and entity-expansion attacks, and the sitemaps.org caps.
#include "site_audit/sitemap.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace sightline::site_audit {
namespace {

using Kind = SitemapParse::Kind;
using Strings = std::vector<std::string>;

TEST(Sitemap, UrlSetWithExtensionsKeepsOnlyPageLocations) {
  const SitemapParse parse = ParseSitemap(R"(<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2025-01-01</lastmod>
    <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/>
    <image:image><image:loc>https://example.com/hero.jpg</image:loc></image:image>
  </url>
  <url>
    <loc>
      https://example.com/search?q=tyres&amp;page=2
    </loc>
  </url>
  <url><loc><![CDATA[https://example.com/a&b]]></loc></url>
</urlset>)");
  EXPECT_EQ(parse.kind, Kind::kUrlSet);
  EXPECT_EQ(parse.locations,
            (Strings{"https://example.com/", "https://example.com/search?q=tyres&page=2",
                     "https://example.com/a&b"}));
  EXPECT_TRUE(parse.problems.empty()) << parse.problems.front();
  EXPECT_FALSE(parse.truncated);
}

TEST(Sitemap, IndexListsChildSitemaps) {
  const SitemapParse parse = ParseSitemap(
      "\xEF\xBB\xBF<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<sitemap><loc>https://example.com/sitemap-posts.xml.gz</loc>"
      "<lastmod>2025-01-01</lastmod></sitemap>"
      "<sitemap><loc>https://example.com/sitemap-pages.xml</loc></sitemap>"
      "</sitemapindex>");
  EXPECT_EQ(parse.kind, Kind::kIndex);
  EXPECT_EQ(parse.locations, (Strings{"https://example.com/sitemap-posts.xml.gz",
                                      "https://example.com/sitemap-pages.xml"}));
  EXPECT_TRUE(parse.problems.empty());
}

TEST(Sitemap, PrefixedNamespaceIsTheSameVocabulary) {
  const SitemapParse parse = ParseSitemap(
      R"(<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
           <sm:url><sm:loc>https://example.com/p</sm:loc></sm:url>
           <sm:url><loc>https://example.com/unqualified-loc-is-another-name</loc></sm:url>
         </sm:urlset>)");
  EXPECT_EQ(parse.kind, Kind::kUrlSet);
  EXPECT_EQ(parse.locations, (Strings{"https://example.com/p"}));
  EXPECT_EQ(parse.problems, (Strings{"line 3: <url> without <loc>"}));
}

TEST(Sitemap, MissingNamespaceIsReadButReported) {
  const SitemapParse parse =
      ParseSitemap("<urlset><url><loc>https://example.com/</loc></url></urlset>");
  EXPECT_EQ(parse.kind, Kind::kUrlSet);
  EXPECT_EQ(parse.locations, (Strings{"https://example.com/"}));
  EXPECT_EQ(parse.problems, (Strings{"<urlset> is not in the sitemaps.org namespace "
                                     "http://www.sitemaps.org/schemas/sitemap/0.9"}));
}

TEST(Sitemap, EntryProblemsAreReportedByLine) {
  const SitemapParse parse = ParseSitemap(
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<url><loc>/relative</loc></url>\n"
      "<url><loc>  </loc></url>\n"
      "<url><lastmod>2025-01-01</lastmod></url>\n"
      "<url><loc/></url>\n"
      "<url><loc>https://example.com/" +
      std::string(2100, 'x') +
      "</loc></url>\n"
      "</urlset>");
  EXPECT_EQ(parse.locations.size(), 2u);  // the relative one and the long one are still kept
  EXPECT_EQ(parse.problems,
            (Strings{"line 2: <loc> is not an absolute http(s) URL", "line 3: empty <loc>",
                     "line 4: <url> without <loc>", "line 5: empty <loc>",
                     "line 6: <loc> is 2,048 characters or longer"}));
}

TEST(Sitemap, TextSitemapOneUrlPerLine) {
  const SitemapParse parse = ParseSitemap(
      "\xEF\xBB\xBFhttps://example.com/a\r\n\r\n  https://example.com/b  \r\n"
      "# not a url\nHTTP://EXAMPLE.COM/C");
  EXPECT_EQ(parse.kind, Kind::kText);
  EXPECT_EQ(parse.locations,
            (Strings{"https://example.com/a", "https://example.com/b", "HTTP://EXAMPLE.COM/C"}));
  EXPECT_EQ(parse.problems, (Strings{"line 4: not an absolute http(s) URL"}));
}

TEST(Sitemap, MalformedXmlKeepsWhatCameBeforeTheError) {
  const SitemapParse parse = ParseSitemap(
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
      "<url><loc>https://example.com/ok</loc></url>\n"
      "<url><loc>https://example.com/broken</url>\n"
      "<url><loc>https://example.com/after</loc></url>\n"
      "</urlset>");
  EXPECT_EQ(parse.kind, Kind::kUrlSet);
  EXPECT_EQ(parse.locations, (Strings{"https://example.com/ok"}));
  ASSERT_FALSE(parse.problems.empty());
  EXPECT_EQ(parse.problems[0].rfind("line 3: ", 0), 0u) << parse.problems[0];
  EXPECT_NE(parse.problems[0].find("mismatch"), std::string::npos) << parse.problems[0];
}

TEST(Sitemap, NotASitemap) {
  EXPECT_EQ(ParseSitemap("").kind, Kind::kInvalid);
  EXPECT_EQ(ParseSitemap("  \n ").problems, (Strings{"empty"}));
  const SitemapParse html = ParseSitemap("<html><body>Not found</body></html>");
  EXPECT_EQ(html.kind, Kind::kInvalid);
  EXPECT_EQ(html.problems, (Strings{"the root element is <html>, not <urlset> or <sitemapindex>"}));
  const SitemapParse text = ParseSitemap("Not Found\n");
  EXPECT_EQ(text.kind, Kind::kInvalid);
  EXPECT_EQ(text.problems, (Strings{"line 1: not an absolute http(s) URL", "no line is a URL"}));
  const SitemapParse garbage = ParseSitemap("<<<>>>");
  EXPECT_EQ(garbage.kind, Kind::kInvalid);
  EXPECT_FALSE(garbage.problems.empty());
}

TEST(Sitemap, GzipIsRecognisedNotInflated) {
  const std::string gzip("\x1F\x8B\x08\x00\x00\x00\x00\x00", 8);
  EXPECT_TRUE(LooksGzipped(gzip));
  EXPECT_FALSE(LooksGzipped("<urlset/>"));
  EXPECT_FALSE(LooksGzipped("\x1F"));
  const SitemapParse parse = ParseSitemap(gzip);
  EXPECT_EQ(parse.kind, Kind::kInvalid);
  EXPECT_EQ(parse.problems, (Strings{"the body is gzip-compressed: it must be gunzipped first"}));
}

TEST(Sitemap, BillionLaughsIsNotExpanded) {
  std::string doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY lol \"lol\">\n";
  for (int level = 1; level <= 9; ++level) {
    doc += "<!ENTITY lol" + std::to_string(level) + " \"";
    const std::string previous = level == 1 ? "&lol;" : "&lol" + std::to_string(level - 1) + ";";
    for (int i = 0; i < 10; ++i) doc += previous;
    doc += "\">\n";
  }
  doc +=
      "]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc>https://example.com/&lol9;</loc></url>"
      "<url><loc>https://example.com/after</loc></url></urlset>";
  const auto start = std::chrono::steady_clock::now();
  const SitemapParse parse = ParseSitemap(doc);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  for (const std::string& location : parse.locations) {
    EXPECT_EQ(location.find("lollol"), std::string::npos);
    EXPECT_LT(location.size(), 100u);
  }
  ASSERT_FALSE(parse.problems.empty());
}

TEST(Sitemap, ExternalEntitiesAreNotRead) {
  const std::string secret_path = ::testing::TempDir() + "sitemap_xxe_secret.txt";
  std::ofstream(secret_path) << "TOP-SECRET";
  const SitemapParse parse = ParseSitemap(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n"
      "<!ENTITY xxe SYSTEM \"file://" +
      secret_path +
      "\">\n"
      "<!ENTITY remote SYSTEM \"http://127.0.0.1:9/x\">\n]>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc>https://example.com/&xxe;</loc></url>"
      "<url><loc>https://example.com/&remote;</loc></url></urlset>");
  std::remove(secret_path.c_str());
  for (const std::string& location : parse.locations) {
    EXPECT_EQ(location.find("TOP-SECRET"), std::string::npos) << location;
  }
  for (const std::string& problem : parse.problems) {
    EXPECT_EQ(problem.find("TOP-SECRET"), std::string::npos) << problem;
  }
}

TEST(Sitemap, MoreThan50000UrlsAreTruncated) {
  std::string xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
  std::string text;
  for (std::size_t i = 0; i < kSitemapMaxUrls + 10; ++i) {
    const std::string url = "https://example.com/p" + std::to_string(i);
    xml += "<url><loc>" + url + "</loc></url>";
    text += url + "\n";
  }
  xml += "</urlset>";
  for (const std::string& body : {xml, text}) {
    const SitemapParse parse = ParseSitemap(body);
    EXPECT_EQ(parse.locations.size(), kSitemapMaxUrls);
    EXPECT_EQ(parse.locations.back(), "https://example.com/p49999");
    EXPECT_TRUE(parse.truncated);
    EXPECT_EQ(parse.problems, (Strings{"more than 50,000 URLs: the rest were ignored"}));
  }
}

TEST(Sitemap, OnlyTheFirst50MegabytesAreRead) {
  std::string body = "https://example.com/first\n";
  body.resize(kSitemapMaxBytes, ' ');
  body += "\nhttps://example.com/past-the-cap\n";
  const SitemapParse parse = ParseSitemap(body);
  EXPECT_EQ(parse.locations, (Strings{"https://example.com/first"}));
  EXPECT_TRUE(parse.truncated);
  EXPECT_EQ(parse.problems,
            (Strings{"larger than 50 MB uncompressed: only the first 50 MB were read"}));
}

TEST(Sitemap, ProblemsStopAtAHundred) {
  std::string text = "https://example.com/\n";
  for (int i = 0; i < 500; ++i) text += "junk\n";
  const SitemapParse parse = ParseSitemap(text);
  ASSERT_EQ(parse.problems.size(), 101u);
  EXPECT_EQ(parse.problems.back(), "more problems were not listed");
}

}  // namespace
}  // namespace sightline::site_audit
