#include "features/all_operations.h"
#include "tools/registry.h"

#include "api/openapi.h"
#include "core/json_util.h"
#include "identity/permissions.h"
#include "tests/unit/testing/schema_documents.h"
#include "tools/schema.h"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::HttpMethod;

core::Result<json::value> RunNothing(OperationContext&, const json::object&) {
  return json::value(json::object());
}

constexpr std::string_view kEmptyOutput = R"({"type": "object"})";
constexpr std::string_view kOrgInput = R"({"type": "object", "required": ["orgSlug"],
    "properties": {"orgSlug": {"type": "string"}}})";
constexpr std::string_view kOrgProjectInput = R"({"type": "object",
    "required": ["orgSlug", "projectId"],
    "properties": {"orgSlug": {"type": "string"}, "projectId": {"type": "string"}}})";

// A valid fixture; each failure test breaks one thing of a copy.
OperationSpec Fixture(std::string_view name, HttpMethod method, std::string_view path) {
  return OperationSpec{
      .name = name,
      .summary = "Fixture",
      .description = "A fixture operation.",
      .tag = "Fixtures",
      .method = method,
      .path = path,
      .permission = identity::Permission::kProjectView,
      .effect = method == HttpMethod::kGet ? Effect::kReadOnly : Effect::kWrite,
      .credentials = identity::CredentialKind::kPrivateApiKey,
      .run = RunNothing,
  };
}

// The same schemas for every one of `specs`.
std::vector<testutil::FixtureSchemas> SameSchemas(std::span<const OperationSpec> specs,
                                                  std::string_view input = kOrgInput,
                                                  std::string_view output = kEmptyOutput) {
  std::vector<testutil::FixtureSchemas> schemas;
  for (const OperationSpec& spec : specs) schemas.push_back({spec.name, input, output});
  return schemas;
}

core::Result<Registry> BuildWithSameSchemas(std::span<const OperationSpec> specs,
                                            std::string_view input = kOrgInput,
                                            std::string_view output = kEmptyOutput) {
  const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs, input, output));
  return Registry::Build(specs, documents);
}

// Expects Build to fail with an internal diagnostic naming `operation` and containing `what`.
void ExpectBuildFails(std::span<const OperationSpec> specs,
                      std::span<const SchemaDocument> documents, std::string_view operation,
                      std::string_view what) {
  auto registry = Registry::Build(specs, documents);
  ASSERT_FALSE(registry) << "Build accepted a broken list (" << what << ")";
  const std::string text = registry.error().internal();  // error() returns a copy
  EXPECT_NE(text.find("'" + std::string(operation) + "'"), std::string::npos) << text;
  EXPECT_NE(text.find(what), std::string::npos) << text;
}

TEST(AllOperations, BuildsIntoARegistry) {
  auto registry = Registry::Build(AllOperations(), AllSchemaDocuments());
  ASSERT_TRUE(registry) << registry.error().internal();
  EXPECT_EQ(registry->operations().size(), AllOperations().size());
  EXPECT_FALSE(registry->schema_components().empty());
  EXPECT_FALSE(AllOperations().empty());
  for (const OperationSpec& spec : AllOperations()) {
    const RegisteredOperation* op = registry->Find(spec.name);
    ASSERT_NE(op, nullptr) << spec.name;
    EXPECT_EQ(op->spec, &spec);
  }
  EXPECT_EQ(registry->Find("no_such_operation"), nullptr);
}

TEST(AllOperations, NamesMatchTheRuleAndAreUnique) {
  const std::regex rule("^[a-z0-9_]{1,48}$");
  std::set<std::string_view> names;
  for (const OperationSpec& spec : AllOperations()) {
    EXPECT_TRUE(std::regex_match(std::string(spec.name), rule)) << spec.name;
    EXPECT_TRUE(names.insert(spec.name).second) << "duplicate " << spec.name;
  }
}

TEST(AllOperations, RoutesAreUnique) {
  std::set<std::string> routes;
  for (const OperationSpec& spec : AllOperations()) {
    const std::string route =
        std::string(core::MethodName(spec.method)) + " " +
        std::regex_replace(std::string(spec.path), std::regex("\\{[^}]*\\}"), "{}");
    EXPECT_TRUE(routes.insert(route).second) << route;
  }
}

const Registry& Product() {
  static const Registry registry = Registry::Build(AllOperations(), AllSchemaDocuments()).value();
  return registry;
}

TEST(AllOperations, SchemasAreWellFormedAndHoldEveryPathParameter) {
  for (const RegisteredOperation& operation : Product().operations()) {
    const OperationSpec& spec = *operation.spec;
    SCOPED_TRACE(spec.name);
    const json::value input = operation.input_schema;
    EXPECT_TRUE(CheckSchema(operation.input_schema));
    EXPECT_TRUE(CheckSchema(operation.output_schema));
    EXPECT_EQ(input.at("type"), "object");
    EXPECT_TRUE(spec.path.starts_with("/"));
    const std::vector<std::string> parameters = PathParameters(spec.path);
    std::set<std::string> required;
    if (const json::value* names = input.as_object().if_contains("required")) {
      for (const auto& name : names->as_array()) required.emplace(name.as_string());
    }
    for (const std::string& name : parameters) {
      EXPECT_TRUE(input.at("properties").as_object().contains(name)) << name;
      EXPECT_TRUE(required.contains(name)) << name << " must be required";
      EXPECT_EQ(input.at("properties").at(name).at("type"), "string") << name;
    }
  }
}

TEST(AllOperations, GetIsReadOnlyAndEveryOperationHasAPermissionAndRun) {
  std::set<std::string_view> catalog;
  for (const auto& info : identity::AllPermissions()) catalog.insert(info.name);
  for (const OperationSpec& spec : AllOperations()) {
    SCOPED_TRACE(spec.name);
    if (spec.method == HttpMethod::kGet) {
      EXPECT_EQ(spec.effect, Effect::kReadOnly);
    }
    ASSERT_LT(static_cast<unsigned>(spec.permission),
              static_cast<unsigned>(identity::Permission::kCount));
    EXPECT_TRUE(catalog.contains(identity::PermissionName(spec.permission)));
    const int bodies =
        (spec.run != nullptr) + (spec.run_async != nullptr) + (spec.open_stream != nullptr);
    const bool negotiated = bodies == 2 && spec.run_async && spec.open_stream;
    EXPECT_TRUE(bodies == 1 || negotiated)
        << "one of run, run_async and open_stream, or run_async and open_stream";
    EXPECT_FALSE(spec.summary.empty());
    EXPECT_FALSE(spec.description.empty());
    EXPECT_FALSE(spec.tag.empty());
    // Anonymous operations exist (sign-in); they and only they hold the `auth.public` permission.
    EXPECT_EQ(spec.credentials == identity::CredentialKind::kNone,
              spec.permission == identity::Permission::kPublic);
    EXPECT_NE(spec.method, HttpMethod::kOther);
  }
}

TEST(AllOperations, OpenApiListsEachOperationOnceUnderItsRoute) {
  auto registry = Registry::Build(AllOperations(), AllSchemaDocuments());
  ASSERT_TRUE(registry);
  const json::value document = api::BuildOpenApi(*registry, {});
  const json::object& paths = document.at("paths").as_object();
  std::size_t listed = 0;
  for (const auto& [path, item] : paths) {
    for (const auto& [method, operation] : item.as_object()) {
      (void)method;
      (void)operation;
      ++listed;
    }
  }
  EXPECT_EQ(listed, registry->operations().size());
  for (const RegisteredOperation& op : registry->operations()) {
    SCOPED_TRACE(op.spec->name);
    std::string method(core::MethodName(op.spec->method));
    for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const json::value* item = paths.if_contains(op.spec->path);
    ASSERT_NE(item, nullptr);
    const json::value* operation = item->as_object().if_contains(method);
    ASSERT_NE(operation, nullptr);
    EXPECT_EQ(operation->at("operationId").as_string(), op.spec->name);
    EXPECT_EQ(operation->at("summary").as_string(), op.spec->summary);
    EXPECT_EQ(operation->at("x-sightline-permission").as_string(),
              identity::PermissionName(op.spec->permission));
    bool has_4xx = false;
    for (const auto& [status, response] : operation->at("responses").as_object()) {
      (void)response;
      has_4xx = has_4xx || (status.size() == 3 && status[0] == '4');
    }
    EXPECT_TRUE(has_4xx);
    EXPECT_TRUE(
        operation->at("responses").as_object().contains(std::to_string(op.spec->success_status)));
    ASSERT_TRUE(operation->as_object().contains("security"));
    // `security: []` declares an anonymous operation.
    EXPECT_EQ(operation->at("security").as_array().empty(),
              op.spec->credentials == identity::CredentialKind::kNone);
    for (const auto& requirement : operation->at("security").as_array()) {
      for (const auto& [scheme, scopes] : requirement.as_object()) {
        (void)scopes;
        EXPECT_TRUE(document.at("components").at("securitySchemes").as_object().contains(scheme))
            << scheme;
      }
    }
    std::set<std::string> in_path;
    if (const json::value* parameters = operation->as_object().if_contains("parameters")) {
      for (const auto& parameter : parameters->as_array()) {
        if (parameter.at("in") == "path") in_path.emplace(parameter.at("name").as_string());
      }
    }
    EXPECT_EQ(in_path.size(), op.path_parameters.size());
  }
}

// Where an output schema leaves an object's shape open: an object that lists no properties and
// does not say it is a free-form map (`additionalProperties`), or an array without typed items.
// Empty for a precise schema. `no_body` allows the empty object of a 204 answer at the top.
std::vector<std::string> ImpreciseParts(const json::object& schema, const std::string& path,
                                        bool no_body = false) {
  std::vector<std::string> found;
  const json::value* type = schema.if_contains("type");
  const json::value* properties = schema.if_contains("properties");
  if (type && *type == "object") {
    const bool listed = properties && (!properties->as_object().empty() || no_body);
    if (!listed && !schema.contains("additionalProperties")) found.push_back(path);
  }
  if (properties) {
    for (const auto& [name, property] : properties->as_object()) {
      const std::string child = path + "." + std::string(name);
      for (auto& part : ImpreciseParts(property.as_object(), child)) found.push_back(part);
    }
  }
  if (const json::value* items = schema.if_contains("items")) {
    for (auto& part : ImpreciseParts(items->as_object(), path + "[]")) found.push_back(part);
  }
  const json::value* additional = schema.if_contains("additionalProperties");
  if (additional && additional->is_object()) {
    for (auto& part : ImpreciseParts(additional->as_object(), path + ".*")) found.push_back(part);
  }
  return found;
}

TEST(AllOperations, OutputSchemasListEveryObjectsProperties) {
  for (const RegisteredOperation& operation : Product().operations()) {
    const OperationSpec& spec = *operation.spec;
    for (const std::string& part :
         ImpreciseParts(operation.output_schema, "result", spec.success_status == 204)) {
      ADD_FAILURE() << spec.name << ": " << part
                    << " is an object without properties (list them, or declare a free-form map "
                       "with additionalProperties)";
    }
  }
}

TEST(ImpreciseParts, FindsBareObjectsAndUntypedItems) {
  const json::object schema = json::parse(R"({"type": "object", "properties": {
      "a": {"type": "object"},
      "b": {"type": "array", "items": {"type": "object"}},
      "c": {"type": "object", "additionalProperties": {"type": "string"}},
      "d": {"type": "object", "properties": {"e": {"type": "object", "properties": {}}}}}})")
                                  .as_object();
  EXPECT_EQ(ImpreciseParts(schema, "r"),
            (std::vector<std::string>{"r.a", "r.b[]", "r.d.e"}));
  EXPECT_TRUE(ImpreciseParts(json::parse(R"({"type": "object", "properties": {}})").as_object(),
                             "r", /*no_body=*/true)
                  .empty());
}

TEST(PathParameters, InTemplateOrder) {
  EXPECT_EQ(PathParameters("/{orgSlug}/projects/{projectId}"),
            (std::vector<std::string>{"orgSlug", "projectId"}));
  EXPECT_TRUE(PathParameters("/users/me").empty());
}

TEST(RegisteredOperation, ArgumentLocations) {
  const std::array specs = {
      Fixture("read", HttpMethod::kGet, "/{orgSlug}/things"),
      Fixture("write", HttpMethod::kPost, "/{orgSlug}/things"),
  };
  auto registry = BuildWithSameSchemas(specs);
  ASSERT_TRUE(registry) << registry.error().internal();
  const RegisteredOperation* read = registry->Find("read");
  const RegisteredOperation* write = registry->Find("write");
  ASSERT_NE(read, nullptr);
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(read->LocationOf("orgSlug"), ArgumentLocation::kPath);
  EXPECT_EQ(read->LocationOf("limit"), ArgumentLocation::kQuery);
  EXPECT_FALSE(read->HasBody());
  EXPECT_EQ(write->LocationOf("orgSlug"), ArgumentLocation::kPath);
  EXPECT_EQ(write->LocationOf("name"), ArgumentLocation::kBody);
  EXPECT_TRUE(write->HasBody());
  EXPECT_EQ(read->path_parameters, std::vector<std::string>{"orgSlug"});
}

TEST(RegistryBuild, FailsOnADuplicateName) {
  const std::array specs = {
      Fixture("list_things", HttpMethod::kGet, "/{orgSlug}/things"),
      Fixture("list_things", HttpMethod::kGet, "/{orgSlug}/other-things"),
  };
  const testutil::TestSchemaDocuments documents(specs, {{"list_things", kOrgInput}});
  ExpectBuildFails(specs, documents, "list_things", "duplicate name");
}

TEST(RegistryBuild, FailsOnARouteDifferingOnlyInParameterNames) {
  OperationSpec first = Fixture("get_thing", HttpMethod::kGet, "/{orgSlug}/things/{thingId}");
  OperationSpec second = Fixture("get_thing_too", HttpMethod::kGet, "/{org}/things/{id}");
  const std::array specs = {first, second};
  const testutil::TestSchemaDocuments documents(
      specs, {{"get_thing", R"({"type": "object", "properties": {
                  "orgSlug": {"type": "string"}, "thingId": {"type": "string"}}})"},
              {"get_thing_too", R"({"type": "object", "properties": {
                  "org": {"type": "string"}, "id": {"type": "string"}}})"}});
  ExpectBuildFails(specs, documents, "get_thing_too", "duplicate route GET /{}/things/{}");
}

TEST(RegistryBuild, SamePathWithAnotherMethodIsFine) {
  const std::array specs = {
      Fixture("get_thing", HttpMethod::kGet, "/{orgSlug}/thing"),
      Fixture("delete_thing", HttpMethod::kDelete, "/{orgSlug}/thing"),
  };
  EXPECT_TRUE(BuildWithSameSchemas(specs));
}

TEST(RegistryBuild, FailsOnAPathParameterMissingFromTheSchema) {
  const std::array specs = {
      Fixture("get_project_thing", HttpMethod::kGet, "/{orgSlug}/p/{projectId}")};
  const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs));
  ExpectBuildFails(specs, documents, "get_project_thing", "path parameter {projectId} missing");
  EXPECT_TRUE(BuildWithSameSchemas(specs, kOrgProjectInput));
}

TEST(RegistryBuild, FailsOnAGetThatWrites) {
  for (Effect effect : {Effect::kWrite, Effect::kIdempotentWrite, Effect::kDestructive}) {
    OperationSpec spec = Fixture("sneaky_write", HttpMethod::kGet, "/{orgSlug}/sneaky");
    spec.effect = effect;
    const std::array specs = {spec};
    const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs));
    ExpectBuildFails(specs, documents, "sneaky_write", "GET operations must be read-only");
  }
}

TEST(RegistryBuild, FailsOnABadName) {
  for (std::string_view name : {"getProject", "get-project", "", "get project", "get.project",
                                "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghi"}) {
    const std::array specs = {Fixture(name, HttpMethod::kGet, "/{orgSlug}/x")};
    const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs));
    ExpectBuildFails(specs, documents, name, "name must match");
  }
  const std::array longest = {Fixture("abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh",
                                      HttpMethod::kGet, "/{orgSlug}/x")};
  EXPECT_TRUE(BuildWithSameSchemas(longest));
}

TEST(RegistryBuild, FailsOnMalformedSchemas) {
  const std::array specs = {Fixture("broken_schema", HttpMethod::kGet, "/{orgSlug}/x")};
  auto expect_fails = [&](std::string_view input, std::string_view output, std::string_view what) {
    const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs, input, output));
    ExpectBuildFails(specs, documents, "broken_schema", what);
  };
  expect_fails("[]", kEmptyOutput, "needs an object 'input'");
  expect_fails(kOrgInput, R"({"type": "array"})", "output schema");
  expect_fails(R"({"type": "object", "required": ["orgSlug", "ghost"],
      "properties": {"orgSlug": {"type": "string"}}})", kEmptyOutput, "input schema");
  expect_fails(R"({"type": "string"})", kEmptyOutput, "input schema must be an object");
}

TEST(RegistryBuild, FailsOnADocumentThatIsNotJson) {
  const std::array specs = {Fixture("some_thing", HttpMethod::kGet, "/{orgSlug}/x")};
  const SchemaDocument broken{"features/broken/schemas.json", R"({"operations": {)"};
  auto registry = Registry::Build(specs, {&broken, 1});
  ASSERT_FALSE(registry);
  EXPECT_NE(registry.error().internal().find("features/broken/schemas.json"), std::string::npos);
}

TEST(RegistryBuild, FailsOnAnOperationWithoutSchemas) {
  const std::array specs = {Fixture("unschematic", HttpMethod::kGet, "/{orgSlug}/x")};
  const testutil::TestSchemaDocuments documents(specs);
  ExpectBuildFails(specs, documents, "unschematic", "no schemas");
}

TEST(RegistryBuild, FailsOnSchemasForAnOperationThatDoesNotExist) {
  const std::array specs = {Fixture("real_thing", HttpMethod::kGet, "/{orgSlug}/x")};
  const testutil::TestSchemaDocuments documents(
      specs, {{"real_thing", kOrgInput}, {"ghost_thing", kOrgInput}});
  ExpectBuildFails(specs, documents, "ghost_thing", "does not exist");
}

TEST(RegistryBuild, FailsOnAReferenceToNoComponent) {
  const std::array specs = {Fixture("dangling", HttpMethod::kGet, "/{orgSlug}/x")};
  const testutil::TestSchemaDocuments documents(
      specs, {{"dangling", kOrgInput, R"({"$ref": "#/components/schemas/NoSuchShape"})"}});
  ExpectBuildFails(specs, documents, "dangling", "$ref to no component ('NoSuchShape')");
}

TEST(RegistryBuild, FailsOnAComponentDefinedTwiceOrContainingItself) {
  const std::array specs = {Fixture("shaped", HttpMethod::kGet, "/{orgSlug}/x")};
  const SchemaDocument twice[] = {
      {"a.json", R"({"components": {"schemas": {"Shape": {"type": "object"}}}})"},
      {"b.json", R"({"components": {"schemas": {"Shape": {"type": "object"}}}})"}};
  auto registry = Registry::Build(specs, twice);
  ASSERT_FALSE(registry);
  EXPECT_NE(registry.error().internal().find("component Shape is also defined in a.json"),
            std::string::npos);
  const SchemaDocument cycle{"c.json", R"({"components": {"schemas": {
      "Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}}})"};
  registry = Registry::Build(specs, {&cycle, 1});
  ASSERT_FALSE(registry);
  EXPECT_NE(registry.error().internal().find("component Node contains itself"), std::string::npos);
}

TEST(RegistryBuild, ResolvesReferencesAndKeepsThePublishedForm) {
  const std::array specs = {Fixture("get_widget", HttpMethod::kGet, "/{orgSlug}/x")};
  const SchemaDocument documents[] = {
      {"tools/schemas.json", R"({"components": {"schemas": {
          "OrgSlug": {"type": "string", "description": "The slug."},
          "Widget": {"$comment": "For readers only.", "type": "object", "properties": {
              "id": {"type": "string"}, "slug": {"$ref": "#/components/schemas/OrgSlug"}}}}}})"},
      {"features/widgets/schemas.json", R"({"operations": {"get_widget": {
          "input": {"type": "object", "required": ["orgSlug"],
                    "properties": {"orgSlug": {"$ref": "#/components/schemas/OrgSlug"}}},
          "output": {"type": "array", "items": {"$ref": "#/components/schemas/Widget"}}}}})"}};
  auto registry = Registry::Build(specs, documents);
  ASSERT_TRUE(registry) << registry.error().internal();
  const RegisteredOperation& widget = *registry->Find("get_widget");
  EXPECT_EQ(widget.output_schema, json::parse(R"({"type": "array", "items": {"type": "object",
      "properties": {"id": {"type": "string"},
                     "slug": {"type": "string", "description": "The slug."}}}})"));
  EXPECT_EQ(widget.input_schema.at("properties").at("orgSlug"),
            json::parse(R"({"type": "string", "description": "The slug."})"));
  EXPECT_EQ(widget.published_output_schema.at("items"),
            json::parse(R"({"$ref": "#/components/schemas/Widget"})"));
  EXPECT_EQ(registry->schema_components().size(), 2u);
  // Without its comment, and in the order written (what MCP clients and the CLI's help show).
  EXPECT_EQ(core::ToJson(registry->schema_components().at("Widget")),
            R"({"type":"object","properties":{"id":{"type":"string"},)"
            R"("slug":{"$ref":"#/components/schemas/OrgSlug"}}})");
}

TEST(RegistryBuild, FailsWithoutARunFunction) {
  OperationSpec spec = Fixture("no_run", HttpMethod::kGet, "/{orgSlug}/x");
  spec.run = nullptr;
  const std::array specs = {spec};
  const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs));
  ExpectBuildFails(specs, documents, "no_run", "needs one of run, run_async and open_stream");
}

TEST(RegistryBuild, FailsWithBothRunFunctions) {
  OperationSpec spec = Fixture("both_runs", HttpMethod::kGet, "/{orgSlug}/x");
  spec.run_async = [](OperationContext&, const json::object&, ResultCallback done) {
    done(json::value(nullptr));
  };
  const std::array specs = {spec};
  const testutil::TestSchemaDocuments documents(specs, SameSchemas(specs));
  ExpectBuildFails(specs, documents, "both_runs", "needs one of run, run_async and open_stream");
}

TEST(RegistryBuild, ErrorIsInternalWithAGenericMessage) {
  const std::array specs = {Fixture("Bad", HttpMethod::kGet, "/{orgSlug}/x")};
  auto registry = BuildWithSameSchemas(specs);
  ASSERT_FALSE(registry);
  EXPECT_EQ(registry.error().code(), core::ErrorCode::kInternal);
  EXPECT_EQ(registry.error().message().find("Bad"), std::string::npos);
}

}  // namespace
}  // namespace sightline::tools
