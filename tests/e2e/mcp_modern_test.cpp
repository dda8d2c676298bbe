// End-to-end: MCP 2026-07-28 beside 2025-11-25 on /mcp, against the real binary on every
// backend — server/discover, stateless requests answered by either of two nodes sharing the
// store, the envelope's refusals as JSON-RPC bodies with their HTTP statuses, the caching hints,
// logs only when asked for. Real clients (SDK v2, the Inspector, the conformance suite) are run
// by tests/interop/mcp_interop.sh.
#include "harness.h"

#include "api_client.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

namespace sightline::e2e {
namespace {

namespace json = boost::json;

int64_t ErrorCodeOf(const Response& r) { return r.Json().at("error").at("code").as_int64(); }

class McpModern : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("modern"), "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
  }
  Response Send(ServerProcess& server, const std::string& method, json::object params = {},
                json::object meta_extra = {}, const std::string& name = "") {
    return server.Request("POST", "/mcp", ModernHeaders(creds_.private_api_key, method, name),
                          ModernBody(method, std::move(params), std::move(meta_extra)));
  }

  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(McpModern, DiscoverNamesTheModernVersionsAndMayBeSharedForAnHour) {
  const Response r = Send(*server_, "server/discover");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(r.Header("mcp-session-id").empty());
  const json::value body = r.Json();
  const json::object& result = body.at("result").as_object();
  EXPECT_EQ(json::serialize(result.at("supportedVersions")), R"(["2026-07-28"])");
  EXPECT_TRUE(result.at("capabilities").at("tools").is_object());
  EXPECT_EQ(result.at("resultType"), "complete");
  EXPECT_EQ(result.at("ttlMs"), 3600000);
  EXPECT_EQ(result.at("cacheScope"), "public");
  EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "sightline");
}

TEST_P(McpModern, EitherNodeAnswersEveryRequestWithoutASession) {
  ServerProcess other_node(GetParam());  // behind the same load balancer: same store
  const json::object day{{"from", "2026-11-10"}, {"to", "2026-11-10"}};
  std::string first_list;
  for (int i = 0; i < 4; ++i) {
    ServerProcess& node = i % 2 == 0 ? *server_ : other_node;
    const Response listed = Send(node, "tools/list");
    ASSERT_EQ(listed.status, 200) << listed.body;
    const json::value list_body = listed.Json();
    const json::object& result = list_body.at("result").as_object();
    EXPECT_EQ(result.at("cacheScope"), "private");
    EXPECT_EQ(result.at("ttlMs"), 60000);
    // The same list, in the same order, from either node.
    if (i == 0) first_list = json::serialize(result.at("tools"));
    EXPECT_EQ(json::serialize(result.at("tools")), first_list);

    const Response called =
        Send(node, "tools/call", {{"name", "get_top_bots"}, {"arguments", day}}, {}, "get_top_bots");
    ASSERT_EQ(called.status, 200) << called.body;
    const json::value call_body = called.Json();
    const json::object& call = call_body.at("result").as_object();
    EXPECT_EQ(call.at("resultType"), "complete");
    EXPECT_FALSE(call.at("isError").as_bool()) << called.body;
    EXPECT_EQ(call.at("structuredContent").at("totalRequests"), 0);
  }
}

TEST_P(McpModern, EnvelopeFaultsAreJsonRpcErrorsWithTheirStatuses) {
  const std::string key = creds_.private_api_key;
  // No _meta, but a modern header: not a legacy request either.
  Response r = server_->Request("POST", "/mcp", ModernHeaders(key, "tools/list"),
                                R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorCodeOf(r), -32602);
  EXPECT_EQ(r.ErrorCode(), "(no error code)") << r.body;  // a JSON-RPC body, no ErrorResponse

  Headers mismatch = ModernHeaders(key, "tools/call", "get_project");
  r = server_->Request("POST", "/mcp", mismatch,
                       ModernBody("tools/call", {{"name", "get_top_bots"}}));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorCodeOf(r), -32020);

  Headers old_version = ModernHeaders(key, "tools/list");
  old_version["MCP-Protocol-Version"] = "2099-01-01";
  json::object meta{{"io.modelcontextprotocol/protocolVersion", "2099-01-01"}};
  r = server_->Request("POST", "/mcp", old_version, ModernBody("tools/list", {}, meta));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorCodeOf(r), -32022);
  EXPECT_EQ(r.Json().at("error").at("data").at("requested"), "2099-01-01");

  for (const char* method : {"initialize", "ping", "logging/setLevel", "subscriptions/listen",
                             "resources/subscribe", "prompts/list", "no/such/method"}) {
    SCOPED_TRACE(method);
    r = Send(*server_, method);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(ErrorCodeOf(r), -32601);
  }
  // An unknown tool stays an invalid-params error, as in the legacy era.
  r = Send(*server_, "tools/call", {{"name", "no_such_tool"}}, {}, "no_such_tool");
  EXPECT_EQ(ErrorCodeOf(r), -32602);

  Headers get = ModernHeaders(key, "tools/list");
  get["Accept"] = "text/event-stream";
  r = server_->Request("GET", "/mcp", get);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(ErrorCodeOf(r), -32600);
  EXPECT_EQ(r.Header("allow"), "POST");  // no stream and no session to end in this era
  // A notification needs no answer and no session.
  r = server_->Request("POST", "/mcp", ModernHeaders(key, "notifications/cancelled"),
                       json::serialize(json::object{
                           {"jsonrpc", "2.0"},
                           {"method", "notifications/cancelled"},
                           {"params", json::parse(ModernBody("x")).at("params")}}));
  EXPECT_EQ(r.status, 202);
  // Authentication still comes first: an anonymous modern request is challenged.
  Headers anonymous = ModernHeaders(key, "tools/list");
  anonymous.erase("Authorization");
  r = server_->Request("POST", "/mcp", anonymous, ModernBody("tools/list"));
  EXPECT_EQ(r.status, 401);
  EXPECT_NE(r.Header("www-authenticate").find("resource_metadata="), std::string::npos);
}

TEST_P(McpModern, LogsGoOnlyToARequestThatAskedForThem) {
  const json::object arguments{{"name", "get_project"}, {"arguments", json::object()}};
  Response quiet = Send(*server_, "tools/call", arguments, {}, "get_project");
  ASSERT_EQ(quiet.status, 200) << quiet.body;
  EXPECT_EQ(quiet.Header("content-type"), "application/json");
  EXPECT_EQ(quiet.body.find("notifications/message"), std::string::npos);

  const Response logged = Send(*server_, "tools/call", arguments,
                               {{"io.modelcontextprotocol/logLevel", "info"}}, "get_project");
  ASSERT_EQ(logged.status, 200) << logged.body;
  EXPECT_EQ(logged.Header("content-type"), "text/event-stream");
  EXPECT_NE(logged.body.find("notifications/message"), std::string::npos);
  EXPECT_NE(logged.body.find(R"("resultType":"complete")"), std::string::npos);

  const Response errors_only = Send(*server_, "tools/call", arguments,
                                    {{"io.modelcontextprotocol/logLevel", "error"}}, "get_project");
  EXPECT_EQ(errors_only.body.find("notifications/message"), std::string::npos);
}

TEST_P(McpModern, ALegacySessionKeepsWorkingBesideModernRequests) {
  const Response init = server_->Request("POST", "/mcp", McpHeaders(creds_.private_api_key),
                                         kMcpInitialize);
  ASSERT_EQ(init.status, 200) << init.body;
  const std::string session = init.Header("mcp-session-id");
  EXPECT_EQ(init.Json().at("result").at("protocolVersion"), "2025-11-25");
  EXPECT_FALSE(init.Json().at("result").as_object().contains("resultType"));
  // A modern request carrying the legacy session id is modern all the same.
  Headers headers = ModernHeaders(creds_.private_api_key, "tools/list");
  headers["Mcp-Session-Id"] = session;
  Response r = server_->Request("POST", "/mcp", headers, ModernBody("tools/list"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("result").at("resultType"), "complete");
  r = server_->Request("POST", "/mcp", McpHeaders(creds_.private_api_key, session),
                       R"({"jsonrpc":"2.0","id":3,"method":"no/such/method"})");
  EXPECT_EQ(r.status, 200);  // the legacy era answers unknown methods with 200
  EXPECT_EQ(ErrorCodeOf(r), -32601);
}

// MCP Apps: the report tools name their view, which both eras list and read as the same
// self-contained HTML resource; the 2026 era may cache it publicly (it depends on the build alone).
TEST_P(McpModern, ReportToolsLinkTheirAppViewInBothEras) {
  const Response listed = Send(*server_, "tools/list");
  ASSERT_EQ(listed.status, 200) << listed.body;
  const json::value tools = listed.Json();
  std::string uri;
  for (const json::value& tool : tools.at("result").at("tools").as_array()) {
    if (tool.at("name") != "get_web_analytics") continue;
    uri = std::string(tool.at("_meta").at("ui").at("resourceUri").as_string());
    EXPECT_EQ(tool.at("_meta").at("ui/resourceUri"), uri.c_str()) << "the older key too";
  }
  ASSERT_TRUE(uri.starts_with("ui://sightline/reports-")) << uri;

  const Response discovered = Send(*server_, "server/discover");
  const json::value capabilities = discovered.Json().at("result").at("capabilities");
  EXPECT_TRUE(capabilities.at("resources").is_object());
  EXPECT_EQ(capabilities.at("extensions").at("io.modelcontextprotocol/ui").at("mimeTypes").at(0),
            "text/html;profile=mcp-app");

  const Response read = Send(*server_, "resources/read", {{"uri", uri}}, {}, uri);
  ASSERT_EQ(read.status, 200) << read.body;
  const json::value result = read.Json().at("result");
  EXPECT_EQ(result.at("cacheScope"), "public");
  const json::value& content = result.at("contents").at(0);
  EXPECT_EQ(content.at("mimeType"), "text/html;profile=mcp-app");
  const std::string html(content.at("text").as_string());
  EXPECT_NE(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src=\"http"), std::string::npos) << "self-contained: nothing fetched";

  const Response missing =
      Send(*server_, "resources/read", {{"uri", "ui://sightline/nope.html"}}, {},
           "ui://sightline/nope.html");
  EXPECT_EQ(ErrorCodeOf(missing), -32602);

  // The 2025 era: the same view after the handshake, and its missing resource is -32002.
  const Response init = server_->Request("POST", "/mcp", McpHeaders(creds_.private_api_key),
                                         kMcpInitialize);
  ASSERT_EQ(init.status, 200) << init.body;
  EXPECT_TRUE(init.Json().at("result").at("capabilities").at("resources").is_object());
  const Headers session = McpHeaders(creds_.private_api_key, init.Header("mcp-session-id"));
  const auto legacy = [&](const std::string& method, const std::string& params) {
    return server_->Request("POST", "/mcp", session,
                            R"({"jsonrpc":"2.0","id":7,"method":")" + method +
                                R"(","params":)" + params + "}");
  };
  const Response resources = legacy("resources/list", "{}");
  EXPECT_EQ(resources.Json().at("result").at("resources").at(0).at("uri"), uri.c_str());
  const Response legacy_read = legacy("resources/read", R"({"uri":")" + uri + R"("})");
  EXPECT_EQ(legacy_read.Json().at("result").at("contents").at(0).at("text").as_string(), html);
  EXPECT_EQ(ErrorCodeOf(legacy("resources/read", R"({"uri":"ui://sightline/nope.html"})")),
            -32002);
}

INSTANTIATE_TEST_SUITE_P(Backends, McpModern, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
