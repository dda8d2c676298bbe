#include "core/url.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(HostOfUrl, ReadsWhatBrowsersSendAsReferrers) {
  EXPECT_EQ(HostOfUrl("https://User@Sub.Example.com:8443/x?y#z"), "sub.example.com");
  EXPECT_EQ(HostOfUrl("https://example.com./"), "example.com");
  EXPECT_EQ(HostOfUrl("https://[::1]:80/"), "[::1]");
  EXPECT_EQ(HostOfUrl("android-app://com.google.android.gm/"), "com.google.android.gm");
  EXPECT_EQ(HostOfUrl("example.com/no-scheme"), "");
}

TEST(IsWithinDomains, TheDomainsAndWhatIsBelowThem) {
  const std::vector<std::string> own = {"Example.com", "www.docs.example.org", ""};
  EXPECT_TRUE(IsWithinDomains("example.com", own));
  EXPECT_TRUE(IsWithinDomains("www.example.com", own));
  EXPECT_TRUE(IsWithinDomains("blog.example.com", own));
  EXPECT_TRUE(IsWithinDomains("docs.example.org", own));
  EXPECT_TRUE(IsWithinDomains("a.docs.example.org", own));
  EXPECT_FALSE(IsWithinDomains("example.org", own)) << "a parent is not within";
  EXPECT_FALSE(IsWithinDomains("notexample.com", own));
  EXPECT_FALSE(IsWithinDomains("example.com.evil.net", own));
  EXPECT_FALSE(IsWithinDomains("", own));
  EXPECT_FALSE(IsWithinDomains("example.com", {}));
}

}  // namespace
}  // namespace sightline::core
