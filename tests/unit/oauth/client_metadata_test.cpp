// OAuth client rules: redirect URI checks and matching, registration and metadata documents,
// and the URL splitter they rest on.
#include "oauth/client_metadata.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "core/url.h"
#include "storage/oauth_records.h"

namespace sightline::oauth {
namespace {

namespace json = boost::json;

TEST(SplitUrl, SplitsAuthorityPathQueryAndFlagsWhatRedirectsMayNotHave) {
  const auto url = core::SplitUrl("HTTPS://Claude.AI:8443/api/mcp/auth_callback?x=1");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->scheme, "https");
  EXPECT_EQ(url->host, "claude.ai");
  EXPECT_EQ(url->port, "8443");
  EXPECT_EQ(url->path, "/api/mcp/auth_callback");
  EXPECT_EQ(url->query, "x=1");
  EXPECT_TRUE(core::SplitUrl("http://u:p@127.0.0.1/cb")->has_userinfo);
  EXPECT_TRUE(core::SplitUrl("https://a.example/cb#top")->has_fragment);
  EXPECT_EQ(core::SplitUrl("http://[::1]:9000/cb")->host, "[::1]");
  EXPECT_FALSE(core::SplitUrl("/relative"));
  EXPECT_FALSE(core::SplitUrl("https://a.example/with space"));
  EXPECT_FALSE(core::SplitUrl("https://:80/x"));
  EXPECT_FALSE(core::SplitUrl("https://a.example:99999999/"));
}

TEST(SplitUrl, LoopbackIsLocalhostOrAnIpv4LiteralIn127OrIpv6One) {
  EXPECT_TRUE(core::IsLoopbackHost("localhost"));
  EXPECT_TRUE(core::IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(core::IsLoopbackHost("127.1.2.3"));
  EXPECT_TRUE(core::IsLoopbackHost("[::1]"));
  EXPECT_FALSE(core::IsLoopbackHost("127.evil.example"));
  EXPECT_FALSE(core::IsLoopbackHost("localhost.evil.example"));
  EXPECT_FALSE(core::IsLoopbackHost("10.0.0.1"));
}

TEST(RedirectUris, HttpsLoopbackAndPrivateSchemesPassDangerousOnesDoNot) {
  for (const char* good : {"https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/",
                           "http://localhost/callback", "cursor://anysphere.cursor-mcp/oauth",
                           "https://chatgpt.com/connector_platform_oauth_redirect",
                           "com.example.app:/oauth2redirect"}) {
    EXPECT_TRUE(CheckRedirectUri(good)) << good;
  }
  for (const char* bad :
       {"http://app.example/cb", "https://a.example/cb#frag", "https://user@a.example/cb",
        "javascript://x/%0aalert(1)", "data://text/html,x", "file:///etc/passwd", "/cb", "",
        "javascript:alert(1)", "app:/no-domain", "com.example.app:/x#frag"}) {
    EXPECT_FALSE(CheckRedirectUri(bad)) << bad;
  }
}

TEST(RedirectUris, ExactExceptLoopbackHttpOnAnyPort) {
  EXPECT_TRUE(RedirectUriMatches("https://a.example/cb", "https://a.example/cb"));
  EXPECT_FALSE(RedirectUriMatches("https://a.example/cb", "https://a.example/cb/"));
  EXPECT_FALSE(RedirectUriMatches("https://a.example/cb", "https://a.example:444/cb"));
  EXPECT_TRUE(RedirectUriMatches("http://127.0.0.1/callback", "http://127.0.0.1:50123/callback"));
  EXPECT_TRUE(RedirectUriMatches("http://127.0.0.1:1/callback", "http://127.0.0.1:2/callback"));
  EXPECT_FALSE(RedirectUriMatches("http://127.0.0.1/callback", "http://127.0.0.1:5/other"));
  EXPECT_FALSE(RedirectUriMatches("http://127.0.0.1/callback", "http://localhost:5/callback"));
  EXPECT_FALSE(RedirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:5/cb?next=x"));
}

TEST(Registration, DefaultsFollowRfc7591AndOnlyConfidentialClientsGetASecret) {
  auto confidential =
      ParseRegistration(json::parse(R"({"redirect_uris":["https://a.example/cb"]})"));
  ASSERT_TRUE(confidential);
  EXPECT_EQ(confidential->client.auth_method, "client_secret_basic");
  ASSERT_TRUE(confidential->secret);
  EXPECT_TRUE(confidential->client.secret_hash);
  EXPECT_TRUE(confidential->client.id.starts_with("mcpc_"));
  const json::object body = RegistrationResponse(*confidential, 1700000000);
  EXPECT_EQ(body.at("client_secret").as_string(), *confidential->secret);
  EXPECT_EQ(body.at("client_secret_expires_at").as_int64(), 0);
  EXPECT_EQ(body.at("grant_types").as_array().size(), 2u);

  auto public_client = ParseRegistration(
      json::parse(R"({"client_name":"Tool\u0007 ","redirect_uris":["http://localhost/cb"],)"
                  R"("token_endpoint_auth_method":"none","client_secret":"ignored"})"));
  ASSERT_TRUE(public_client);
  EXPECT_TRUE(public_client->client.is_public());
  EXPECT_FALSE(public_client->secret);
  EXPECT_EQ(public_client->client.name, "Tool");
  EXPECT_FALSE(RegistrationResponse(*public_client, 1).contains("client_secret"));
}

TEST(Registration, RefusesWhatTheServerCannotHonour) {
  auto code = [](const char* text) {
    auto parsed = ParseRegistration(json::parse(text));
    return parsed ? std::string("ok") : std::string(parsed.error().info().oauth_error);
  };
  EXPECT_EQ(code(R"({"client_name":"x"})"), "invalid_redirect_uri");
  EXPECT_EQ(code(R"({"redirect_uris":"https://a.example/cb"})"), "invalid_redirect_uri");
  EXPECT_EQ(code(R"({"redirect_uris":["https://a.example/cb"],"grant_types":["implicit"]})"),
            "invalid_client_metadata");
  EXPECT_EQ(code(R"({"redirect_uris":["https://a.example/cb"],"response_types":["token"]})"),
            "invalid_client_metadata");
  EXPECT_EQ(code(R"({"redirect_uris":["https://a.example/cb"],"client_name":7})"),
            "invalid_client_metadata");
  EXPECT_EQ(code("[]"), "invalid_client_metadata");
}

TEST(MetadataDocuments, TheDocumentMustNameItselfAndBePublic) {
  const std::string url = "https://claude.ai/oauth/claude-code-client-metadata";
  EXPECT_TRUE(IsMetadataDocumentUrl(url));
  EXPECT_FALSE(IsMetadataDocumentUrl("https://claude.ai/"));
  EXPECT_FALSE(IsMetadataDocumentUrl("http://claude.ai/oauth/x"));
  EXPECT_FALSE(IsMetadataDocumentUrl("mcpc_abc"));
  auto client = ParseMetadataDocument(
      url, R"({"client_id":")" + url +
               R"(","client_name":"Claude Code","redirect_uris":["http://localhost/callback"]})");
  ASSERT_TRUE(client);
  EXPECT_EQ(client->kind, kMetadataDocumentClient);
  EXPECT_TRUE(client->is_public());
  EXPECT_TRUE(RedirectUriAllowed(*client, "http://localhost:61234/callback"));
  EXPECT_FALSE(
      ParseMetadataDocument(url, R"({"client_id":"https://evil.example/x",)"
                                 R"("client_name":"x","redirect_uris":["http://localhost/cb"]})"));
  EXPECT_FALSE(ParseMetadataDocument(
      url, R"({"client_id":")" + url + R"(","redirect_uris":["http://localhost/cb"]})"));
  EXPECT_FALSE(ParseMetadataDocument(
      url,
      R"({"client_id":")" + url +
          R"(","client_name":"x","redirect_uris":["http://localhost/cb"],"client_secret":"s"})"));
  EXPECT_FALSE(ParseMetadataDocument(url, "<html>"));
}

TEST(ClientRecords, RoundTripThroughTheStoreShape) {
  auto registered = ParseRegistration(json::parse(
      R"({"client_name":"A","redirect_uris":["https://a.example/cb","http://127.0.0.1/cb"]})"));
  ASSERT_TRUE(registered);
  auto back = FromRecord(ToRecord(registered->client, 1, 2));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->redirect_uris, registered->client.redirect_uris);
  EXPECT_EQ(back->secret_hash, registered->client.secret_hash);
  EXPECT_EQ(back->metadata, registered->client.metadata);
}

}  // namespace
}  // namespace sightline::oauth
