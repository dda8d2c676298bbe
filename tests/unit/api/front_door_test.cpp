#include "api/front_door.h"

#include "api/documents_endpoint.h"
#include "api/operations_endpoint.h"
#include "api/rate_limits.h"

#include "core/logging.h"
#include "identity/authenticator.h"
#include "identity/bootstrap.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "tests/unit/testing/schema_documents.h"
#include "tests/unit/testing/temp_store.h"
#include "features/projects/project_operations.h"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using identity::CredentialKind;
using identity::Permission;
using tools::Effect;
using tools::OperationSpec;

constexpr std::int64_t kNowMillis = 1767225600000;  // 2026-01-01T00:00:00Z
constexpr std::string_view kSecretDetail = "disk exploded at /var/lib/secret-path";

constexpr tools::Deprecation kDeprecation{1767225600, 1798761600,
                                          "https://sightline.example/migrate"};

// mode=conflict answers REQ_003; mode=throw throws, as a bug would.
core::Result<json::value> RunLegacyStatus(tools::OperationContext&, const json::object& args) {
  const json::value* mode = args.if_contains("mode");
  if (mode && *mode == "conflict") {
    return core::Error(core::ErrorCode::kConflict, "The legacy status is busy.");
  }
  if (mode && *mode == "throw") throw std::runtime_error(std::string(kSecretDetail));
  return json::value(json::object{{"status", "ok"}});
}

core::Result<json::value> RunCreateSdkKey(tools::OperationContext&, const json::object&) {
  return json::value(json::object{{"created", true}});
}

core::Result<json::value> RunSdkPing(tools::OperationContext& context, const json::object&) {
  return json::value(json::object{{"project", *context.principal.project_id}});
}

const std::array<OperationSpec, 5>& Fixtures() {
  static const std::array<OperationSpec, 5> specs = {{
      tools::kGetProject,
      tools::kUpdateProject,
      {.name = "get_legacy_status",
       .summary = "Legacy status",
       .description = "Old; scheduled for removal.",
       .tag = "Legacy",
       .method = HttpMethod::kGet,
       .path = "/legacy/status",
       .permission = Permission::kProjectView,
       .effect = Effect::kReadOnly,
       .credentials = CredentialKind::kPrivateApiKey,
       .deprecation = &kDeprecation,
       .run = RunLegacyStatus},
      {.name = "create_sdk_key",
       .summary = "Create an SDK key",
       .description = "Fixture needing a credential-management permission.",
       .tag = "Keys",
       .method = HttpMethod::kPost,
       .path = "/sdk-keys",
       .permission = Permission::kSdkKeyCreate,
       .effect = Effect::kWrite,
       .credentials = CredentialKind::kPrivateApiKey,
       .success_status = 201,
       .run = RunCreateSdkKey},
      {.name = "sdk_ping",
       .summary = "SDK ping",
       .description = "Fixture for the SDK-key route kind (x-sdk-key or X-API-Key).",
       .tag = "SDK",
       .method = HttpMethod::kPost,
       .path = "/sdk/v1/ping",
       .permission = Permission::kEventsIngest,
       .effect = Effect::kWrite,
       .credentials = CredentialKind::kSdkKey,
       .run = RunSdkPing},
  }};
  return specs;
}

const testutil::TestSchemaDocuments& Schemas() {
  static const testutil::TestSchemaDocuments documents(
      Fixtures(),
      {{"get_legacy_status", R"({"type": "object", "properties": {
           "mode": {"type": "string", "enum": ["ok", "conflict", "throw"]}}})"},
       {"create_sdk_key", R"({"type": "object", "properties": {}})"},
       {"sdk_ping", R"({"type": "object", "properties": {}})"}});
  return documents;
}

// One store, bootstrap and front door for the whole suite (argon2id hashing is slow on purpose).
struct World {
  testutil::TempStore temp;
  core::ManualClock clock{kNowMillis};
  identity::BootstrapResult keys;
  tools::Registry registry;
  std::unique_ptr<identity::SessionService> sessions;
  std::unique_ptr<tools::Services> services;
  std::unique_ptr<tools::Dispatcher> dispatcher;
  std::unique_ptr<identity::Authenticator> authenticator;
  std::unique_ptr<identity::RateLimiter> credential_limits;
  std::unique_ptr<identity::RateLimiter> public_limits;
  core::CidrList trusted_proxies;
  std::unique_ptr<tools::Gate> gate;
  std::unique_ptr<RateLimits> limits;
  std::unique_ptr<DocumentsEndpoint> documents;
  std::unique_ptr<OperationsEndpoint> operations;
  std::unique_ptr<FrontDoor> handler;
  std::string setup_error;

  World() {
    if (!temp.ok()) {
      setup_error = "could not open a temp SQLite store";
      return;
    }
    auto bootstrap = identity::Bootstrap(temp.store(), clock, testutil::DefaultBootstrapRequest());
    if (!bootstrap) {
      setup_error = "bootstrap: " + bootstrap.error().message() + bootstrap.error().internal();
      return;
    }
    keys = std::move(*bootstrap);
    auto built = tools::Registry::Build(Fixtures(), Schemas());
    if (!built) {
      setup_error = "registry: " + built.error().internal();
      return;
    }
    registry = std::move(*built);
    sessions = std::make_unique<identity::SessionService>(temp.store(), clock, "test-secret");
    services = std::make_unique<tools::Services>(tools::Services{*sessions});
    dispatcher = std::make_unique<tools::Dispatcher>(temp.store(), clock, *services);
    authenticator = std::make_unique<identity::Authenticator>(temp.store());
    credential_limits = std::make_unique<identity::RateLimiter>(
        temp.store(), clock, identity::RateLimitPolicy{"per-minute", 1000000, 60});
    public_limits = std::make_unique<identity::RateLimiter>(
        temp.store(), clock, identity::RateLimitPolicy{"per-minute-per-ip", 1000000, 60});
    gate = std::make_unique<tools::Gate>(tools::Gate::Parts{
        *dispatcher, *authenticator, *sessions, nullptr, *credential_limits, *public_limits});
    limits = std::make_unique<RateLimits>(*gate, trusted_proxies);
    documents = std::make_unique<DocumentsEndpoint>(
        registry, OpenApiOptions{"https://api.sightline.example"}, StaticAssetTable{});
    operations = std::make_unique<OperationsEndpoint>(registry, *gate, *limits);
    handler = std::make_unique<FrontDoor>(
        std::vector<Endpoint*>{documents.get(), operations.get()}, clock);
  }
};

class FrontDoorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Access logs would drown the test output; errors still go to stderr.
    core::SetupLogging("error", core::LogTarget::kStderr);
    world_ = new World();
  }
  static void TearDownTestSuite() {
    delete world_;
    world_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(world_->setup_error.empty()) << world_->setup_error; }

  // A request for `target` under the API base, /api, as the spec writes paths.
  static HttpRequest Request(HttpMethod method, std::string target) {
    return SiteRequest(method, "/api" + target);
  }
  // A request for a path at the site's root, as it is.
  static HttpRequest SiteRequest(HttpMethod method, std::string target) {
    HttpRequest request;
    request.method = method;
    request.method_name = std::string(core::MethodName(method));
    request.target = std::move(target);
    request.remote_address = "127.0.0.1";
    return request;
  }
  // A request carrying the bootstrap private API key.
  static HttpRequest Authorized(HttpMethod method, std::string target) {
    HttpRequest request = Request(method, std::move(target));
    request.headers.Add("Authorization", "Bearer " + world_->keys.private_api_key);
    return request;
  }
  static HttpResponse Send(const HttpRequest& request) { return world_->handler->Handle(request); }

  static std::string ProjectPath() {
    return "/" + world_->keys.organization_slug + "/projects/" + world_->keys.project_id;
  }

  static World* world_;
};

World* FrontDoorTest::world_ = nullptr;

std::string Header(const HttpResponse& response, std::string_view name) {
  return std::string(response.headers.Get(name).value_or("(absent)"));
}

// Checks the ErrorResponse shape and returns the parsed body.
json::object ExpectErrorResponse(const HttpResponse& response, int status, std::string_view code) {
  EXPECT_EQ(response.status, status) << response.body;
  EXPECT_EQ(Header(response, "Content-Type"), "application/json");
  const json::value body = json::parse(response.body);
  EXPECT_EQ(body.at("error").at("code").as_string(), code) << response.body;
  EXPECT_TRUE(body.at("error").at("message").is_string());
  EXPECT_EQ(body.at("timestamp"), "2026-01-01T00:00:00.000Z");
  EXPECT_EQ(body.at("requestId").as_string(), Header(response, "X-Request-Id"));
  return body.as_object();
}

void ExpectDeprecationHeaders(const HttpResponse& response) {
  EXPECT_EQ(Header(response, "Deprecation"), "@1767225600");
  EXPECT_EQ(Header(response, "Sunset"), "Fri, 01 Jan 2027 00:00:00 GMT");
  EXPECT_EQ(Header(response, "Link"),
            "<https://sightline.example/migrate>; rel=\"deprecation\"; type=\"text/html\"");
}

TEST_F(FrontDoorTest, DeprecatedOperationAnswersWithDeprecationHeaders) {
  const HttpResponse response = Send(Authorized(HttpMethod::kGet, "/legacy/status"));
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body), json::parse(R"({"status": "ok"})"));
  EXPECT_EQ(Header(response, "Content-Type"), "application/json");
  ExpectDeprecationHeaders(response);
}

TEST_F(FrontDoorTest, ErrorsFromADeprecatedOperationCarryTheHeadersToo) {
  const HttpResponse conflict = Send(Authorized(HttpMethod::kGet, "/legacy/status?mode=conflict"));
  ExpectErrorResponse(conflict, 409, "REQ_003");
  ExpectDeprecationHeaders(conflict);

  const HttpResponse invalid = Send(Authorized(HttpMethod::kGet, "/legacy/status?mode=bogus"));
  const json::object body = ExpectErrorResponse(invalid, 400, "VAL_003");
  EXPECT_EQ(body.at("error").at("details").at("field"), "mode");
  ExpectDeprecationHeaders(invalid);

  const HttpResponse anonymous = Send(Request(HttpMethod::kGet, "/legacy/status"));
  ExpectErrorResponse(anonymous, 401, "AUTH_003");
  ExpectDeprecationHeaders(anonymous);
}

// The spec says every response from a deprecated operation carries its headers, a 500 from an
// exception too (the exchange adds them when it finishes).
TEST_F(FrontDoorTest, DeprecationHeadersSurviveAnException) {
  const HttpResponse response = Send(Authorized(HttpMethod::kGet, "/legacy/status?mode=throw"));
  ExpectErrorResponse(response, 500, "SYS_001");
  ExpectDeprecationHeaders(response);
}

TEST_F(FrontDoorTest, OtherOperationsHaveNoDeprecationHeaders) {
  const HttpResponse response = Send(Authorized(HttpMethod::kGet, ProjectPath()));
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_FALSE(response.headers.Has("Deprecation"));
  EXPECT_FALSE(response.headers.Has("Sunset"));
  EXPECT_FALSE(response.headers.Has("Link"));
  const json::value body = json::parse(response.body);
  EXPECT_EQ(body.at("id").as_string(), world_->keys.project_id);
  EXPECT_EQ(body.at("organizationSlug").as_string(), world_->keys.organization_slug);
  EXPECT_EQ(body.at("createdAt"), "2026-01-01T00:00:00.000Z");
}

TEST_F(FrontDoorTest, UnknownPathIsReq001) {
  const HttpResponse response = Send(Authorized(HttpMethod::kGet, "/no/such/route/here"));
  const json::object body = ExpectErrorResponse(response, 404, "REQ_001");
  EXPECT_EQ(body.at("error").at("message"), "No operation is served at this path.");
  EXPECT_FALSE(body.at("error").as_object().contains("details"));
  EXPECT_EQ(body.size(), 3u);  // error, timestamp, requestId
  EXPECT_EQ(Header(response, "Cache-Control"), "no-store");
}

TEST_F(FrontDoorTest, WrongMethodIsReq002WithAllow) {
  const HttpResponse response = Send(Authorized(HttpMethod::kPut, "/legacy/status"));
  ExpectErrorResponse(response, 405, "REQ_002");
  EXPECT_EQ(Header(response, "Allow"), "GET, OPTIONS");
}

TEST_F(FrontDoorTest, RequestIdsAreAlwaysTheServers) {
  // A caller's id is only logged beside ours: audit entries must carry ids nobody can forge.
  HttpRequest request = Request(HttpMethod::kGet, "/nowhere");
  request.headers.Add("X-Request-Id", "trace-123.abc");
  const std::string first = Header(Send(request), "X-Request-Id");
  EXPECT_NE(first, "trace-123.abc");
  EXPECT_EQ(first.size(), 24u);
  EXPECT_NE(Header(Send(request), "X-Request-Id"), first);
}

TEST_F(FrontDoorTest, OpenApiDocumentsAreServedWithETags) {
  const HttpResponse json_doc = Send(Request(HttpMethod::kGet, "/openapi.json"));
  ASSERT_EQ(json_doc.status, 200);
  EXPECT_EQ(Header(json_doc, "Content-Type"), "application/json");
  EXPECT_EQ(json::parse(json_doc.body).at("info").at("version"), "1.0.0");
  const HttpResponse yaml_doc = Send(Request(HttpMethod::kGet, "/openapi.yaml"));
  ASSERT_EQ(yaml_doc.status, 200);
  EXPECT_EQ(Header(yaml_doc, "Content-Type"), "application/yaml");
  EXPECT_NE(Header(json_doc, "ETag"), Header(yaml_doc, "ETag"));
  EXPECT_EQ(Header(json_doc, "Access-Control-Allow-Origin"), "*");
}

TEST_F(FrontDoorTest, OpenApiAnswers304ToAMatchingIfNoneMatch) {
  const std::string etag = Header(Send(Request(HttpMethod::kGet, "/openapi.json")), "ETag");
  ASSERT_TRUE(etag.starts_with("\"")) << etag;
  for (const std::string& tags :
       {etag, "W/" + etag, std::string("*"), "\"other\", " + etag, "\"other\" ,W/" + etag + " "}) {
    HttpRequest request = Request(HttpMethod::kGet, "/openapi.json");
    request.headers.Add("If-None-Match", tags);
    const HttpResponse response = Send(request);
    EXPECT_EQ(response.status, 304) << tags;
    EXPECT_TRUE(response.body.empty()) << tags;
    EXPECT_EQ(Header(response, "ETag"), etag) << tags;
  }
}

TEST_F(FrontDoorTest, OpenApiAnswers200ToADifferentTag) {
  const std::string etag = Header(Send(Request(HttpMethod::kGet, "/openapi.json")), "ETag");
  const std::string yaml_etag = Header(Send(Request(HttpMethod::kGet, "/openapi.yaml")), "ETag");
  const std::string unquoted = etag.substr(1, etag.size() - 2);
  for (const std::string& tags : {std::string("\"different\""), yaml_etag, unquoted,
                                  etag.substr(0, etag.size() - 2) + "\""}) {
    HttpRequest request = Request(HttpMethod::kGet, "/openapi.json");
    request.headers.Add("If-None-Match", tags);
    const HttpResponse response = Send(request);
    EXPECT_EQ(response.status, 200) << tags;
    EXPECT_FALSE(response.body.empty()) << tags;
  }
}

TEST_F(FrontDoorTest, TheApiIsServedUnderApiOnly) {
  EXPECT_EQ(Send(Request(HttpMethod::kGet, "/openapi.json")).status, 200);
  EXPECT_EQ(Send(Authorized(HttpMethod::kGet, ProjectPath())).status, 200);
  // No alias at the root, nor under a name that only starts like it.
  for (const std::string path : {"/openapi.json", "/legacy/status", "/apix/legacy/status"}) {
    HttpRequest request = SiteRequest(HttpMethod::kGet, path);
    request.headers.Add("Authorization", "Bearer " + world_->keys.private_api_key);
    ExpectErrorResponse(Send(request), 404, "REQ_001");
  }
  ExpectErrorResponse(Send(SiteRequest(HttpMethod::kGet, "/api")), 404, "REQ_001");
}

TEST(TargetOf, SplitsTheApiFromTheSite) {
  EXPECT_TRUE(TargetOf("/api/mcp").api);
  EXPECT_EQ(TargetOf("/api/mcp").path, "/mcp");
  EXPECT_TRUE(TargetOf("/api").api);
  EXPECT_EQ(TargetOf("/api").path, "/");
  EXPECT_EQ(TargetOf("/api/").path, "/");
  EXPECT_FALSE(TargetOf("/apis/x").api);
  EXPECT_EQ(TargetOf("/apis/x").path, "/apis/x");
  EXPECT_FALSE(TargetOf("/").api);
  EXPECT_FALSE(TargetOf("/.well-known/oauth-protected-resource/api/mcp").api);
}

TEST_F(FrontDoorTest, ExceptionBecomesSys001WithoutLeakingItsText) {
  const HttpResponse response = Send(Authorized(HttpMethod::kGet, "/legacy/status?mode=throw"));
  const json::object body = ExpectErrorResponse(response, 500, "SYS_001");
  EXPECT_EQ(body.at("error").at("message"), "An unexpected error occurred.");
  EXPECT_EQ(response.body.find("exploded"), std::string::npos) << response.body;
  EXPECT_EQ(response.body.find("secret-path"), std::string::npos) << response.body;
  EXPECT_EQ(response.body.find("runtime_error"), std::string::npos) << response.body;
}

TEST_F(FrontDoorTest, PrivateKeysNeverHoldCredentialManagement) {
  // The bootstrap key's creator is the owner, who holds sdk_key.create; the key must not.
  const HttpResponse response = Send(Authorized(HttpMethod::kPost, "/sdk-keys"));
  const json::object body = ExpectErrorResponse(response, 403, "PERM_001");
  EXPECT_EQ(body.at("error").at("details").at("reason"), "missing permission sdk_key.create");
  EXPECT_FALSE(response.headers.Has("WWW-Authenticate"));
}

TEST_F(FrontDoorTest, AuthenticationFailures) {
  const HttpResponse missing = Send(Request(HttpMethod::kGet, ProjectPath()));
  ExpectErrorResponse(missing, 401, "AUTH_003");
  EXPECT_EQ(Header(missing, "WWW-Authenticate"), "Bearer realm=\"sightline\"");

  HttpRequest basic = Request(HttpMethod::kGet, ProjectPath());
  basic.headers.Add("Authorization", "Basic dXNlcjpwYXNz");
  const HttpResponse malformed = Send(basic);
  ExpectErrorResponse(malformed, 401, "AUTH_001");
  EXPECT_EQ(Header(malformed, "WWW-Authenticate"),
            "Bearer realm=\"sightline\", error=\"invalid_token\"");

  HttpRequest sdk = Request(HttpMethod::kGet, ProjectPath());
  sdk.headers.Add("X-API-Key", world_->keys.sdk_key);
  ExpectErrorResponse(Send(sdk), 401, "AUTH_005");

  HttpRequest header_key = Request(HttpMethod::kGet, ProjectPath());
  header_key.headers.Add("X-API-Key", world_->keys.private_api_key);
  EXPECT_EQ(Send(header_key).status, 200);
}

TEST_F(FrontDoorTest, ScopeIsCheckedBeforeTheOperationRuns) {
  ExpectErrorResponse(
      Send(Authorized(HttpMethod::kGet, "/other-org/projects/" + world_->keys.project_id)), 404,
      "ORG_001");
  ExpectErrorResponse(Send(Authorized(HttpMethod::kGet, "/" + world_->keys.organization_slug +
                                                            "/projects/no-such-project")),
                      404, "PROJECT_001");
}

TEST_F(FrontDoorTest, BodyProblemsAreValidationErrors) {
  HttpRequest no_type = Authorized(HttpMethod::kPatch, ProjectPath());
  no_type.body = R"({"name": "x"})";
  ExpectErrorResponse(Send(no_type), 415, "VAL_006");

  HttpRequest broken = Authorized(HttpMethod::kPatch, ProjectPath());
  broken.headers.Add("Content-Type", "application/json; charset=utf-8");
  broken.body = R"({"name": )";
  ExpectErrorResponse(Send(broken), 400, "VAL_002");

  HttpRequest zone = Authorized(HttpMethod::kPatch, ProjectPath());
  zone.headers.Add("Content-Type", "application/json");
  zone.body = R"({"reportingTimezone": "Mars/Base"})";
  const json::object body = ExpectErrorResponse(Send(zone), 400, "VAL_003");
  EXPECT_EQ(body.at("error").at("details").at("field"), "reportingTimezone");
  EXPECT_EQ(body.at("error").at("details").at("value"), "Mars/Base");
}

}  // namespace
}  // namespace sightline::api

namespace sightline::api {
namespace {

TEST_F(FrontDoorTest, SdkRoutesTakeTheSdkKeyInXSdkKeyOrXApiKey) {
  for (const char* header : {"x-sdk-key", "X-API-Key"}) {
    HttpRequest request = Request(HttpMethod::kPost, "/sdk/v1/ping");
    request.headers.Add(header, world_->keys.sdk_key);
    const HttpResponse response = Send(request);
    ASSERT_EQ(response.status, 200) << header << ": " << response.body;
    EXPECT_EQ(json::parse(response.body).at("project").as_string(), world_->keys.project_id);
  }
}

TEST_F(FrontDoorTest, SdkRoutesRefuseOtherCredentials) {
  HttpRequest private_key = Request(HttpMethod::kPost, "/sdk/v1/ping");
  private_key.headers.Add("x-sdk-key", world_->keys.private_api_key);
  ExpectErrorResponse(Send(private_key), 401, "AUTH_005");
  ExpectErrorResponse(Send(Request(HttpMethod::kPost, "/sdk/v1/ping")), 401, "AUTH_003");
  HttpRequest unknown = Request(HttpMethod::kPost, "/sdk/v1/ping");
  unknown.headers.Add("x-sdk-key", "pk_service_0123456789abcdefghijABCDEFGHIJ01");
  ExpectErrorResponse(Send(unknown), 401, "AUTH_002");
  // An SDK key can do nothing else: on a private route it is the wrong kind of credential.
  HttpRequest on_private = Request(HttpMethod::kGet, ProjectPath());
  on_private.headers.Add("x-sdk-key", world_->keys.sdk_key);
  ExpectErrorResponse(Send(on_private), 401, "AUTH_003");
  HttpRequest as_bearer = Request(HttpMethod::kGet, ProjectPath());
  as_bearer.headers.Add("Authorization", "Bearer " + world_->keys.sdk_key);
  ExpectErrorResponse(Send(as_bearer), 401, "AUTH_005");
}

}  // namespace
}  // namespace sightline::api
