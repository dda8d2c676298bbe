// The crawler's URLs: RFC 3986 reference resolution and the one spelling a page is kept under.
// The regression cases are inputs fuzz/url_fuzz.cpp found (docs/fuzzing.md): a normalized URL
// must normalize to itself, or one page is crawled and reported under two keys.
#include "site_audit/crawl_url.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace sightline::site_audit {
namespace {

TEST(CrawlUrl, ResolvesRfc3986Examples) {
  const char* base = "http://a/b/c/d;p?q";
  EXPECT_EQ(ResolveUrl(base, "g"), "http://a/b/c/g");
  EXPECT_EQ(ResolveUrl(base, "./g/"), "http://a/b/c/g/");
  EXPECT_EQ(ResolveUrl(base, "/g"), "http://a/g");
  EXPECT_EQ(ResolveUrl(base, "//g"), "http://g/");
  EXPECT_EQ(ResolveUrl(base, "?y"), "http://a/b/c/d;p?y");
  EXPECT_EQ(ResolveUrl(base, "g?y#s"), "http://a/b/c/g?y");
  EXPECT_EQ(ResolveUrl(base, ""), "http://a/b/c/d;p?q");
  EXPECT_EQ(ResolveUrl(base, ".."), "http://a/b/");
  EXPECT_EQ(ResolveUrl(base, "../../../g"), "http://a/g");
  EXPECT_EQ(ResolveUrl(base, "mailto:x@a"), std::nullopt);
  EXPECT_EQ(ResolveUrl(base, "https://user@a/"), std::nullopt) << "credentials";
}

TEST(CrawlUrl, NormalizesCaseDefaultPortAndEscapes) {
  EXPECT_EQ(NormalizeUrl("HTTPS://Example.COM:443/a/%7e/%2f?x=%41%2c#top"),
            "https://example.com/a/~/%2F?x=A%2C");
  EXPECT_EQ(NormalizeUrl("http://example.com:8080"), "http://example.com:8080/");
  EXPECT_EQ(NormalizeUrl("http://[::1]:80/x y"), "http://[::1]/x%20y");
}

// Escaped dot segments are dot segments: decoded after the dots were removed, they stayed in
// the URL, and normalizing it again gave another one.
TEST(CrawlUrl, EscapedDotSegmentsAreRemoved) {
  EXPECT_EQ(NormalizeUrl("http://a/b/%2e%2e/c"), "http://a/c");
  EXPECT_EQ(NormalizeUrl("http://a/b/%2E/c"), "http://a/b/c");
}

// A base taken whole (an empty or query-only reference) is cleaned too: <base href> and
// Location values arrive as written.
TEST(CrawlUrl, ABaseTakenWholeIsNormalized) {
  EXPECT_EQ(ResolveUrl("http://a/b/../c", ""), "http://a/c");
  EXPECT_EQ(ResolveUrl("http://a/b/../c", "#x"), "http://a/c");
  EXPECT_EQ(ResolveUrl("http://a/b/../c", "?q"), "http://a/c?q");
}

// A `%` that starts no escape is escaped itself: left bare, "%%32e" became "%2e" and then ".".
TEST(CrawlUrl, AStrayPercentIsEscaped) {
  EXPECT_EQ(NormalizeUrl("http://a/%%32e/?q=%zz"), "http://a/%252e/?q=%25zz");
  EXPECT_EQ(NormalizeUrl("http://a/100%"), "http://a/100%25");
}

// A colon in a host outside an IPv6 literal, or anything but a port after one: the last colon
// taken as the port left "a:b" and "[::1x", which do not normalize again.
TEST(CrawlUrl, AHostIsANameOrAWholeIpv6Literal) {
  EXPECT_EQ(NormalizeUrl("http://a:b:80/"), std::nullopt);
  EXPECT_EQ(NormalizeUrl("https://[::1https://[::1]le.com\xC6\xC5\x34\x33]/b"), std::nullopt);
  EXPECT_EQ(NormalizeUrl("http://[::1/"), std::nullopt);
  EXPECT_EQ(NormalizeUrl("http://[::1]x/"), std::nullopt);
  EXPECT_EQ(NormalizeUrl("http://[::1]:8080/"), "http://[::1]:8080/");
  EXPECT_EQ(NormalizeUrl("http://[::1]:/"), "http://[::1]/");
  EXPECT_EQ(NormalizeUrl("http://Example.com.:80/"), "http://example.com/");
}

TEST(CrawlUrl, NormalizedUrlsNormalizeToThemselves) {
  for (const char* url : {"http://a/b/%2e%2e/c", "http://a/%%32e/", "http://a/b/../c?%%41",
                          "HTTP://A.:80/./x/../y?z#f", "https://a/%C3%A9/\xC3\xA9"}) {
    SCOPED_TRACE(url);
    const auto once = NormalizeUrl(url);
    ASSERT_TRUE(once);
    EXPECT_EQ(NormalizeUrl(*once), once);
  }
}

}  // namespace
}  // namespace sightline::site_audit
