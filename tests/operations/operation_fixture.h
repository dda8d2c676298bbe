// The in-process operations fixture: a migrated temporary store (SQLite file or PostgreSQL, as
// the storage conformance suite runs them), a manual clock, the real services operations reach
// (sessions, ingestion with its group-committing writer, passkeys, the assistant over a scripted
// model, the OAuth authorization server of /mcp), and one principal per kind of caller, each
// made the way production makes it: sign-in for users, the Authenticator for keys, an OAuth
// code exchange for MCP grants. Operations are called through tools::Dispatcher, the one way
// in that REST, MCP and the agent share.
#pragma once

// First: its `testing::` names mean GoogleTest's, which a later sightline::testing would hide.
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <future>
#include <memory>
#include <string>

#include "agent/assistant.h"
#include "site_audit/site_audit_service.h"
#include "site_audit/site_ownership.h"
#include "features/all_operations.h"
#include "storage/site_audit_repository.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "detection/bot_catalog.h"
#include "detection/request_classifier.h"
#include "identity/authenticator.h"
#include "identity/bootstrap.h"
#include "identity/passkeys.h"
#include "identity/passwords.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "ingest/event_writer.h"
#include "ingest/ingest_service.h"
#include "mcp/tool_catalog.h"
#include "oauth/authorization_server.h"
#include "oauth/consent.h"
#include "oauth/device_login.h"
#include "storage/account_repository.h"
#include "tests/operations/scripted_model.h"
#include "tests/storage/store_fixture.h"
#include "tools/dispatch.h"
#include "tools/gate.h"
#include "tools/registry.h"

namespace sightline::operations {

namespace json = boost::json;
using storage::conformance::Ok;

constexpr std::int64_t kFixtureNow = 1773662400000;  // 2026-03-16T12:00:00Z
constexpr char kOwnerPassword[] = "correct horse battery";
constexpr char kAnalystEmail[] = "analyst@example.com";
constexpr char kAnalystPassword[] = "analyst password 1";
constexpr char kPasskeyOrigin[] = "http://localhost:8080";
constexpr char kMcpResource[] = "http://localhost:8080/mcp";
constexpr char kRedirectUri[] = "http://127.0.0.1:33418/callback";

// The websites the project audits, as ServiceAuditBot would find them: each publishes its
// ownership file (the token the store holds for its origin); nothing else is there. The HTTP
// path itself is tested end to end (tests/e2e/site_audit_test.cpp); this suite checks shapes.
class PublishingSites final : public core::HttpClient {
 public:
  // `project`: the project's id, read at each request (it is set once the fixture bootstraps).
  PublishingSites(storage::Store& store, const std::string& project)
      : store_(store), project_(project) {}
  core::Result<core::OutboundResponse> Send(const core::OutboundRequest& request,
                                            const core::OutboundLimits&,
                                            const core::BodyCallback& on_body,
                                            const std::function<bool()>&) override {
    core::OutboundResponse head;
    head.status = 404;
    std::string body;
    const std::size_t at = request.url.find(site_audit::kVerificationPath);
    if (at != std::string::npos) {
      const std::string origin = request.url.substr(0, at);
      auto token = store_.Read([&](storage::Transaction& tx) -> core::Result<std::string> {
        auto sites = tx.site_audit().ListAuditSites(project_);
        if (!sites) return sites.error();
        for (const auto& site : *sites) {
          if (site.origin == origin) return site.token;
        }
        return std::string();
      });
      if (token && !token->empty()) {
        head.status = 200;
        body = *token;
      }
    }
    head.headers.Set("Content-Type", "text/plain");
    on_body(head, body);
    return head;
  }

 private:
  storage::Store& store_;
  const std::string& project_;
};

// Who calls. Anonymous callers are the sign-in operations' (kind kNone).
enum class Caller { kAnonymous, kOwner, kAnalyst, kPrivateKey, kSdkKey, kMcpGrant, kReadOnlyGrant };

class OperationFixture : public storage::conformance::StoreConformance {
 protected:
  void SetUp() override {
    StoreConformance::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(BuildServices());
    ASSERT_NO_FATAL_FAILURE(MakePrincipals());
  }

  void TearDown() override {
    // The assistant's answers and the writer's thread use the store: stop them first.
    if (assistant_) assistant_->Shutdown();
    assistant_.reset();
    gate_.reset();
    authorization_.reset();
    passkeys_.reset();
    dispatcher_.reset();
    ingest_.reset();
    writer_.reset();
    sessions_.reset();
    StoreConformance::TearDown();
  }

  // Calls the operation through the dispatcher and waits for its result.
  core::Result<json::value> Call(std::string_view operation, Caller caller,
                                 const json::object& args) {
    const tools::RegisteredOperation* found = registry_.Find(operation);
    if (found == nullptr) {
      return core::Error::Internal("no operation named " + std::string(operation));
    }
    return dispatcher_->Call(*found, PrincipalOf(caller), args, meta_);
  }
  // The same for an operation that streams: the stream, once the dispatcher's checks passed.
  core::Result<std::shared_ptr<core::ResponseStream>> OpenStream(std::string_view operation,
                                                                 Caller caller,
                                                                 const json::object& args) {
    return dispatcher_->OpenStream(*registry_.Find(operation), PrincipalOf(caller), args, meta_);
  }

  const identity::Principal& PrincipalOf(Caller caller) const {
    switch (caller) {
      case Caller::kOwner:
        return owner_;
      case Caller::kAnalyst:
        return analyst_;
      case Caller::kPrivateKey:
        return private_key_;
      case Caller::kSdkKey:
        return sdk_key_;
      case Caller::kMcpGrant:
        return mcp_grant_;
      case Caller::kReadOnlyGrant:
        return read_only_grant_;
      case Caller::kAnonymous:
        break;
    }
    return anonymous_;
  }

  core::ManualClock clock_{kFixtureNow};
  tools::Registry registry_;
  identity::BootstrapResult bootstrap_;
  ScriptedModel* model_ = nullptr;  // owned by the assistant
  std::unique_ptr<identity::SessionService> sessions_;
  std::unique_ptr<ingest::EventWriter> writer_;
  std::unique_ptr<ingest::IngestService> ingest_;
  std::unique_ptr<tools::Services> services_;
  std::unique_ptr<tools::Dispatcher> dispatcher_;
  // The assistant's tool calls go through the gate, with windows no test fills.
  std::unique_ptr<identity::Authenticator> keys_;
  std::unique_ptr<identity::RateLimiter> credential_windows_, client_ip_windows_;
  std::unique_ptr<tools::Gate> gate_;
  std::unique_ptr<identity::PasskeyService> passkeys_;
  std::unique_ptr<agent::AssistantService> assistant_;
  std::unique_ptr<oauth::AuthorizationServer> authorization_;
  std::unique_ptr<oauth::DeviceLogin> device_login_;
  std::unique_ptr<PublishingSites> sites_;
  std::unique_ptr<site_audit::SiteAuditService> site_audit_;
  identity::Principal anonymous_, owner_, analyst_, private_key_, sdk_key_, mcp_grant_,
      read_only_grant_;

 private:
  void BuildServices() {
    auto registry = tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
    ASSERT_TRUE(Ok(registry));
    registry_ = std::move(*registry);
    sessions_ = std::make_unique<identity::SessionService>(store(), clock_, "fixture-secret");
    writer_ = std::make_unique<ingest::EventWriter>(store(), ingest::WriterOptions{});
    // No network in tests: verification sources stay absent, as on a server with none.
    ingest_ = std::make_unique<ingest::IngestService>(
        clock_, *writer_, ingest::IngestOptions{.classifier = &classifier_});
    passkeys_ = std::make_unique<identity::PasskeyService>(
        store(), clock_, identity::PasskeySettings{"localhost", "Sightline", {kPasskeyOrigin}});
    services_ = std::make_unique<tools::Services>(
        tools::Services{*sessions_, ingest_.get(), nullptr, passkeys_.get()});
    dispatcher_ = std::make_unique<tools::Dispatcher>(store(), clock_, *services_);
    keys_ = std::make_unique<identity::Authenticator>(store());
    credential_windows_ = std::make_unique<identity::RateLimiter>(
        store(), clock_, identity::RateLimitPolicy{"per-minute", 1'000'000, 60});
    client_ip_windows_ = std::make_unique<identity::RateLimiter>(
        store(), clock_, identity::RateLimitPolicy{"per-minute-per-ip", 1'000'000, 60});
    gate_ = std::make_unique<tools::Gate>(tools::Gate::Parts{
        *dispatcher_, *keys_, *sessions_, nullptr, *credential_windows_, *client_ip_windows_});
    auto model = std::make_unique<ScriptedModel>();
    model_ = model.get();
    assistant_ = std::make_unique<agent::AssistantService>(
        std::move(model), agent::AssistantSettings{}, *gate_, registry_, store(), clock_);
    services_->assistant = assistant_.get();  // the assistant calls through the gate
    authorization_ = std::make_unique<oauth::AuthorizationServer>(
        store(), clock_, nullptr,
        oauth::AuthorizationServerSettings{
            .issuer = "http://localhost:8080",
            .resource = kMcpResource,
            .grantable = mcp::ToolCatalog(registry_).GrantablePermissions(),
            .cli_resource = "http://localhost:8080/api",
            .cli_grantable = identity::ViewPermissions()});
    device_login_ = std::make_unique<oauth::DeviceLogin>(
        store(), clock_, *authorization_, oauth::PlaceOf{},
        oauth::DeviceLoginSettings{.verification_uri = "http://localhost:8080/cli"});
    services_->device_login = device_login_.get();
    sites_ = std::make_unique<PublishingSites>(store(), bootstrap_.project_id);
    site_audit_ = std::make_unique<site_audit::SiteAuditService>(
        store(), *sites_, nullptr, nullptr, clock_,
        site_audit::SiteAuditSettings{.public_url = "http://localhost:8080",
                                 .ai_crawlers = site_audit::AiCrawlersOf(
                                     detection::BotCatalog::Builtin())});
    services_->site_audit = site_audit_.get();
    headers_.Set("User-Agent",
                 "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 "
                 "(KHTML, like Gecko) Version/17.4 Safari/605.1.15");
    meta_.headers = &headers_;
    meta_.user_agent = std::string(*headers_.Get("User-Agent"));
  }

  void MakePrincipals() {
    auto bootstrap = identity::Bootstrap(
        store(), clock_, {"owner@example.com", kOwnerPassword, "Acme Inc.", "Website"});
    ASSERT_TRUE(Ok(bootstrap));
    bootstrap_ = std::move(*bootstrap);
    ASSERT_NO_FATAL_FAILURE(SignIn("owner@example.com", kOwnerPassword, owner_));
    ASSERT_NO_FATAL_FAILURE(AddMember(kAnalystEmail, kAnalystPassword, "analyst"));
    ASSERT_NO_FATAL_FAILURE(SignIn(kAnalystEmail, kAnalystPassword, analyst_));
    identity::Authenticator authenticator(store());
    auto private_key = authenticator.AuthenticatePrivateKey(bootstrap_.private_api_key);
    ASSERT_TRUE(Ok(private_key));
    private_key_ = std::move(*private_key);
    auto sdk_key = authenticator.AuthenticateSdkKey(bootstrap_.sdk_key);
    ASSERT_TRUE(Ok(sdk_key));
    sdk_key_ = std::move(*sdk_key);
    ASSERT_NO_FATAL_FAILURE(ConnectMcpClient(oauth::ConsentPreset::kAll, mcp_grant_));
    ASSERT_NO_FATAL_FAILURE(ConnectMcpClient(oauth::ConsentPreset::kReadOnly, read_only_grant_));
  }

  void SignIn(std::string_view email, std::string_view password, identity::Principal& out) {
    auto login = sessions_->Login(email, password, meta_.user_agent);
    ASSERT_TRUE(Ok(login));
    ASSERT_TRUE(login->session.has_value()) << "sign-in asked for a second factor";
    auto principal = sessions_->AuthenticateAccessToken(login->session->access_token);
    ASSERT_TRUE(Ok(principal));
    out = std::move(*principal);
  }

  // A user who belongs to the bootstrap organization with `role`.
  void AddMember(std::string email, std::string_view password, std::string role) {
    auto hash = identity::HashPassword(password);
    ASSERT_TRUE(Ok(hash));
    storage::UserRecord user{core::NewUuidV4(), std::move(email), std::move(*hash), "Ana", "Lyst",
                             kFixtureNow,       kFixtureNow};
    ASSERT_TRUE(Ok(Write([&](storage::Transaction& tx) -> core::Result<void> {
      auto organization = tx.accounts().FindOrganizationBySlug(bootstrap_.organization_slug);
      if (!organization) return organization.error();
      if (auto inserted = tx.accounts().InsertUser(user); !inserted) return inserted;
      return tx.accounts().PutMembership(
          {(*organization)->id, user.id, std::move(role), kFixtureNow});
    })));
  }

  // An MCP client connected by the owner, as the OAuth flow does it: registration, an
  // authorization request with PKCE, the owner's consent, the code exchanged for a token.
  void ConnectMcpClient(oauth::ConsentPreset preset, identity::Principal& out) {
    auto registered = authorization_->Register(
        json::parse(R"({"client_name": "Fixture client", "redirect_uris": [")" +
                    std::string(kRedirectUri) + R"("], "token_endpoint_auth_method": "none"})"));
    ASSERT_TRUE(Ok(registered));
    const std::string client_id(registered->at("client_id").as_string());
    std::promise<core::Result<oauth::OAuthClient>> found;
    authorization_->FindClientAsync(client_id, [&](core::Result<oauth::OAuthClient> client) {
      found.set_value(std::move(client));
    });
    auto client = found.get_future().get();
    ASSERT_TRUE(Ok(client));
    const std::string verifier = core::RandomBase62(64);
    auto request = authorization_->CheckRequest(
        std::move(*client), kRedirectUri,
        {{"response_type", "code"},
         {"code_challenge", core::Base64UrlEncode(core::Sha256(verifier))},
         {"code_challenge_method", "S256"},
         {"resource", kMcpResource}});
    ASSERT_TRUE(Ok(request));
    auto choices = authorization_->ConsentChoices(*owner_.user_id);
    ASSERT_TRUE(Ok(choices));
    ASSERT_FALSE(choices->empty());
    const oauth::ConsentOrganization& organization = choices->front();
    auto consent = oauth::ResolveConsent(*choices, *owner_.user_id, organization.id,
                                         bootstrap_.project_id, preset, {});
    ASSERT_TRUE(Ok(consent));
    auto code = authorization_->IssueCode(*request, *consent);
    ASSERT_TRUE(Ok(code));
    auto tokens = authorization_->Token({.form = {{"grant_type", "authorization_code"},
                                                  {"code", *code},
                                                  {"redirect_uri", kRedirectUri},
                                                  {"code_verifier", verifier},
                                                  {"client_id", client_id}}});
    ASSERT_TRUE(Ok(tokens));
    auto principal = authorization_->AuthenticateAccessToken(
        std::string(tokens->at("access_token").as_string()));
    ASSERT_TRUE(Ok(principal));
    ASSERT_EQ(principal->kind, identity::CredentialKind::kMcpToken);
    out = std::move(*principal);
  }

  const detection::RequestClassifier classifier_{detection::BotCatalog::Builtin(), {}};
  core::HttpHeaders headers_;
  tools::RequestMeta meta_{.request_id = "req-fixture", .client_ip = "203.0.113.7"};
};

}  // namespace sightline::operations
