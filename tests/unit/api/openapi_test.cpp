#include "api/openapi.h"

#include "api/yaml.h"
#include "core/json_util.h"
#include "identity/permissions.h"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <vector>

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::HttpMethod;
using identity::CredentialKind;
using identity::Permission;
using tools::Effect;
using tools::OperationSpec;

core::Result<json::value> RunNothing(tools::OperationContext&, const json::object&) {
  return json::value(json::object());
}

constexpr tools::Deprecation kDeprecation{1767225600, 1798761600,
                                          "https://sightline.example/migrate"};

// The fixtures' schemas as a feature's schemas.json holds them: a shared shape by $ref.
constexpr tools::SchemaDocument kSchemas{"fixtures/schemas.json", R"({
  "components": {"schemas": {
    "Widget": {"type": "object", "properties": {"id": {"type": "string"}}}}},
  "operations": {
    "get_widget": {
      "input": {"type": "object", "required": ["orgSlug", "widgetId"],
        "properties": {"orgSlug": {"type": "string", "description": "The slug."},
                       "widgetId": {"type": "string"},
                       "expand": {"type": "boolean"}}},
      "output": {"$ref": "#/components/schemas/Widget"}},
    "update_widget": {
      "input": {"type": "object", "required": ["orgSlug", "widgetId", "name"],
        "properties": {"orgSlug": {"type": "string"}, "widgetId": {"type": "string"},
                       "name": {"type": "string"}, "color": {"type": "string"}}},
      "output": {"type": "object"}},
    "get_legacy_status": {
      "input": {"type": "object", "properties": {}},
      "output": {"type": "object"}}}})"};

const std::array<OperationSpec, 3>& Fixtures() {
  static const std::array<OperationSpec, 3> specs = {{
      {.name = "get_widget",
       .summary = "Get a widget",
       .description = "Returns a widget.",
       .tag = "Widgets",
       .method = HttpMethod::kGet,
       .path = "/{orgSlug}/widgets/{widgetId}",
       .permission = Permission::kProjectView,
       .effect = Effect::kReadOnly,
       .credentials = CredentialKind::kPrivateApiKey,
       .run = RunNothing},
      {.name = "update_widget",
       .summary = "Update a widget",
       .description = "Changes a widget.",
       .tag = "Widgets",
       .method = HttpMethod::kPatch,
       .path = "/{orgSlug}/widgets/{widgetId}",
       .permission = Permission::kProjectManage,
       .effect = Effect::kIdempotentWrite,
       .credentials = CredentialKind::kPrivateApiKey,
       .run = RunNothing},
      {.name = "get_legacy_status",
       .summary = "Legacy status",
       .description = "Old; use get_widget.",
       .tag = "Legacy",
       .method = HttpMethod::kGet,
       .path = "/legacy/status",
       .permission = Permission::kProjectView,
       .effect = Effect::kReadOnly,
       .credentials = CredentialKind::kPrivateApiKey,
       .deprecation = &kDeprecation,
       .run = RunNothing},
  }};
  return specs;
}

class OpenApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto registry = tools::Registry::Build(Fixtures(), {&kSchemas, 1});
    ASSERT_TRUE(registry) << registry.error().internal();
    registry_ = std::move(*registry);
    OpenApiOptions options;
    options.server_url = "https://api.sightline.example";
    document_ = BuildOpenApi(registry_, options);
  }

  const json::object& Operation(std::string_view path, std::string_view method) {
    return document_.at("paths").at(path).at(method).as_object();
  }

  tools::Registry registry_;
  json::value document_;
};

TEST_F(OpenApiTest, IsOpenApi30WithVersion1) {
  EXPECT_TRUE(document_.at("openapi").as_string().starts_with("3.0."));
  EXPECT_EQ(document_.at("info").at("version"), "1.0.0");
  EXPECT_FALSE(document_.at("info").at("title").as_string().empty());
  EXPECT_EQ(document_.at("servers").at(0).at("url"), "https://api.sightline.example");
}

TEST_F(OpenApiTest, DeclaresEverySecurityScheme) {
  const json::object& schemes = document_.at("components").at("securitySchemes").as_object();
  EXPECT_EQ(schemes.size(), 6u);
  EXPECT_EQ(schemes.at("twoFactorSetupToken").at("name"), "X-2FA-Setup-Token");
  EXPECT_EQ(schemes.at("privateApiKey").at("type"), "http");
  EXPECT_EQ(schemes.at("privateApiKey").at("scheme"), "bearer");
  EXPECT_EQ(schemes.at("privateApiKeyHeader").at("type"), "apiKey");
  EXPECT_EQ(schemes.at("privateApiKeyHeader").at("in"), "header");
  EXPECT_EQ(schemes.at("privateApiKeyHeader").at("name"), "X-API-Key");
  EXPECT_EQ(schemes.at("sdkKey").at("type"), "apiKey");
  EXPECT_EQ(schemes.at("sdkKey").at("name"), "x-sdk-key");
  EXPECT_EQ(schemes.at("userSession").at("type"), "http");
  EXPECT_EQ(schemes.at("mcpOAuth").at("type"), "oauth2");
  const json::object& scopes =
      schemes.at("mcpOAuth").at("flows").at("authorizationCode").at("scopes").as_object();
  EXPECT_EQ(scopes.size(), identity::AllPermissions().size());
  EXPECT_TRUE(scopes.contains("analytics.view"));
}

TEST_F(OpenApiTest, ErrorResponsesReferenceTheErrorResponseSchema) {
  const json::object& components = document_.at("components").as_object();
  const json::object& schema = components.at("schemas").at("ErrorResponse").as_object();
  EXPECT_EQ(schema.at("required"), json::parse(R"(["error", "timestamp"])"));
  EXPECT_EQ(schema.at("properties").at("error").at("required"),
            json::parse(R"(["code", "message"])"));
  const json::object& responses = components.at("responses").as_object();
  EXPECT_FALSE(responses.empty());
  for (const auto& [name, response] : responses) {
    EXPECT_EQ(response.at("content").at("application/json").at("schema").at("$ref"),
              "#/components/schemas/ErrorResponse")
        << name;
  }
  // Every operation's error responses point at one of those shared responses.
  for (const auto& [path, item] : document_.at("paths").as_object()) {
    for (const auto& [method, operation] : item.as_object()) {
      for (const auto& [status, response] : operation.at("responses").as_object()) {
        if (status.starts_with("2")) continue;
        const std::string ref(response.at("$ref").as_string());
        ASSERT_TRUE(ref.starts_with("#/components/responses/")) << path << " " << method;
        EXPECT_TRUE(responses.contains(ref.substr(23))) << ref;
      }
    }
  }
}

TEST_F(OpenApiTest, SharedShapesArePublishedAsComponentsAndReferenced) {
  EXPECT_EQ(document_.at("components").at("schemas").at("Widget"),
            json::parse(R"({"type": "object", "properties": {"id": {"type": "string"}}})"));
  const json::object& ok = Operation("/{orgSlug}/widgets/{widgetId}", "get").at("responses")
                               .at("200").as_object();
  EXPECT_EQ(ok.at("content").at("application/json").at("schema"),
            json::parse(R"({"$ref": "#/components/schemas/Widget"})"));
  // The registry's own copy is resolved: what validation, MCP and the CLI read.
  EXPECT_EQ(registry_.Find("get_widget")->output_schema,
            document_.at("components").at("schemas").at("Widget"));
}

TEST_F(OpenApiTest, OperationsCarryIdsSecurityAndTheirErrorStatuses) {
  const json::object& get = Operation("/{orgSlug}/widgets/{widgetId}", "get");
  EXPECT_EQ(get.at("operationId"), "get_widget");
  EXPECT_EQ(get.at("tags"), json::parse(R"(["Widgets"])"));
  EXPECT_EQ(get.at("security"),
            json::parse(R"([{"privateApiKey": []}, {"privateApiKeyHeader": []}])"));
  EXPECT_EQ(get.at("x-sightline-permission"), "project.view");
  EXPECT_EQ(get.at("x-sightline-effect"), "read-only");
  std::set<std::string> statuses;
  for (const auto& [status, response] : get.at("responses").as_object()) {
    (void)response;
    statuses.emplace(status);
  }
  EXPECT_EQ(statuses, (std::set<std::string>{"200", "400", "401", "403", "404", "500"}));
  EXPECT_FALSE(get.contains("deprecated"));
  EXPECT_FALSE(get.contains("requestBody"));

  const json::object& patch = Operation("/{orgSlug}/widgets/{widgetId}", "patch");
  EXPECT_EQ(patch.at("operationId"), "update_widget");
  EXPECT_TRUE(patch.at("responses").as_object().contains("413"));
  EXPECT_TRUE(patch.at("responses").as_object().contains("415"));
}

TEST_F(OpenApiTest, ArgumentsSplitIntoPathQueryAndBody) {
  const json::object& get = Operation("/{orgSlug}/widgets/{widgetId}", "get");
  EXPECT_EQ(get.at("parameters"), json::parse(R"([
    {"name": "orgSlug", "in": "path", "required": true, "description": "The slug.",
     "schema": {"type": "string"}},
    {"name": "widgetId", "in": "path", "required": true, "schema": {"type": "string"}},
    {"name": "expand", "in": "query", "required": false, "schema": {"type": "boolean"}}
  ])"));

  const json::object& patch = Operation("/{orgSlug}/widgets/{widgetId}", "patch");
  EXPECT_EQ(patch.at("parameters").as_array().size(), 2u);  // the two path parameters
  EXPECT_EQ(patch.at("requestBody"), json::parse(R"({"required": true, "content": {
    "application/json": {"schema": {"type": "object",
      "properties": {"name": {"type": "string"}, "color": {"type": "string"}},
      "required": ["name"]}}}})"));
}

TEST_F(OpenApiTest, DeprecatedOperationDocumentsItsHeaders) {
  const json::object& legacy = Operation("/legacy/status", "get");
  EXPECT_EQ(legacy.at("deprecated"), true);
  const json::object& headers = legacy.at("responses").at("200").at("headers").as_object();
  for (std::string_view header : {"Deprecation", "Sunset", "Link"}) {
    ASSERT_TRUE(headers.contains(header)) << header;
    EXPECT_EQ(headers.at(header).at("schema").at("type"), "string") << header;
    EXPECT_FALSE(headers.at(header).at("description").as_string().empty()) << header;
  }
  EXPECT_FALSE(Operation("/{orgSlug}/widgets/{widgetId}", "get")
                   .at("responses")
                   .at("200")
                   .as_object()
                   .contains("headers"));
}

TEST_F(OpenApiTest, TagsListEachTagOnce) {
  std::vector<std::string> names;
  for (const auto& tag : document_.at("tags").as_array()) {
    names.emplace_back(tag.at("name").as_string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Legacy", "Widgets"}));
}

TEST_F(OpenApiTest, RenderingsCarryDistinctQuotedStrongETags) {
  OpenApiOptions options;
  options.server_url = "https://api.sightline.example";
  const OpenApiDocuments documents = RenderOpenApi(registry_, options);
  EXPECT_EQ(documents.json.content_type, "application/json");
  EXPECT_EQ(documents.yaml.content_type, "application/yaml");
  EXPECT_EQ(json::parse(documents.json.body), document_);
  EXPECT_EQ(documents.yaml.body, ToYaml(document_));
  for (const RenderedDocument* rendered : {&documents.json, &documents.yaml}) {
    const std::string& etag = rendered->etag;
    ASSERT_GE(etag.size(), 3u);
    EXPECT_EQ(etag.front(), '"') << etag;
    EXPECT_EQ(etag.back(), '"') << etag;
    EXPECT_FALSE(etag.starts_with("W/")) << etag;
    EXPECT_EQ(etag.find('"', 1), etag.size() - 1) << etag;
  }
  EXPECT_NE(documents.json.etag, documents.yaml.etag);
  // Deterministic, and dependent on the content.
  EXPECT_EQ(RenderOpenApi(registry_, options).json.etag, documents.json.etag);
  options.server_url = "https://other.example";
  EXPECT_NE(RenderOpenApi(registry_, options).json.etag, documents.json.etag);
}

}  // namespace
}  // namespace sightline::api
