#include "api/operations_endpoint.h"

#include <chrono>
#include <functional>

#include "api/exchange.h"
#include "api/http_methods.h"
#include "api/request_arguments.h"
#include "core/json_util.h"
#include "identity/api_keys.h"
#include "identity/jwt.h"
#include "tools/access.h"

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using core::Result;
using identity::CredentialKind;

// Browsers post events from any site: the SDK routes answer preflights, and the operations
// marked browser_cors carry CORS headers on every response (the exchange adds them).
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

HttpResponse EventStreamHeaders() {
  HttpResponse response;
  response.headers.Set("Content-Type", "text/event-stream");
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("X-Accel-Buffering", "no");  // proxies must not buffer the stream
  return response;
}

// Which credential was presented, judged by its form, before it is looked up.
CredentialKind PresentedKind(std::string_view secret) {
  if (const auto key = identity::ParseKeyKind(secret)) {
    return *key == storage::KeyKind::kSdk ? CredentialKind::kSdkKey
                                          : CredentialKind::kPrivateApiKey;
  }
  if (oauth::AuthorizationServer::LooksLikeCliToken(secret)) return CredentialKind::kCliToken;
  return identity::LooksLikeJwt(secret) ? CredentialKind::kUserSession : CredentialKind::kNone;
}

// The dispatcher decides (tools/access.h); asked here too, before the lookup, so a kind the
// operation never takes is refused without reading the store. A refusal by design (PERM_001)
// waits for the lookup: an unknown credential is 401 whatever it asks for.
std::optional<core::Error> RefusedUnseen(const tools::OperationSpec& spec, CredentialKind kind) {
  auto accepted = tools::CheckCredentialKind(spec, kind);
  if (accepted || accepted.error().code() == ErrorCode::kPermDenied) return std::nullopt;
  return accepted.error();
}

}  // namespace

OperationsEndpoint::OperationsEndpoint(const tools::Registry& registry,
                                       tools::Dispatcher& dispatcher,
                                       identity::Authenticator& authenticator,
                                       identity::SessionService& sessions, RateLimits& limits,
                                       oauth::AuthorizationServer* cli_tokens)
    : router_(registry),
      dispatcher_(dispatcher),
      authenticator_(authenticator),
      sessions_(sessions),
      limits_(limits),
      cli_tokens_(cli_tokens) {}

bool OperationsEndpoint::Claims(const Target& target) const { return target.api; }

std::optional<HttpResponse> OperationsEndpoint::Serve(const HttpRequest& request,
                                                      const Target& target,
                                                      const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  if (request.method == HttpMethod::kOptions && path.starts_with(kSdkPrefix)) {
    exchange->set_route("/sdk/v1/* (preflight)");
    return AnswerOptions(request, {{HttpMethod::kPost, HttpMethod::kOptions}, CorsPolicy::kSdk});
  }
  const HttpMethod method = request.method == HttpMethod::kHead ? HttpMethod::kGet : request.method;
  const RouteMatch match = router_.Route(method, path);
  if (match.outcome == RouteMatch::Outcome::kNotFound) {
    return exchange->Fail(
        core::Error(ErrorCode::kRouteNotFound, "No operation is served at this path."));
  }
  if (match.outcome == RouteMatch::Outcome::kMethodNotAllowed) {
    PathMethods served{match.allowed};
    served.methods.push_back(HttpMethod::kOptions);
    return AnswerMethod(request, served, *exchange);
  }
  exchange->set_route(match.operation->spec->path);
  exchange->set_operation(*match.operation->spec);
  return ServeOperation(request, match, exchange);
}

Result<identity::Principal> OperationsEndpoint::Authenticate(const HttpRequest& request,
                                                             const tools::OperationSpec& spec) {
  if (spec.credentials == CredentialKind::kNone) return identity::Principal{};  // anonymous
  // The 2FA setup token comes in its own header (spec, Authentication rule 5).
  if (const auto setup = request.headers.Get("X-2FA-Setup-Token");
      setup && !request.headers.Has("Authorization")) {
    if (auto refused = RefusedUnseen(spec, CredentialKind::kTwoFactorSetup)) return *refused;
    return sessions_.AuthenticateSetupToken(*setup);
  }
  auto secret = PresentedSecret(request, spec.credentials);
  if (!secret) return secret.error();
  const CredentialKind kind = PresentedKind(*secret);
  if (kind == CredentialKind::kNone) {
    return core::Error(ErrorCode::kAuthMalformedCredential,
                       "The credential is neither an API key nor an access token.");
  }
  if (auto refused = RefusedUnseen(spec, kind)) return *refused;
  switch (kind) {
    case CredentialKind::kSdkKey:
      return authenticator_.AuthenticateSdkKey(*secret);
    case CredentialKind::kPrivateApiKey:
      return authenticator_.AuthenticatePrivateKey(*secret);
    case CredentialKind::kCliToken:
      if (cli_tokens_ == nullptr) {
        return core::Error(ErrorCode::kAuthInvalidCredential, "The access token is unknown.");
      }
      return cli_tokens_->AuthenticateCliToken(*secret, request.remote_address);
    default:
      return sessions_.AuthenticateAccessToken(*secret);
  }
}

Result<std::optional<identity::RateDecision>> OperationsEndpoint::CountRequest(
    const HttpRequest& request, const tools::OperationSpec& spec,
    const identity::Principal& principal) {
  if (!spec.rate_limited) return std::optional<identity::RateDecision>();  // ingestion
  switch (principal.kind) {
    case CredentialKind::kSdkKey:  // SDK keys only reach ingestion, which is exempt
      return std::optional<identity::RateDecision>();
    case CredentialKind::kNone:
      return limits_.HitClientIp(request);
    default:
      return limits_.HitCredential(principal);
  }
}

std::optional<HttpResponse> OperationsEndpoint::ServeOperation(
    const HttpRequest& request, const RouteMatch& match,
    const std::shared_ptr<Exchange>& exchange) {
  const tools::RegisteredOperation& op = *match.operation;
  auto principal = Authenticate(request, *op.spec);
  if (!principal) return exchange->Fail(principal.error());
  exchange->set_credential(*principal);
  auto counted = CountRequest(request, *op.spec, *principal);
  if (!counted) return exchange->Fail(counted.error());
  const Answer answer = [this, exchange, kind = principal->kind,
                         decision = *counted](HttpResponse response) {
    if (decision) limits_.AddHeaders(*decision, kind, response);
    exchange->Finish(std::move(response));
  };
  if (*counted && !(*counted)->allowed) {
    answer(exchange->Fail(RateLimited(**counted)));
    return std::nullopt;
  }
  auto args = BuildArguments(op, match, request);
  if (!args) {
    answer(exchange->Fail(args.error()));
    return std::nullopt;
  }
  if (op.spec->open_stream && (!op.spec->run_async || AcceptsEventStream(request))) {
    OpenStream(request, op, *principal, *args, *exchange, answer);
    return std::nullopt;
  }
  dispatcher_.CallAsync(
      op, *principal, *args, exchange->MetaOf(request),
      [exchange, answer, status = op.spec->success_status](Result<json::value> result) {
        answer(result ? JsonResponse(status, *result) : exchange->Fail(result.error()));
      });
  return std::nullopt;
}

void OperationsEndpoint::OpenStream(const HttpRequest& request,
                                    const tools::RegisteredOperation& op,
                                    const identity::Principal& principal, const json::object& args,
                                    Exchange& exchange, const Answer& answer) {
  auto stream = dispatcher_.OpenStream(op, principal, args, exchange.MetaOf(request));
  if (!stream) return answer(exchange.Fail(stream.error()));
  HttpResponse response = EventStreamHeaders();
  // A negotiated stream is one bounded answer, not a subscription: it is not reopened.
  if (op.spec->run_async) {
    response.stream = std::move(*stream);
    return answer(std::move(response));
  }
  // The recheck repeats authentication and the dispatcher's checks with copies of what this
  // request presented; the endpoint outlives every stream (they end before the server stops).
  auto presented = std::make_shared<HttpRequest>();
  presented->headers = request.headers;
  presented->remote_address = request.remote_address;
  auto still_allowed = [this, presented, &op, args, request_id = exchange.request_id()]() {
    auto again = Authenticate(*presented, *op.spec);
    if (!again) return false;
    const tools::RequestMeta recheck{request_id, presented->remote_address, std::nullopt,
                                     &presented->headers};
    return dispatcher_.OpenStream(op, *again, args, recheck).has_value();
  };
  response.stream = std::make_shared<ReauthorizedStream>(std::move(*stream), still_allowed);
  answer(std::move(response));
}

}  // namespace sightline::api
