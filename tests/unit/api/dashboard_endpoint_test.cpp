#include "api/dashboard_endpoint.h"

#include "api/embedded_assets.h"
#include "api/exchange.h"
#include "core/clock.h"

#include <gtest/gtest.h>

#include <regex>

namespace sightline::api {
namespace {

core::HttpRequest Get(std::string target, std::string accept_encoding = "") {
  core::HttpRequest request;
  request.method = core::HttpMethod::kGet;
  request.method_name = "GET";
  request.target = std::move(target);
  request.remote_address = "127.0.0.1";
  if (!accept_encoding.empty()) request.headers.Add("Accept-Encoding", accept_encoding);
  return request;
}

core::HttpResponse Serve(DashboardEndpoint& dashboard, const core::HttpRequest& request) {
  static const core::SystemClock clock;
  auto exchange = Exchange::Begin(request, [](core::HttpResponse) {}, clock);
  auto answer = dashboard.Serve(request, TargetOf(request.path()), exchange);
  EXPECT_TRUE(answer.has_value());
  return answer ? std::move(*answer) : core::HttpResponse{};
}

// A hashed script the build emitted.
std::string SomeHashedScript() {
  for (const EmbeddedAsset& asset : EmbeddedAssets()) {
    if (asset.path.starts_with("/assets/") && asset.path.ends_with(".js")) {
      return std::string(asset.path);
    }
  }
  return "";
}

TEST(Dashboard, ClaimsTheSiteButTheApiAndWellKnown) {
  const DashboardEndpoint dashboard;
  EXPECT_TRUE(dashboard.Claims(TargetOf("/")));
  EXPECT_TRUE(dashboard.Claims(TargetOf("/acme/p1/web")));
  EXPECT_TRUE(dashboard.Claims(TargetOf("/assets/app-X.js")));
  EXPECT_FALSE(dashboard.Claims(TargetOf("/api/openapi.json")));
  EXPECT_FALSE(dashboard.Claims(TargetOf("/.well-known/oauth-protected-resource/api/mcp")));
}

TEST(Dashboard, EveryRouteGetsTheShellWithAFreshNonceInItsPolicyAndTags) {
  DashboardEndpoint dashboard;
  const core::HttpResponse first = Serve(dashboard, Get("/acme/p1/web?from=2026-01-01"));
  const core::HttpResponse second = Serve(dashboard, Get("/"));
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.headers.Get("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(first.headers.Get("Cache-Control"), "no-store");
  const std::string policy(first.headers.Get("Content-Security-Policy").value_or(""));
  std::smatch nonce;
  ASSERT_TRUE(std::regex_search(policy, nonce, std::regex("'nonce-([A-Za-z0-9+/=]+)'")));
  EXPECT_GE(nonce[1].length(), 22);
  EXPECT_NE(first.body.find("nonce=\"" + nonce[1].str() + "\""), std::string::npos);
  EXPECT_EQ(first.body.find("__CSP_NONCE__"), std::string::npos);
  EXPECT_NE(second.headers.Get("Content-Security-Policy"), first.headers.Get("Content-Security-Policy"));
  EXPECT_NE(policy.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_EQ(policy.find("unsafe-inline"), std::string::npos);
}

TEST(Dashboard, HashedFilesAreImmutableAndPrecompressed) {
  DashboardEndpoint dashboard;
  const std::string script = SomeHashedScript();
  ASSERT_FALSE(script.empty());
  const core::HttpResponse br = Serve(dashboard, Get(script, "gzip, deflate, br"));
  EXPECT_EQ(br.status, 200);
  EXPECT_EQ(br.headers.Get("Cache-Control"), "public, max-age=31536000, immutable");
  const core::HttpResponse gzip = Serve(dashboard, Get(script, "gzip"));
  const core::HttpResponse plain = Serve(dashboard, Get(script));
  EXPECT_EQ(plain.headers.Get("Content-Encoding"), std::nullopt);
  EXPECT_EQ(plain.body, FindEmbeddedAsset(script)->body);
  if (!FindEmbeddedAsset(script)->brotli.empty()) {
    EXPECT_EQ(br.headers.Get("Content-Encoding"), "br");
    EXPECT_NE(br.headers.Get("ETag"), gzip.headers.Get("ETag"));
  }
  // A file the build no longer has is a 404, not the shell: a stale page must not run HTML.
  const core::HttpResponse gone = Serve(dashboard, Get("/assets/app-GONE.js"));
  EXPECT_EQ(gone.status, 404);
}

TEST(Dashboard, OtherMethodsAreRefusedNamingWhereTheApiIs) {
  DashboardEndpoint dashboard;
  core::HttpRequest post = Get("/mcp");
  post.method = core::HttpMethod::kPost;
  post.method_name = "POST";
  const core::HttpResponse refused = Serve(dashboard, post);
  EXPECT_EQ(refused.status, 405);
  EXPECT_EQ(refused.headers.Get("Allow"), "GET, HEAD");
  EXPECT_NE(refused.body.find("/api"), std::string::npos);
}

TEST(Dashboard, NoncesReplaceEveryPlaceholder) {
  EXPECT_EQ(WithNonce("a __CSP_NONCE__ b __CSP_NONCE__", "N1"), "a N1 b N1");
  EXPECT_EQ(WithNonce("none", "N1"), "none");
  EXPECT_NE(DashboardContentSecurityPolicy("abc").find("script-src 'nonce-abc' 'strict-dynamic'"),
            std::string::npos);
}

}  // namespace
}  // namespace sightline::api
