#include "features/all_operations.h"
#include "tools/access.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "identity/authenticator.h"
#include "identity/bootstrap.h"
#include "tests/unit/testing/schema_documents.h"
#include "tests/unit/testing/temp_store.h"
#include "tools/dispatch.h"
#include "tools/registry.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using identity::CredentialKind;
using identity::Permission;
using identity::Principal;

constexpr std::int64_t kNowMillis = 1767225600000;  // 2026-01-01T00:00:00Z

// Every kind of caller there is, each holding everything its kind could ever hold, so that a
// refusal can only come from the kind itself.
std::vector<std::pair<std::string, Principal>> EveryKindOfCaller(const std::string& org_id,
                                                                 const std::string& slug,
                                                                 const std::string& project) {
  identity::PermissionSet everything = identity::RolePermissions(identity::Role::kOwner);
  everything.Add(Permission::kAccount);
  everything.Add(Permission::kEventsIngest);
  const auto bound = [&](CredentialKind kind, bool read_only = false) {
    Principal p;
    p.kind = kind;
    p.credential_id = "c1";
    p.user_id = "u1";
    p.organization_id = org_id;
    p.organization_slug = slug;
    p.project_id = project;
    p.permissions = everything;
    p.read_only = read_only;
    return p;
  };
  Principal session;
  session.kind = CredentialKind::kUserSession;
  session.user_id = "u1";
  session.permissions.Add(Permission::kAccount);
  Principal setup;
  setup.kind = CredentialKind::kTwoFactorSetup;
  setup.user_id = "u1";
  return {{"anonymous", Principal{}},
          {"sdk key", bound(CredentialKind::kSdkKey)},
          {"private key", bound(CredentialKind::kPrivateApiKey)},
          {"session", session},
          {"setup token", setup},
          {"mcp grant", bound(CredentialKind::kMcpToken)},
          {"read-only mcp grant", bound(CredentialKind::kMcpToken, true)}};
}

struct World {
  testutil::TempStore temp;
  core::ManualClock clock{kNowMillis};
  identity::BootstrapResult keys;
  Registry registry;
  std::unique_ptr<identity::SessionService> sessions;
  std::unique_ptr<Services> services;
  std::unique_ptr<Dispatcher> dispatcher;

  World(std::span<const OperationSpec> operations, std::span<const SchemaDocument> schemas) {
    auto bootstrap = identity::Bootstrap(temp.store(), clock, testutil::DefaultBootstrapRequest());
    EXPECT_TRUE(bootstrap) << bootstrap.error().internal();
    if (bootstrap) keys = std::move(*bootstrap);
    auto built = Registry::Build(operations, schemas);
    EXPECT_TRUE(built);
    if (built) registry = std::move(*built);
    sessions = std::make_unique<identity::SessionService>(temp.store(), clock, "test-secret");
    services = std::make_unique<tools::Services>(tools::Services{*sessions});
    dispatcher = std::make_unique<Dispatcher>(temp.store(), clock, *services);
  }

  core::Result<json::value> Call(std::string_view name, const Principal& principal,
                                 const json::object& args, Caller caller = Caller::kDirect) {
    const RequestMeta meta{"test", "127.0.0.1", std::nullopt, nullptr, caller};
    return dispatcher->Call(*registry.Find(name), principal, args, meta);
  }

  Principal Key() {
    identity::Authenticator authenticator(temp.store());
    auto principal = authenticator.AuthenticatePrivateKey(keys.private_api_key);
    EXPECT_TRUE(principal);
    return *principal;
  }
};

World& Product() {
  static World world(AllOperations(), AllSchemaDocuments());
  return world;
}

// The adapters (REST, MCP, the assistant) filter what they offer, but the dispatcher must not
// rely on it: called directly, with arguments or without, an operation refuses every caller
// whose kind it does not accept, before anything else is looked at.
TEST(Access, TheDispatcherRefusesEveryKindAnOperationDoesNotAccept) {
  World& world = Product();
  int refusals = 0;
  for (const auto& [who, principal] :
       EveryKindOfCaller("o1", world.keys.organization_slug, world.keys.project_id)) {
    for (const RegisteredOperation& operation : world.registry.operations()) {
      const OperationSpec& spec = *operation.spec;
      auto decided = CheckCredential(spec, principal, Caller::kDirect);
      if (decided) continue;
      ++refusals;
      auto called = world.Call(spec.name, principal, json::object{});
      ASSERT_FALSE(called) << who << " reached " << spec.name;
      EXPECT_EQ(called.error().code(), decided.error().code()) << who << " " << spec.name;
      const int status = called.error().info().http_status;
      EXPECT_TRUE(status == 401 || status == 403) << who << " " << spec.name << " " << status;
    }
  }
  EXPECT_GT(refusals, 100);
}

TEST(Access, EachKindReachesWhatTheSpecSays) {
  World& world = Product();
  const auto callers = EveryKindOfCaller("o1", world.keys.organization_slug, world.keys.project_id);
  const auto may = [&](std::string_view who, std::string_view operation) {
    for (const auto& [name, principal] : callers) {
      if (name == who) {
        return CheckCredential(*world.registry.Find(operation)->spec, principal, Caller::kDirect);
      }
    }
    return core::Result<void>(core::Error::Internal("no such caller"));
  };
  EXPECT_EQ(may("anonymous", "get_project").error().code(), ErrorCode::kAuthRequired);
  EXPECT_EQ(may("sdk key", "get_web_analytics").error().code(),
            ErrorCode::kAuthWrongCredentialKind);
  EXPECT_TRUE(may("sdk key", "sdk_track_event"));
  EXPECT_EQ(may("private key", "sdk_track_event").error().code(),
            ErrorCode::kAuthWrongCredentialKind);
  EXPECT_EQ(may("private key", "get_current_user").error().code(), ErrorCode::kPermDenied);
  EXPECT_TRUE(may("private key", "send_agent_message"));  // the creator's conversations
  EXPECT_EQ(may("setup token", "get_project").error().code(), ErrorCode::kAuthWrongCredentialKind);
  EXPECT_TRUE(may("setup token", "setup_two_factor"));
  EXPECT_TRUE(may("mcp grant", "update_project"));
  EXPECT_EQ(may("mcp grant", "list_organizations").error().code(), ErrorCode::kPermDenied);
  EXPECT_EQ(may("read-only mcp grant", "update_project").error().code(), ErrorCode::kPermDenied);
  EXPECT_TRUE(may("read-only mcp grant", "get_project"));
  EXPECT_TRUE(may("session", "login"));  // public operations take anyone
}

TEST(Access, ListingsAskTheSameRuleAsTheDispatcher) {
  World& world = Product();
  Principal grant;
  grant.kind = CredentialKind::kMcpToken;
  grant.permissions.Add(Permission::kAnalyticsView);
  const auto held = EffectivePermissions(grant, std::nullopt);
  const auto may = [&](std::string_view operation, const Principal& who,
                       const identity::PermissionSet& permissions) {
    return MayCall(*world.registry.Find(operation)->spec, who, permissions, Caller::kModel);
  };
  EXPECT_TRUE(may("get_web_analytics", grant, held));
  EXPECT_FALSE(may("get_top_bots", grant, held));  // bots.view
  EXPECT_FALSE(may("list_organizations", grant, held));
  grant.read_only = true;
  grant.permissions.Add(Permission::kProjectManage);
  EXPECT_FALSE(may("update_project", grant, EffectivePermissions(grant, std::nullopt)));
  // A model reaches nothing kept from models, whatever its credential holds.
  Principal owner_key;
  owner_key.kind = CredentialKind::kPrivateApiKey;
  owner_key.permissions = identity::RolePermissions(identity::Role::kOwner);
  EXPECT_FALSE(may("delete_project", owner_key, owner_key.permissions));
  EXPECT_TRUE(MayCall(*world.registry.Find("delete_project")->spec, owner_key,
                      owner_key.permissions, Caller::kDirect));
}

TEST(Access, AKeyIsBoundToItsOrganizationAndProject) {
  World& world = Product();
  const Principal key = world.Key();
  EXPECT_EQ(key.organization_slug, world.keys.organization_slug);
  ASSERT_NE(key.project, nullptr);  // read with the key: no second read
  // What a REST caller leaves out is filled in; what it names must be the key's own.
  auto filled = world.Call("get_project", key, json::object{});
  ASSERT_TRUE(filled) << filled.error().message();
  EXPECT_EQ(filled->at("id").as_string(), world.keys.project_id);
  auto other = world.Call("get_project", key,
                          {{"orgSlug", "someone-else"}, {"projectId", world.keys.project_id}});
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code(), ErrorCode::kOrgNotFound);
  // A model's arguments never name another organization or project: they are replaced.
  auto replaced = world.Call(
      "get_project", key, {{"orgSlug", "someone-else"}, {"projectId", "p-other"}}, Caller::kModel);
  ASSERT_TRUE(replaced) << replaced.error().message();
  EXPECT_EQ(replaced->at("id").as_string(), world.keys.project_id);
}

core::Result<json::value> RunThrows(OperationContext&, const json::object&) {
  throw std::runtime_error("a bug");
}

TEST(Access, AnOperationThatThrowsFailsItsCallNotTheCaller) {
  static const OperationSpec kThrows{.name = "throws",
                                     .summary = "Throws",
                                     .tag = "Test",
                                     .method = core::HttpMethod::kGet,
                                     .path = "/throws",
                                     .permission = Permission::kPublic,
                                     .effect = Effect::kReadOnly,
                                     .credentials = CredentialKind::kNone,
                                     .run = RunThrows};
  const std::span<const OperationSpec> operations(&kThrows, 1);
  const testutil::TestSchemaDocuments schemas(operations, {{"throws", R"({"type": "object"})"}});
  World world(operations, schemas);
  auto called = world.Call("throws", Principal{}, json::object{});
  ASSERT_FALSE(called);
  EXPECT_EQ(called.error().code(), ErrorCode::kInternal);
  EXPECT_NE(called.error().internal().find("a bug"), std::string::npos);
}

}  // namespace
}  // namespace sightline::tools
