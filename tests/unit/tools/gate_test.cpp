#include "features/all_operations.h"
#include "tools/gate.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "identity/authenticator.h"
#include "identity/bootstrap.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "storage/account_records.h"
#include "tests/unit/testing/temp_store.h"
#include "tools/dispatch.h"
#include "tools/registry.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using identity::CredentialKind;
using identity::Principal;

constexpr std::int64_t kNowMillis = 1767225600000;  // 2026-01-01T00:00:00Z
constexpr std::int64_t kQuota = 4;

// The product's registry and services on a fresh store, behind a gate whose windows hold
// kQuota calls.
struct World {
  testutil::TempStore temp;
  core::ManualClock clock{kNowMillis};
  identity::BootstrapResult keys;
  Registry registry;
  std::unique_ptr<identity::SessionService> sessions;
  std::unique_ptr<Services> services;
  std::unique_ptr<Dispatcher> dispatcher;
  std::unique_ptr<identity::Authenticator> authenticator;
  std::unique_ptr<identity::RateLimiter> credential_windows, client_ip_windows;
  std::unique_ptr<Gate> gate;

  World() {
    auto bootstrap = identity::Bootstrap(temp.store(), clock, testutil::DefaultBootstrapRequest());
    EXPECT_TRUE(bootstrap) << bootstrap.error().internal();
    if (bootstrap) keys = std::move(*bootstrap);
    auto built = Registry::Build(AllOperations(), AllSchemaDocuments());
    EXPECT_TRUE(built);
    if (built) registry = std::move(*built);
    sessions = std::make_unique<identity::SessionService>(temp.store(), clock, "test-secret");
    services = std::make_unique<Services>(Services{*sessions});
    dispatcher = std::make_unique<Dispatcher>(temp.store(), clock, *services);
    authenticator = std::make_unique<identity::Authenticator>(temp.store());
    credential_windows = std::make_unique<identity::RateLimiter>(
        temp.store(), clock, identity::RateLimitPolicy{"per-minute", kQuota, 60});
    client_ip_windows = std::make_unique<identity::RateLimiter>(
        temp.store(), clock, identity::RateLimitPolicy{"per-minute-per-ip", kQuota, 60});
    gate = std::make_unique<Gate>(Gate::Parts{*dispatcher, *authenticator, *sessions, nullptr,
                                              *credential_windows, *client_ip_windows});
  }

  const OperationSpec& Spec(std::string_view name) { return *registry.Find(name)->spec; }
  static Presented Bearer(std::string secret) {
    return Presented{.secret = std::move(secret), .in_authorization = true,
                     .client_ip = "192.0.2.1"};
  }
  std::string SessionToken() {
    auto login = sessions->Login("owner@example.com", "correct horse battery", std::nullopt);
    EXPECT_TRUE(login && login->session);
    return login && login->session ? login->session->access_token : "";
  }
};

class GateTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(world_.temp.ok()); }
  World world_;
};

TEST_F(GateTest, EveryKindIsToldApartAndAuthenticatedInOnePlace) {
  auto key = world_.gate->Identify(Surface::kRest, World::Bearer(world_.keys.private_api_key),
                                   &world_.Spec("get_project"));
  ASSERT_TRUE(key) << key.error().message();
  EXPECT_EQ(key->kind, CredentialKind::kPrivateApiKey);
  EXPECT_EQ(key->organization_slug, world_.keys.organization_slug);

  auto session = world_.gate->Identify(Surface::kRest, World::Bearer(world_.SessionToken()),
                                       &world_.Spec("get_project"));
  ASSERT_TRUE(session) << session.error().message();
  EXPECT_EQ(session->kind, CredentialKind::kUserSession);

  auto sdk = world_.gate->Identify(Surface::kRest, World::Bearer(world_.keys.sdk_key),
                                   &world_.Spec("ingest_server_events"));
  EXPECT_FALSE(sdk) << "ingest_server_events takes private keys only";
  EXPECT_EQ(sdk.error().code(), ErrorCode::kAuthWrongCredentialKind);

  auto garbage = world_.gate->Identify(Surface::kRest, World::Bearer("not-a-credential"),
                                       &world_.Spec("get_project"));
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error().code(), ErrorCode::kAuthMalformedCredential);

  auto none = world_.gate->Identify(Surface::kRest, Presented{}, &world_.Spec("get_project"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code(), ErrorCode::kAuthRequired);
  auto anonymous = world_.gate->Identify(Surface::kRest, Presented{}, &world_.Spec("login"));
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->kind, CredentialKind::kNone);
}

TEST_F(GateTest, McpTakesPrivateKeysAndMarksReadOnlyConnections) {
  Presented presented = World::Bearer(world_.keys.private_api_key);
  presented.read_only = true;
  auto key = world_.gate->Identify(Surface::kMcp, presented);
  ASSERT_TRUE(key) << key.error().message();
  EXPECT_EQ(key->kind, CredentialKind::kPrivateApiKey);
  EXPECT_TRUE(key->read_only);
  EXPECT_EQ(Gate::CallerOf(Surface::kMcp), Caller::kModel);
  EXPECT_EQ(Gate::CallerOf(Surface::kRest), Caller::kDirect);

  auto sdk = world_.gate->Identify(Surface::kMcp, World::Bearer(world_.keys.sdk_key));
  ASSERT_FALSE(sdk);
  EXPECT_EQ(sdk.error().code(), ErrorCode::kAuthWrongCredentialKind);
  auto session = world_.gate->Identify(Surface::kMcp, World::Bearer(world_.SessionToken()));
  ASSERT_FALSE(session) << "a dashboard session is not an MCP credential";
  EXPECT_EQ(session.error().code(), ErrorCode::kAuthInvalidCredential);
}

TEST_F(GateTest, OneWindowPerCredentialCountedPerOperationCall) {
  auto key = world_.gate->Identify(Surface::kRest, World::Bearer(world_.keys.private_api_key));
  ASSERT_TRUE(key);
  const RegisteredOperation& get_project = *world_.registry.Find("get_project");
  const json::object args{{"orgSlug", world_.keys.organization_slug},
                          {"projectId", world_.keys.project_id}};
  const RequestMeta meta{"test", "192.0.2.1", std::nullopt, nullptr, Caller::kModel};
  // A REST request counted by its adapter, then calls counted and run by the gate.
  auto counted = world_.gate->Count(*get_project.spec, *key, "192.0.2.1");
  ASSERT_TRUE(counted && *counted);
  EXPECT_EQ((*counted)->decision.remaining, kQuota - 1);
  EXPECT_FALSE((*counted)->per_client_ip);
  for (std::int64_t left = kQuota - 2; left >= 0; --left) {
    std::optional<Window> window;
    world_.gate->Call(get_project, *key, args, meta,
                      [&](core::Result<json::value> result, const std::optional<Window>& w) {
                        EXPECT_TRUE(result) << result.error().message();
                        window = w;
                      });
    ASSERT_TRUE(window);
    EXPECT_EQ(window->decision.remaining, left);
  }
  // Used up: refused before the dispatcher runs anything, with the time to wait.
  auto refused = world_.gate->CallAndWait(get_project, *key, args, meta);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::kAuthRateLimited);
  EXPECT_GE(refused.error().details().at("retryAfterSeconds").as_int64(), 1);
  // A new window a minute later.
  world_.clock.Advance(std::chrono::seconds(60));
  EXPECT_TRUE(world_.gate->CallAndWait(get_project, *key, args, meta));
}

TEST_F(GateTest, AnonymousCallersCountByClientIpAndIngestionIsExempt) {
  const OperationSpec& login = world_.Spec("login");
  for (std::int64_t left = kQuota - 1; left >= 0; --left) {
    auto counted = world_.gate->Count(login, Principal{}, "198.51.100.7");
    ASSERT_TRUE(counted && *counted);
    EXPECT_TRUE((*counted)->per_client_ip);
    EXPECT_EQ((*counted)->decision.remaining, left);
  }
  auto over = world_.gate->Count(login, Principal{}, "198.51.100.7");
  ASSERT_TRUE(over && *over);
  EXPECT_FALSE((*over)->decision.allowed);
  auto other_ip = world_.gate->Count(login, Principal{}, "198.51.100.8");
  ASSERT_TRUE(other_ip && *other_ip);
  EXPECT_TRUE((*other_ip)->decision.allowed);
  EXPECT_EQ(world_.gate->CountClientIp("198.51.100.7")->code(), ErrorCode::kAuthRateLimited);

  auto key = world_.gate->Identify(Surface::kRest, World::Bearer(world_.keys.private_api_key));
  ASSERT_TRUE(key);
  auto exempt = world_.gate->Count(world_.Spec("ingest_server_events"), *key, "192.0.2.1");
  ASSERT_TRUE(exempt);
  EXPECT_FALSE(*exempt);
}

TEST_F(GateTest, AnAnswerActsInItsConversationsProject) {
  auto session = world_.gate->Identify(Surface::kRest, World::Bearer(world_.SessionToken()));
  ASSERT_TRUE(session);
  EXPECT_FALSE(session->bound());
  storage::OrganizationRecord organization;
  organization.id = "o-1";
  organization.slug = "acme";
  storage::ProjectRecord project;
  project.id = "p-1";
  const Principal acting = Gate::ActingIn(*session, organization, project);
  EXPECT_TRUE(acting.bound());
  EXPECT_EQ(acting.organization_slug, "acme");
  EXPECT_EQ(acting.project_id, "p-1");
  EXPECT_EQ(acting.user_id, session->user_id);
  EXPECT_EQ(identity::CredentialName(acting), identity::CredentialName(*session))
      << "the answer's tool calls count in the caller's own window";
}

}  // namespace
}  // namespace sightline::tools
