#include "features/all_operations.h"
#include "mcp/discovery.h"
#include "mcp/protocol.h"
#include "mcp/tool_catalog.h"
#include "tools/access.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using identity::CredentialKind;
using identity::Permission;

const tools::Registry& TheRegistry() {
  static const tools::Registry registry =
      *tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
  return registry;
}

TEST(McpProtocol, NegotiatesDownToASupportedRevisionOrOffersTheNewest) {
  EXPECT_EQ(NegotiateVersion("2025-11-25"), "2025-11-25");
  EXPECT_EQ(NegotiateVersion("2025-06-18"), "2025-06-18");
  EXPECT_EQ(NegotiateVersion("2025-03-26"), "2025-03-26");
  EXPECT_EQ(NegotiateVersion("2024-11-05"), "2025-11-25");
  EXPECT_EQ(NegotiateVersion(""), "2025-11-25");
}

TEST(McpProtocol, TellsRequestsNotificationsAndResponsesApart) {
  auto parse = [](std::string_view text) { return ParseMessage(json::parse(text)); };
  auto request = parse(R"({"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"a":1}})");
  ASSERT_TRUE(request);
  EXPECT_EQ(request->kind, Message::Kind::kRequest);
  EXPECT_EQ(request->id, json::value("x"));
  EXPECT_EQ(request->params.at("a"), 1);
  auto notification = parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(notification);
  EXPECT_EQ(notification->kind, Message::Kind::kNotification);
  auto response = parse(R"({"jsonrpc":"2.0","id":3,"result":{}})");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->kind, Message::Kind::kResponse);

  for (const char* bad : {R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", R"("ping")",
                          R"({"id":1,"method":"ping"})",
                          R"({"jsonrpc":"2.0","id":null,"method":"p"})",
                          R"({"jsonrpc":"2.0","id":1.5,"method":"p"})",
                          R"({"jsonrpc":"2.0","id":1,"method":""})",
                          R"({"jsonrpc":"2.0","id":1,"method":"p","params":[1]})",
                          R"({"jsonrpc":"2.0","id":1})"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(parse(bad));
  }
}

TEST(McpProtocol, LogLevelsAreTheSyslogNamesInOrder) {
  EXPECT_LT(*LogLevelRank("debug"), *LogLevelRank("info"));
  EXPECT_LT(*LogLevelRank("warning"), *LogLevelRank("emergency"));
  EXPECT_FALSE(LogLevelRank("loud"));
  EXPECT_FALSE(LogLevelRank("INFO"));
}

TEST(McpSchema, NullableBecomesANullTypeAndOpenApiKeywordsGo) {
  const json::object converted = tools::ToJsonSchema(json::parse(R"({
      "type": "object", "example": {},
      "properties": {
        "a": {"type": "string", "nullable": true, "enum": ["x", "y"]},
        "b": {"type": "array", "items": {"type": "integer", "nullable": true}},
        "c": {"type": "number", "nullable": false}}})").as_object());
  EXPECT_EQ(converted, json::parse(R"({
      "type": "object",
      "properties": {
        "a": {"type": ["string", "null"], "enum": ["x", "y", null]},
        "b": {"type": "array", "items": {"type": ["integer", "null"]}},
        "c": {"type": "number"}}})"));
}

TEST(McpCatalog, EveryOperationIsAToolOrExcludedWithAReason) {
  const ToolCatalog catalog(TheRegistry());
  for (const tools::RegisteredOperation& op : TheRegistry().operations()) {
    SCOPED_TRACE(std::string(op.spec->name));
    const Tool* tool = catalog.Find(op.spec->name);
    EXPECT_EQ(tool == nullptr, !op.spec->mcp_exclusion_reason.empty());
    // Streams, SDK ingestion and credential management are never tools.
    if (op.spec->open_stream || op.spec->raw_body ||
        op.spec->credentials == CredentialKind::kSdkKey ||
        op.spec->permission == Permission::kPrivateApiKeyCreate ||
        op.spec->permission == Permission::kSdkKeyCreate) {
      EXPECT_EQ(tool, nullptr);
    }
  }
}

TEST(McpCatalog, ToolsAreDescribedTheWayStrictClientsNeed) {
  const std::regex name_pattern("^[a-z0-9_]{1,48}$");
  const ToolCatalog catalog(TheRegistry());
  for (const Tool& tool : catalog.tools()) {
    const json::object& d = tool.descriptor;
    SCOPED_TRACE(std::string(d.at("name").as_string()));
    EXPECT_TRUE(std::regex_match(std::string(d.at("name").as_string()), name_pattern));
    const json::object& input = d.at("inputSchema").as_object();
    EXPECT_EQ(input.at("type"), "object");
    for (const char* forbidden : {"oneOf", "anyOf", "allOf", "$ref", "nullable"}) {
      EXPECT_FALSE(input.contains(forbidden)) << forbidden;
    }
    EXPECT_FALSE(input.at("properties").as_object().contains("orgSlug"));
    EXPECT_FALSE(input.at("properties").as_object().contains("projectId"));
    if (const json::value* required = input.if_contains("required")) {
      for (const json::value& name : required->as_array()) {
        EXPECT_TRUE(input.at("properties").as_object().contains(name.as_string())) << name;
      }
    }
    if (const json::value* output = d.if_contains("outputSchema")) {
      EXPECT_EQ(output->at("type"), "object");
      EXPECT_TRUE(tool.has_output_schema);
    }
    const json::object& hints = d.at("annotations").as_object();
    for (const char* hint :
         {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
      EXPECT_TRUE(hints.at(hint).is_bool()) << hint;
    }
    const tools::Effect effect = tool.operation->spec->effect;
    EXPECT_EQ(hints.at("readOnlyHint").as_bool(), effect == tools::Effect::kReadOnly);
    EXPECT_EQ(hints.at("idempotentHint").as_bool(), effect != tools::Effect::kWrite);
    EXPECT_EQ(hints.at("destructiveHint").as_bool(), effect == tools::Effect::kDestructive ||
                                                         effect == tools::Effect::kIdempotentWrite);
  }
}

TEST(McpCatalog, AConnectionCallsWhatItsCredentialAndModeAllow) {
  const ToolCatalog catalog(TheRegistry());
  identity::Principal key;
  key.kind = CredentialKind::kPrivateApiKey;
  key.permissions.Add(Permission::kAnalyticsView);
  key.permissions.Add(Permission::kProjectManage);
  const Tool& web = *catalog.Find("get_web_analytics");
  const Tool& bots = *catalog.Find("get_top_bots");
  const Tool& update = *catalog.Find("update_project");
  const auto may = [](const Tool& tool, identity::Principal principal, bool read_only) {
    principal.read_only = read_only;
    return tools::MayCall(*tool.operation->spec, principal,
                          tools::EffectivePermissions(principal, std::nullopt),
                          tools::Caller::kModel);
  };
  EXPECT_TRUE(may(web, key, false));
  EXPECT_FALSE(may(bots, key, false));  // no bots.view
  EXPECT_TRUE(may(update, key, false));
  EXPECT_FALSE(may(update, key, true));  // read-only connection
  EXPECT_TRUE(may(web, key, true));
  // The user's own account would reach beyond the one project a connection is bound to.
  EXPECT_EQ(catalog.Find("list_organizations"), nullptr);
  EXPECT_EQ(catalog.Find("get_current_user"), nullptr);

  identity::Principal grant;  // an OAuth connection: consent ∩ role, computed at sign-in time
  grant.kind = CredentialKind::kMcpToken;
  grant.permissions.Add(Permission::kAnalyticsView);
  EXPECT_TRUE(may(web, grant, false));
  EXPECT_FALSE(may(bots, grant, false));
  const identity::PermissionSet grantable = catalog.GrantablePermissions();
  EXPECT_TRUE(grantable.Has(Permission::kBotsView));
  EXPECT_TRUE(grantable.Has(Permission::kProjectManage));
  EXPECT_FALSE(grantable.Has(Permission::kAccount));  // no role carries it
  EXPECT_FALSE(grantable.Has(Permission::kPrivateApiKeyCreate));  // no tool needs it
  EXPECT_FALSE(grantable.Has(Permission::kPublic));
}

TEST(McpDiscovery, TheResourceAndItsMetadataFollowThePublicUrl) {
  EXPECT_EQ(McpResourceUrl("https://a.example"), "https://a.example/mcp");
  EXPECT_EQ(McpResourceUrl("https://a.example/"), "https://a.example/mcp");
  EXPECT_EQ(ProtectedResourceMetadataUrl("https://a.example"),
            "https://a.example/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(ProtectedResourceMetadataUrl("https://a.example:8443/api/"),
            "https://a.example:8443/.well-known/oauth-protected-resource/api/mcp");
  const json::object metadata = ProtectedResourceMetadata("https://a.example/api");
  EXPECT_EQ(metadata.at("resource"), "https://a.example/api/mcp");
  EXPECT_EQ(metadata.at("authorization_servers").at(0), "https://a.example/api");
  const json::object card = ServerCard("https://a.example");
  EXPECT_TRUE(std::regex_match(std::string(card.at("name").as_string()),
                               std::regex("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$")));
  EXPECT_LE(card.at("description").as_string().size(), 100u);
  // Both eras: the modern revision first, then the handshake's.
  EXPECT_EQ(boost::json::serialize(card.at("remotes").at(0).at("supportedProtocolVersions")),
            R"(["2026-07-28","2025-11-25","2025-06-18","2025-03-26"])");
  EXPECT_FALSE(metadata.contains("scopes_supported") &&
               boost::json::serialize(metadata.at("scopes_supported")).find("offline_access") !=
                   std::string::npos);
}

TEST(McpDocs, EveryToolAndEveryExclusionIsInDocsMcp) {
  std::ifstream file(std::string(SIGHTLINE_SOURCE_DIR) + "/docs/mcp.md");
  ASSERT_TRUE(file);
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  for (const tools::RegisteredOperation& op : TheRegistry().operations()) {
    const std::string name = "`" + std::string(op.spec->name) + "`";
    const std::size_t row = doc.find("| " + name);
    const std::size_t listed = row != std::string::npos ? row : doc.find(", " + name);
    ASSERT_NE(listed, std::string::npos) << op.spec->name << " is missing from docs/mcp.md";
    if (!op.spec->mcp_exclusion_reason.empty()) {
      const std::string line = doc.substr(listed, doc.find('\n', listed) - listed);
      EXPECT_NE(line.find(op.spec->mcp_exclusion_reason), std::string::npos)
          << op.spec->name << ": docs/mcp.md must give the registry's reason";
    }
  }
}

}  // namespace
}  // namespace sightline::mcp
