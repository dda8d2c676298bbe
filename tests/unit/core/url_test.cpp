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

}  // namespace
}  // namespace sightline::core
