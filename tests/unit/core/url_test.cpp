#include "core/url.h"

#include <gtest/gtest.h>

namespace sightline::core {
namespace {

TEST(PathOfUrl, IsWhatFollowsTheOriginWithoutQueryOrFragment) {
  EXPECT_EQ(PathOfUrl("https://analytics.example.com/api"), "/api");
  EXPECT_EQ(PathOfUrl("http://127.0.0.1:8080/.well-known/oauth-protected-resource/api/mcp"),
            "/.well-known/oauth-protected-resource/api/mcp");
  EXPECT_EQ(PathOfUrl("https://host/api?x=1#y"), "/api");
  EXPECT_EQ(PathOfUrl("https://host"), "");
  EXPECT_EQ(PathOfUrl("https://host?x=/y"), "") << "a slash in the query is not a path";
}

TEST(OriginOf, KeepsSchemeAndAuthorityLowercased) {
  EXPECT_EQ(OriginOf("HTTPS://Host:8443/base"), "https://host:8443");
}

TEST(NormalizeHost, LowercasesAndDropsThePortAndTrailingDots) {
  EXPECT_EQ(NormalizeHost("WWW.Example.COM.:8080"), "www.example.com");
  EXPECT_EQ(NormalizeHost(" example.com "), "example.com");
  EXPECT_EQ(NormalizeHost("example.com.."), "example.com");
  EXPECT_EQ(NormalizeHost("127.0.0.1:3000"), "127.0.0.1");
  EXPECT_EQ(NormalizeHost("[::1]:80"), "[::1]");
  EXPECT_EQ(NormalizeHost("[2001:DB8::1]"), "[2001:db8::1]");
  EXPECT_EQ(NormalizeHost("2001:db8::1"), "2001:db8::1") << "a bare IPv6 address has no port";
  EXPECT_EQ(NormalizeHost("例え.JP"), "例え.jp") << "only ASCII letters fold";
  EXPECT_EQ(NormalizeHost(""), "");
}

TEST(SiteHost, IsTheNormalizedHostWithoutWww) {
  EXPECT_EQ(SiteHost("WWW.example.com:443"), "example.com");
  EXPECT_EQ(SiteHost("example.com"), "example.com");
  EXPECT_EQ(SiteHost("www2.example.com"), "www2.example.com");
  EXPECT_EQ(SiteHost("shop.www.example.com"), "shop.www.example.com");
}

}  // namespace
}  // namespace sightline::core
