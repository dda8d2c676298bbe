#include "api/rest_handler.h"

#include "api/error_response.h"
#include "api/account_page.h"
#include "api/public_documents.h"
#include "api/request_arguments.h"
#include "api/request_log.h"
#include "api/rest_outcome.h"
#include "ingest/client_ip.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/logging.h"
#include "core/text.h"
#include "identity/api_keys.h"
#include "identity/jwt.h"
#include "mcp/discovery.h"
#include "tools/access.h"
#include "tools/schema.h"

#include <chrono>
#include <functional>

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using core::Result;
using identity::CredentialKind;

// A caller's own X-Request-Id, when it is a sane token, is logged beside ours (so a proxy's id
// can be followed) but never replaces it: request ids in the audit log are the server's.
std::string ClientRequestId(const HttpRequest& request) {
  const auto given = request.headers.Get("X-Request-Id");
  if (!given) return {};
  const bool sane = !given->empty() && given->size() <= 128 &&
                    given->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
                                             "WXYZ0123456789-_.:") == std::string_view::npos;
  return sane ? std::string(*given) : std::string();
}

// The API is served at the root and, for proxies that map it there, under /api as well.
std::string_view StripApiPrefix(std::string_view path) {
  if (path == "/api") return "/";
  if (path.starts_with("/api/")) return path.substr(4);
  return path;
}

std::string JoinMethods(const std::vector<HttpMethod>& methods) {
  std::string out;
  for (HttpMethod m : methods) {
    if (!out.empty()) out += ", ";
    out += core::MethodName(m);
  }
  return out;
}

// Browsers post events from any site: the SDK routes answer preflights and carry CORS headers
// on every response (errors too, so the page's script can read them).
constexpr std::string_view kSdkPrefix = "/sdk/v1/";

// A stream that stays authorized: every `kRecheckEvery` polls it asks again whether its
// credential may still read it (a revoked key, an expired or signed-out session, or a lost role
// ends it, as spec rule 1 says of the next request), and after `kMaxPolls` it ends so the
// client reconnects (EventSource does so by itself, resuming with Last-Event-ID).
class ReauthorizedStream final : public core::ResponseStream {
 public:
  ReauthorizedStream(std::shared_ptr<core::ResponseStream> inner, std::function<bool()> allowed)
      : inner_(std::move(inner)), allowed_(std::move(allowed)) {}
  std::chrono::milliseconds poll_interval() const override { return inner_->poll_interval(); }
  std::optional<std::string> Poll() override {
    ++polls_;
    if (polls_ >= kMaxPolls || (polls_ % kRecheckEvery == 0 && !allowed_())) return std::nullopt;
    return inner_->Poll();
  }

 private:
  static constexpr int kRecheckEvery = 5;
  static constexpr int kMaxPolls = 3600;
  std::shared_ptr<core::ResponseStream> inner_;
  std::function<bool()> allowed_;
  int polls_ = 0;
};

// Whether the client asked for Server-Sent Events (an operation that can answer either way).
bool AcceptsEventStream(const HttpRequest& request) {
  const std::string_view accept = request.headers.Get("Accept").value_or("");
  for (std::string_view rest = accept; !rest.empty();) {
    const auto comma = rest.find(',');
    if (core::MediaTypeOf(rest.substr(0, comma)) == "text/event-stream") return true;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return false;
}

HttpResponse JsonResponse(int status, const json::value& body) {
  HttpResponse response;
  response.status = status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  if (status != 204) response.body = core::ToJson(body);
  return response;
}

}  // namespace

tools::RequestMeta MetaOf(const HttpRequest& request, std::string_view request_id) {
  tools::RequestMeta meta{request_id, request.remote_address, std::nullopt, &request.headers};
  if (auto agent = request.headers.Get("User-Agent")) meta.user_agent = std::string(*agent);
  return meta;
}

namespace {

// What a client should ask for to be useful (RFC 9728 `scopes_supported`, the 401 challenge's
// `scope`): the view permissions; the consent page offers the rest.
std::vector<std::string> BaselineScopes(const oauth::AuthorizationServer* oauth) {
  std::vector<std::string> scopes;
  if (!oauth) return scopes;
  const identity::PermissionSet baseline =
      oauth->settings().grantable.Intersect(identity::ViewPermissions());
  for (const std::string_view name : baseline.Names()) scopes.emplace_back(name);
  return scopes;
}

}  // namespace

core::Error RateLimited(const identity::RateDecision& decision) {
  core::Error limited(ErrorCode::kAuthRateLimited, "Rate limit exceeded: " +
                                                       std::to_string(decision.limit) +
                                                       " requests per minute.");
  limited.mutable_details()["retryAfterSeconds"] = decision.reset_seconds;
  return limited;
}

RestHandler::RestHandler(const Dependencies& d, const OpenApiOptions& openapi)
    : registry_(d.registry),
      router_(d.registry),
      dispatcher_(d.dispatcher),
      authenticator_(d.authenticator),
      sessions_(d.sessions),
      credential_limits_(d.credential_limits),
      public_limits_(d.public_limits),
      clock_(d.clock),
      trusted_proxies_(d.trusted_proxies),
      documents_(RenderOpenApi(d.registry, openapi)),
      mcp_(d.mcp),
      oauth_(d.oauth),
      authorization_server_metadata_(
          RenderJsonDocument(d.oauth ? json::value(d.oauth->Metadata()) : json::value())),
      mcp_allowed_origins_(d.mcp_allowed_origins),
      mcp_anonymous_(d.mcp_anonymous),
      sdk_script_(d.sdk_script),
      public_url_(openapi.server_url),
      server_card_(RenderJsonDocument(mcp::ServerCard(public_url_),
                                      std::string(mcp::kServerCardMediaType))),
      resource_metadata_(
          RenderJsonDocument(mcp::ProtectedResourceMetadata(public_url_, BaselineScopes(d.oauth)))),
      mcp_baseline_scope_(core::JoinStrings(BaselineScopes(d.oauth), " ")) {}

void RestHandler::AddDeprecationHeaders(const tools::OperationSpec& spec, HttpResponse& response) {
  if (!spec.deprecation) return;
  response.headers.Set("Deprecation", "@" + std::to_string(spec.deprecation->announced_unix));
  response.headers.Set("Sunset", core::FormatHttpDate(spec.deprecation->sunset_unix));
  response.headers.Set("Link", "<" + std::string(spec.deprecation->notes_url) +
                                   ">; rel=\"deprecation\"; type=\"text/html\"");
}

void RestHandler::NoteFailure(const core::Error& error, Outcome& outcome) {
  outcome.error_code = std::string(error.info().id);
  if (error.code() == ErrorCode::kInternal || !error.internal().empty()) {
    core::Log(error.code() == ErrorCode::kInternal ? core::LogLevel::kError : core::LogLevel::kWarn,
              "request failed",
              {{"requestId", outcome.request_id},
               {"code", error.info().id},
               {"internal", error.internal()}});
  }
}

HttpResponse RestHandler::Fail(const core::Error& error, std::string_view request_id,
                               Outcome& outcome) {
  NoteFailure(error, outcome);
  return RenderErrorResponse(error, clock_.NowMillis(), request_id);
}

void RestHandler::HandleAsync(const HttpRequest& request, core::Responder respond) {
  auto exchange = std::make_shared<Outcome>();
  exchange->started = std::chrono::steady_clock::now();
  exchange->request_id = core::HexEncode(core::RandomBytes(12));
  exchange->method_name = request.method_name;
  exchange->client_request_id = ClientRequestId(request);
  exchange->respond = std::move(respond);
  std::optional<HttpResponse> now;
  try {
    now = Serve(request, StripApiPrefix(request.path()), exchange);
  } catch (const std::exception& e) {
    now = Fail(core::Error::Internal(std::string("unhandled exception: ") + e.what()),
               exchange->request_id, *exchange);
  }
  if (now) Finish(*exchange, std::move(*now));
}

void RestHandler::Finish(Outcome& exchange, HttpResponse response) {
  if (exchange.finished.exchange(true)) return;  // answered already
  response.headers.Set("X-Request-Id", exchange.request_id);
  if (exchange.operation) AddDeprecationHeaders(*exchange.operation, response);
  if (exchange.operation && exchange.operation->browser_cors) AddPublicCors(response);
  const double elapsed_ms = std::chrono::duration<double, std::milli>(
                                std::chrono::steady_clock::now() - exchange.started)
                                .count();
  LogAccess({exchange.method_name, exchange.route, response.status, elapsed_ms,
             exchange.request_id, exchange.credential_kind, exchange.credential_id,
             exchange.error_code, exchange.client_request_id});
  exchange.respond(std::move(response));
}

std::optional<HttpResponse> RestHandler::Serve(const HttpRequest& request,
                                               std::string_view path,
                                               const std::shared_ptr<Outcome>& exchange) {
  Outcome& outcome = *exchange;
  const std::string_view request_id = outcome.request_id;
  if (auto built_in = ServeBuiltIn(request, path, request_id, outcome)) {
    return std::move(*built_in);
  }
  if (mcp_ && IsMcpPath(path)) return ServeMcp(request, path, exchange);
  if (oauth_ && IsOAuthPath(path)) return ServeOAuth(request, path, exchange);
  if (request.method == HttpMethod::kOptions && path.starts_with(kSdkPrefix)) {
    outcome.route = "/sdk/v1/* (preflight)";
    return SdkPreflight(request);
  }
  const HttpMethod method = request.method == HttpMethod::kHead ? HttpMethod::kGet : request.method;
  const RouteMatch match = router_.Route(method, path);
  if (match.outcome == RouteMatch::Outcome::kNotFound) {
    return Fail(core::Error(ErrorCode::kRouteNotFound, "No operation is served at this path."),
                request_id, outcome);
  }
  if (match.outcome == RouteMatch::Outcome::kMethodNotAllowed) {
    std::vector<HttpMethod> allowed = match.allowed;
    allowed.push_back(HttpMethod::kOptions);
    if (request.method == HttpMethod::kOptions) {
      HttpResponse response;
      response.status = 204;
      response.headers.Set("Allow", JoinMethods(allowed));
      return response;
    }
    HttpResponse response = Fail(
        core::Error(ErrorCode::kMethodNotAllowed,
                    "Method " + request.method_name + " is not allowed here; use " +
                        JoinMethods(match.allowed) + "."),
        request_id, outcome);
    response.headers.Set("Allow", JoinMethods(allowed));
    return response;
  }
  outcome.route = match.operation->spec->path;
  outcome.operation = match.operation->spec;
  return ServeOperation(request, match, exchange);
}

namespace {

// Which credential was presented, judged by its form, before it is looked up.
CredentialKind PresentedKind(std::string_view secret) {
  if (const auto key = identity::ParseKeyKind(secret)) {
    return *key == storage::KeyKind::kSdk ? CredentialKind::kSdkKey
                                          : CredentialKind::kPrivateApiKey;
  }
  return identity::LooksLikeJwt(secret) ? CredentialKind::kUserSession : CredentialKind::kNone;
}

}  // namespace

Result<identity::Principal> RestHandler::Authenticate(const HttpRequest& request,
                                                      const tools::OperationSpec& spec) {
  if (spec.credentials == CredentialKind::kNone) return identity::Principal{};  // anonymous
  // The decision is the dispatcher's (tools/access.h); asked here too, before the lookup, so a
  // kind the operation never takes is refused without reading the store. A refusal by design
  // (PERM_001) waits for the lookup: an unknown credential is 401 whatever it asks for.
  const auto refused_unseen = [&](CredentialKind kind) -> std::optional<core::Error> {
    auto accepted = tools::CheckCredentialKind(spec, kind);
    if (accepted || accepted.error().code() == ErrorCode::kPermDenied) return std::nullopt;
    return accepted.error();
  };
  // The 2FA setup token comes in its own header (spec, Authentication rule 5).
  if (const auto setup = request.headers.Get("X-2FA-Setup-Token");
      setup && !request.headers.Has("Authorization")) {
    if (auto refused = refused_unseen(CredentialKind::kTwoFactorSetup)) return *refused;
    return sessions_.AuthenticateSetupToken(*setup);
  }
  auto secret = PresentedSecret(request, spec.credentials);
  if (!secret) return secret.error();
  const CredentialKind kind = PresentedKind(*secret);
  if (kind == CredentialKind::kNone) {
    return core::Error(ErrorCode::kAuthMalformedCredential,
                       "The credential is neither an API key nor an access token.");
  }
  if (auto refused = refused_unseen(kind)) return *refused;
  switch (kind) {
    case CredentialKind::kSdkKey: return authenticator_.AuthenticateSdkKey(*secret);
    case CredentialKind::kPrivateApiKey: return authenticator_.AuthenticatePrivateKey(*secret);
    default: return sessions_.AuthenticateAccessToken(*secret);
  }
}

Result<std::optional<identity::RateDecision>> RestHandler::CountRequest(
    const HttpRequest& request, const tools::OperationSpec& spec,
    const identity::Principal& principal) {
  if (!spec.rate_limited) return std::optional<identity::RateDecision>();  // ingestion
  switch (principal.kind) {
    case CredentialKind::kSdkKey:  // SDK keys only reach ingestion, which is exempt
      return std::optional<identity::RateDecision>();
    case CredentialKind::kNone:
      return public_limits_.Hit(
          "ip:" + ingest::ClientIp(request.headers, request.remote_address, trusted_proxies_));
    default:
      return credential_limits_.Hit(identity::CredentialName(principal));
  }
}

std::optional<HttpResponse> RestHandler::ServeOperation(const HttpRequest& request,
                                                        const RouteMatch& match,
                                                        const std::shared_ptr<Outcome>& exchange) {
  const tools::RegisteredOperation& op = *match.operation;
  Outcome& outcome = *exchange;
  auto fail = [&](const core::Error& error) {
    return Fail(error, outcome.request_id, outcome);
  };
  auto principal = Authenticate(request, *op.spec);
  if (!principal) return fail(principal.error());
  outcome.credential_kind = identity::CredentialKindName(principal->kind);
  outcome.credential_id = principal->credential_id;
  auto counted = CountRequest(request, *op.spec, *principal);
  if (!counted) return fail(counted.error());
  const CredentialKind kind = principal->kind;
  auto answer = [this, exchange, kind, decision = *counted](HttpResponse response) {
    if (decision) AddRateLimitHeaders(*decision, kind, response);
    Finish(*exchange, std::move(response));
  };
  if (*counted && !(*counted)->allowed) {
    answer(fail(RateLimited(**counted)));
    return std::nullopt;
  }
  auto args = BuildArguments(op, match, request);
  if (!args) {
    answer(fail(args.error()));
    return std::nullopt;
  }
  const tools::RequestMeta meta = MetaOf(request, outcome.request_id);
  if (op.spec->open_stream && (!op.spec->run_async || AcceptsEventStream(request))) {
    auto stream = dispatcher_.OpenStream(op, *principal, *args, meta);
    if (!stream) {
      answer(fail(stream.error()));
      return std::nullopt;
    }
    HttpResponse response;
    response.headers.Set("Content-Type", "text/event-stream");
    response.headers.Set("Cache-Control", "no-store");
    response.headers.Set("X-Accel-Buffering", "no");  // proxies must not buffer the stream
    // The recheck repeats authentication and the dispatcher's checks with copies of what this
    // request presented; the handler outlives every stream (they end before the server stops).
    auto presented = std::make_shared<HttpRequest>();
    presented->headers = request.headers;
    presented->remote_address = request.remote_address;
    auto still_allowed = [this, presented, &op, args = *args,
                          request_id = std::string(outcome.request_id)]() {
      auto again = Authenticate(*presented, *op.spec);
      if (!again) return false;
      tools::RequestMeta recheck{request_id, presented->remote_address, std::nullopt,
                                 &presented->headers};
      return dispatcher_.OpenStream(op, *again, args, recheck).has_value();
    };
    // A negotiated stream is one bounded answer, not a subscription: it is not reopened.
    response.stream = op.spec->run_async ? std::move(*stream)
                                         : std::make_shared<ReauthorizedStream>(
                                               std::move(*stream), still_allowed);
    answer(std::move(response));
    return std::nullopt;
  }
  const int success_status = op.spec->success_status;
  dispatcher_.CallAsync(op, *principal, *args, meta,
                        [this, exchange, answer, success_status](Result<json::value> result) {
                          answer(result ? JsonResponse(success_status, *result)
                                        : Fail(result.error(), exchange->request_id, *exchange));
                        });
  return std::nullopt;
}

void RestHandler::AddRateLimitHeaders(const identity::RateDecision& decision,
                                      CredentialKind kind, HttpResponse& response) {
  const identity::RateLimitPolicy& policy =
      kind == CredentialKind::kNone ? public_limits_.policy() : credential_limits_.policy();
  const std::string name = "\"" + policy.name + "\"";
  response.headers.Set("RateLimit-Policy", name + ";q=" + std::to_string(policy.quota) +
                                               ";w=" + std::to_string(policy.window_seconds));
  response.headers.Set("RateLimit", name + ";r=" + std::to_string(decision.remaining) +
                                        ";t=" + std::to_string(decision.reset_seconds));
  response.headers.Set("X-RateLimit-Limit", std::to_string(decision.limit));
  response.headers.Set("X-RateLimit-Remaining", std::to_string(decision.remaining));
  response.headers.Set("X-RateLimit-Reset", std::to_string(decision.reset_seconds));
}

std::optional<HttpResponse> RestHandler::ServeBuiltIn(const HttpRequest& request,
                                                      std::string_view path,
                                                      std::string_view request_id,
                                                      Outcome& outcome) {
  if (path.starts_with("/sdk/v1/") && path.ends_with(".js")) {
    outcome.route = "/sdk/v1/script.js";
    if (auto script = ServeSdkScript(request, path, sdk_script_)) return script;
    return Fail(core::Error(ErrorCode::kRouteNotFound,
                            sdk_script_ ? "No such script version; use /sdk/v1/script.js."
                                        : "The tracking script was not built on this server."),
                request_id, outcome);
  }
  const RenderedDocument* document = nullptr;
  if (path == "/openapi.json") document = &documents_.json;
  if (path == "/openapi.yaml") document = &documents_.yaml;
  const bool readable = request.method == HttpMethod::kGet || request.method == HttpMethod::kHead;
  if (document) {
    outcome.route = path == "/openapi.json" ? "/openapi.json" : "/openapi.yaml";
    if (request.method == HttpMethod::kOptions) return Preflight(request);
    if (readable) return Document(request, *document);
  } else if (path == "/healthz") {
    outcome.route = "/healthz";
    if (readable) return JsonResponse(200, json::object{{"status", "ok"}});
  } else if (path == "/account") {
    outcome.route = "/account";
    if (readable) return AccountPage(core::HexEncode(core::RandomBytes(16)));
  } else {
    return std::nullopt;
  }
  HttpResponse response =
      Fail(core::Error(ErrorCode::kMethodNotAllowed, "Only GET and HEAD are served here."),
           request_id, outcome);
  response.headers.Set("Allow", document ? "GET, HEAD, OPTIONS" : "GET, HEAD");
  return response;
}

HttpResponse RestHandler::RenderTransportError(int status, std::string_view reason) {
  ErrorCode code = ErrorCode::kValBadRequest;
  if (status == 413) code = ErrorCode::kValBodyTooLarge;
  if (status == 431) code = ErrorCode::kValHeadersTooLarge;
  if (status == 503) code = ErrorCode::kUnavailable;
  core::Error error(code, std::string(reason));
  const std::string request_id = core::HexEncode(core::RandomBytes(12));
  HttpResponse response = RenderErrorResponse(error, clock_.NowMillis(), request_id);
  response.headers.Set("X-Request-Id", request_id);
  LogAccess({"-", kUnmatchedRoute, response.status, 0, request_id, "", "", error.info().id});
  return response;
}

}  // namespace sightline::api
