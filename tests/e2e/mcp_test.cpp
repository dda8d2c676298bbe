// End-to-end: the MCP endpoint's HTTP contract against the real binary on every backend —
// authentication challenges, media types, sessions (shared by two processes on one store, owned
// by one credential), protocol versions, Origin and Host checks, and the discovery documents.
// The protocol as real clients see it is tested by tests/interop/mcp_interop.sh.
#include "harness.h"

#include "api_client.h"

#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <cstdlib>

namespace sightline::e2e {
namespace {

namespace json = boost::json;

constexpr char kPing[] = R"({"jsonrpc":"2.0","id":2,"method":"ping"})";
// What a 401 suggests an OAuth client ask for: the view permissions.
constexpr char kBaselineScope[] =
    "scope=\"organization.view member.view project.view audit_log.view analytics.view bots.view "
    "aivisibility.view siteaudit.view\"";

// An environment variable set until the object goes (also when a test fails meanwhile), for
// the processes started meanwhile to inherit.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedVariable() { ::unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
};

class Mcp : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("mcp"), "Site");
    other_ = Bootstrap(GetParam(), Unique("mcp-other"), "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
  }
  Response Post(ServerProcess& server, const std::string& body, const Headers& headers) {
    return server.Request("POST", "/mcp", headers, body);
  }
  std::string Initialize(ServerProcess& server, const std::string& key) {
    const Response r = Post(server, kMcpInitialize, McpHeaders(key));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Header("mcp-session-id");
  }
  // The names of every tool `key` sees (every page of tools/list), each followed by a space;
  // an empty key sends no credential.
  std::string ToolNames(ServerProcess& server, const std::string& key) {
    Headers headers = McpHeaders(key);
    if (key.empty()) headers.erase("Authorization");
    const Response init = Post(server, kMcpInitialize, headers);
    EXPECT_EQ(init.status, 200) << init.body;
    headers["Mcp-Session-Id"] = init.Header("mcp-session-id");
    headers["MCP-Protocol-Version"] = "2025-11-25";
    std::string names;
    std::string cursor;
    do {
      const std::string params =
          cursor.empty() ? "{}" : json::serialize(json::object{{"cursor", cursor}});
      const Response listed =
          Post(server, R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":)" + params + "}",
               headers);
      const json::value body = listed.Json();
      for (const auto& tool : body.at("result").at("tools").as_array()) {
        names += std::string(tool.at("name").as_string()) + " ";
      }
      const json::value* next = body.at("result").as_object().if_contains("nextCursor");
      cursor = next && next->is_string() ? std::string(next->as_string()) : "";
    } while (!cursor.empty());
    return names;
  }
  std::string MetadataUrl() const {
    return "http://127.0.0.1:" + std::to_string(server_->port()) +
           "/.well-known/oauth-protected-resource/api/mcp";
  }

  Credentials creds_, other_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(Mcp, EveryUnauthenticatedRequestGetsAChallengeNamingTheResourceMetadata) {
  Headers headers = McpHeaders(creds_.private_api_key);
  headers.erase("Authorization");
  Response r = Post(*server_, kMcpInitialize, headers);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.ErrorCode(), "AUTH_003");
  EXPECT_EQ(r.Header("www-authenticate"),
            "Bearer resource_metadata=\"" + MetadataUrl() + "\", " + kBaselineScope);

  for (const std::string& bad : {std::string("sk_service_unknownunknownunknown12"),
                                 std::string("not-a-credential"), creds_.sdk_key}) {
    SCOPED_TRACE(bad);
    r = Post(*server_, kMcpInitialize, McpHeaders(bad));
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_EQ(r.Header("www-authenticate"),
              "Bearer resource_metadata=\"" + MetadataUrl() + "\", " + kBaselineScope +
                  ", error=\"invalid_token\"");
  }
  r = server_->Request("DELETE", "/mcp", {{"Mcp-Session-Id", "x"}});
  EXPECT_EQ(r.status, 401);
}

TEST_P(Mcp, MediaTypesAndMalformedMessagesAreRefusedWithErrorResponses) {
  Headers headers = McpHeaders(creds_.private_api_key);
  headers.erase("Content-Type");
  EXPECT_EQ(Post(*server_, kMcpInitialize, headers).ErrorCode(), "VAL_006");
  headers = McpHeaders(creds_.private_api_key);
  headers["Accept"] = "application/json";
  Response r = Post(*server_, kMcpInitialize, headers);
  EXPECT_EQ(r.status, 406);
  EXPECT_EQ(r.ErrorCode(), "REQ_006");
  r = Post(*server_, "{\"jsonrpc\":", McpHeaders(creds_.private_api_key));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.ErrorCode(), "VAL_002");
  r = Post(*server_, std::string("[") + kMcpInitialize + "]", McpHeaders(creds_.private_api_key));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.ErrorCode(), "VAL_007");
  r = Post(*server_, R"({"jsonrpc":"1.0","id":1,"method":"ping"})",
           McpHeaders(creds_.private_api_key));
  EXPECT_EQ(r.status, 400);
  // A request without params.protocolVersion is a JSON-RPC error, and opens no session.
  r = Post(*server_, R"({"jsonrpc":"2.0","id":7,"method":"initialize","params":{}})",
           McpHeaders(creds_.private_api_key));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Json().at("error").at("code").as_int64(), -32602);
  EXPECT_EQ(r.Json().at("id").as_int64(), 7);
  EXPECT_EQ(r.Header("mcp-session-id"), "");
}

TEST_P(Mcp, VersionsAreNegotiatedAndAnUnsupportedHeaderIsRefused) {
  auto negotiated = [&](const std::string& requested) {
    const Response r = Post(
        *server_,
        R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":")" +
            requested + R"(","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}})",
        McpHeaders(creds_.private_api_key));
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Json().at("id").as_string(), "a");
    return std::string(r.Json().at("result").at("protocolVersion").as_string());
  };
  EXPECT_EQ(negotiated("2025-11-25"), "2025-11-25");
  EXPECT_EQ(negotiated("2025-06-18"), "2025-06-18");
  EXPECT_EQ(negotiated("2025-03-26"), "2025-03-26");
  EXPECT_EQ(negotiated("2024-11-05"), "2025-11-25");  // we offer our newest; the client decides

  const std::string session = Initialize(*server_, creds_.private_api_key);
  Headers headers = McpHeaders(creds_.private_api_key, session);
  headers["MCP-Protocol-Version"] = "1999-01-01";
  const Response r = Post(*server_, kPing, headers);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.ErrorCode(), "MCP_003");
  EXPECT_EQ(r.Json().at("error").at("details").at("supported").as_array().size(), 3u);
  headers.erase("MCP-Protocol-Version");  // absent: taken as 2025-03-26, accepted
  EXPECT_EQ(Post(*server_, kPing, headers).status, 200);
}

TEST_P(Mcp, SessionsAreSharedByNodesOwnedByTheirKeyAndEndedByDelete) {
  Response r = Post(*server_, kPing, McpHeaders(creds_.private_api_key));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.ErrorCode(), "MCP_001");
  r = Post(*server_, kPing, McpHeaders(creds_.private_api_key, "no-such-session"));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.ErrorCode(), "MCP_002");

  const std::string session = Initialize(*server_, creds_.private_api_key);
  ASSERT_EQ(session.size(), 64u);
  ServerProcess other_node(GetParam());  // behind the same load balancer: same store
  r = Post(other_node, R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})",
           McpHeaders(creds_.private_api_key, session));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.Json().at("result").at("tools").as_array().empty());
  // Notifications and responses are acknowledged without a body.
  r = Post(other_node, R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
           McpHeaders(creds_.private_api_key, session));
  EXPECT_EQ(r.status, 202);
  EXPECT_EQ(r.body, "");

  // Another organization's key never finds this session, not even to end it.
  r = Post(*server_, kPing, McpHeaders(other_.private_api_key, session));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(server_->Request("DELETE", "/mcp", McpHeaders(other_.private_api_key, session)).status,
            404);

  EXPECT_EQ(
      other_node.Request("DELETE", "/mcp", McpHeaders(creds_.private_api_key, session)).status,
      204);
  r = Post(*server_, kPing, McpHeaders(creds_.private_api_key, session));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.ErrorCode(), "MCP_002");
  EXPECT_EQ(server_->Request("DELETE", "/mcp", McpHeaders(creds_.private_api_key, session)).status,
            404);
}

TEST_P(Mcp, GetOffersNoStreamAndUnknownMethodsAreJsonRpcErrors) {
  const std::string session = Initialize(*server_, creds_.private_api_key);
  Headers headers = McpHeaders(creds_.private_api_key, session);
  headers["Accept"] = "text/event-stream";
  Response r = server_->Request("GET", "/mcp", headers);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("allow"), "POST, DELETE, OPTIONS");
  headers["Accept"] = "application/json";
  EXPECT_EQ(server_->Request("GET", "/mcp", headers).status, 406);

  r = Post(*server_, R"({"jsonrpc":"2.0","id":4,"method":"prompts/list"})",
           McpHeaders(creds_.private_api_key, session));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Json().at("error").at("code").as_int64(), -32601);
  r = Post(*server_, R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"zz"}})",
           McpHeaders(creds_.private_api_key, session));
  EXPECT_EQ(r.Json().at("error").at("code").as_int64(), -32602);
  r = Post(*server_,
           R"({"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"loud"}})",
           McpHeaders(creds_.private_api_key, session));
  EXPECT_EQ(r.Json().at("error").at("code").as_int64(), -32602);
}

TEST_P(Mcp, ForeignOriginsAndHostsAreRefusedAndOwnOriginsGetCors) {
  Headers headers = McpHeaders(creds_.private_api_key);
  headers["Origin"] = "https://evil.example";
  Response r = Post(*server_, kMcpInitialize, headers);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.ErrorCode(), "REQ_005");
  headers.erase("Origin");
  headers["Host"] = "evil.example";
  EXPECT_EQ(Post(*server_, kMcpInitialize, headers).status, 403);

  headers = McpHeaders(creds_.private_api_key);
  headers["Origin"] = "http://localhost:" + std::to_string(server_->port());
  r = Post(*server_, kMcpInitialize, headers);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.Header("access-control-allow-origin"), headers["Origin"]);
  EXPECT_NE(r.Header("access-control-expose-headers").find("Mcp-Session-Id"), std::string::npos);
  r = server_->Request("OPTIONS", "/mcp",
                       {{"Origin", headers["Origin"]}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_EQ(r.status, 204);
  EXPECT_NE(r.Header("access-control-allow-headers").find("Mcp-Session-Id"), std::string::npos);
  // A browser client's 2026-07-28 requests carry these: a preflight refusing them would hold
  // the client in the 2025 era.
  for (const char* modern : {"Mcp-Method", "Mcp-Name", "MCP-Protocol-Version"}) {
    EXPECT_NE(r.Header("access-control-allow-headers").find(modern), std::string::npos) << modern;
  }
}

TEST_P(Mcp, AllowedOriginsAreConfigurable) {
  ServerProcess server(GetParam(), {"--mcp-allowed-origins", "https://app.example.com"});
  Headers headers = McpHeaders(creds_.private_api_key);
  headers["Origin"] = "https://app.example.com";
  EXPECT_EQ(Post(server, kMcpInitialize, headers).status, 200);
  headers["Origin"] = "https://other.example.com";
  EXPECT_EQ(Post(server, kMcpInitialize, headers).status, 403);
}

TEST_P(Mcp, DiscoveryDocumentsAreAnonymousCacheableAndExact) {
  const std::string base = "http://127.0.0.1:" + std::to_string(server_->port()) + "/api";
  for (const std::string path : {"/.well-known/oauth-protected-resource",
                                 "/.well-known/oauth-protected-resource/api/mcp"}) {
    SCOPED_TRACE(path);
    const Response r = server_->SiteRequest("GET", path);
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("access-control-allow-origin"), "*");
    const json::value doc = r.Json();
    EXPECT_EQ(doc.at("resource").as_string(), base + "/mcp");
    EXPECT_EQ(doc.at("authorization_servers").at(0).as_string(), base);
  }
  Response card = server_->Request("GET", "/mcp/server-card");
  ASSERT_EQ(card.status, 200);
  EXPECT_EQ(card.Header("content-type"), "application/mcp-server-card+json");
  EXPECT_EQ(card.Header("access-control-allow-origin"), "*");
  const json::value doc = card.Json();
  EXPECT_EQ(doc.at("$schema").as_string(),
            "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json");
  EXPECT_EQ(doc.at("remotes").at(0).at("url").as_string(), base + "/mcp");
  EXPECT_EQ(doc.at("remotes").at(0).at("type").as_string(), "streamable-http");
  const std::string etag = card.Header("etag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(server_->Request("GET", "/mcp/server-card", {{"If-None-Match", etag}}).status, 304);
  EXPECT_EQ(server_->Request("POST", "/mcp/server-card").status, 405);
  // The API lives under /api alone: the old root paths are the dashboard's, and the metadata
  // of a resource at the root is not served.
  EXPECT_EQ(server_->SiteRequest("GET", "/.well-known/oauth-protected-resource/mcp").status, 404);
  EXPECT_EQ(server_->SiteRequest("GET", "/mcp/server-card").Header("content-type"),
            "text/html; charset=utf-8");
  const Response old = server_->SiteRequest("POST", "/mcp", McpHeaders(creds_.private_api_key),
                                           kMcpInitialize);
  EXPECT_EQ(old.status, 405);
  EXPECT_EQ(old.Json().at("error").at("code").as_string(), "REQ_002");
}

TEST_P(Mcp, ThePublicUrlNamesTheResourceUnderApiAndItsMetadataAtTheRoot) {
  ServerProcess server(GetParam(), {"--public-url", "https://analytics.example.com/"});
  Headers headers = McpHeaders(creds_.private_api_key);
  headers["Host"] = "analytics.example.com";
  headers.erase("Authorization");
  const Response r = Post(server, kMcpInitialize, headers);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.Header("www-authenticate"),
            std::string("Bearer resource_metadata=\"https://analytics.example.com/.well-known/"
                        "oauth-protected-resource/api/mcp\", ") +
                kBaselineScope);
  const Response metadata =
      server.SiteRequest("GET", "/.well-known/oauth-protected-resource/api/mcp");
  ASSERT_EQ(metadata.status, 200);
  EXPECT_EQ(metadata.Json().at("resource").as_string(), "https://analytics.example.com/api/mcp");
}

TEST_P(Mcp, TheFixtureServerAddsTheSuitesFixturesAndShowsAnonymousCallersNothingElse) {
  ServerProcess fixtures(GetParam(), {}, SIGHTLINE_MCP_FIXTURES_BINARY);
  const std::string anonymous = ToolNames(fixtures, "");
  EXPECT_NE(anonymous.find("test_simple_text "), std::string::npos);
  EXPECT_EQ(anonymous.find("get_project "), std::string::npos);
  const std::string keyed = ToolNames(fixtures, creds_.private_api_key);
  EXPECT_NE(keyed.find("get_project "), std::string::npos);
  EXPECT_NE(keyed.find("test_simple_text "), std::string::npos);
  // A bad credential is still refused: only a missing one is let through.
  EXPECT_EQ(Post(fixtures, kMcpInitialize, McpHeaders("sk_service_unknownunknownunknown12")).status,
            401);
}

// The fixtures and the anonymous mode are the test-only server's alone: sightline refuses the
// flag that once turned them on, ignores its variable, and answers nobody without a credential.
TEST_P(Mcp, SightlineHasNoFixtureModeByFlagOrVariable) {
  const CommandResult flagged = RunSightline({"serve", "--mcp-conformance-fixtures"});
  EXPECT_EQ(flagged.exit_code, 2);
  EXPECT_NE(flagged.err.find("Unknown option --mcp-conformance-fixtures"), std::string::npos)
      << flagged.err;

  std::optional<ServerProcess> variable;
  {
    const ScopedVariable fixtures_on("SIGHTLINE_MCP_CONFORMANCE_FIXTURES", "1");
    variable.emplace(GetParam());
  }
  Headers anonymous = McpHeaders("");
  anonymous.erase("Authorization");
  EXPECT_EQ(Post(*variable, kMcpInitialize, anonymous).status, 401);
  const std::string keyed = ToolNames(*variable, creds_.private_api_key);
  EXPECT_NE(keyed.find("get_project "), std::string::npos);
  EXPECT_EQ(keyed.find("test_simple_text "), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, Mcp, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
