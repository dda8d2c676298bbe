#include "tools/gate.h"

#include "identity/api_keys.h"
#include "identity/authenticator.h"
#include "identity/jwt.h"
#include "identity/sessions.h"
#include "oauth/authorization_server.h"
#include "storage/account_records.h"
#include "tools/access.h"

#include <chrono>
#include <future>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using identity::CredentialKind;
using identity::Principal;

// Which credential a REST caller presented, judged by its form before it is looked up.
CredentialKind RestKindOf(std::string_view secret) {
  if (const auto key = identity::ParseKeyKind(secret)) {
    return *key == storage::KeyKind::kSdk ? CredentialKind::kSdkKey
                                          : CredentialKind::kPrivateApiKey;
  }
  if (oauth::AuthorizationServer::LooksLikeCliToken(secret)) return CredentialKind::kCliToken;
  return identity::LooksLikeJwt(secret) ? CredentialKind::kUserSession : CredentialKind::kNone;
}

// Asked before the lookup, so a kind the operation never takes is refused without reading the
// store. A refusal by design (PERM_001) waits for the lookup: an unknown credential is 401
// whatever it asks for.
std::optional<Error> RefusedUnseen(const OperationSpec* operation, CredentialKind kind) {
  if (!operation) return std::nullopt;
  auto accepted = CheckCredentialKind(*operation, kind);
  if (accepted || accepted.error().code() == ErrorCode::kPermDenied) return std::nullopt;
  return accepted.error();
}

Error NoCredential() { return Error(ErrorCode::kAuthRequired, "Authentication required."); }

// A stream that stays authorized: every `kRecheckEvery` polls it asks again whether its caller
// may still read it (spec rule 1: a revoked key, an expired or signed-out session, or a lost
// role ends it as it would refuse the next request), and after `kMaxPolls` it ends so the
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

// The step-up challenge's scope (RFC 6750 §3.1): what the operation needs, with what the
// consent already holds, so that one new consent covers both.
Error InsufficientScope(const Principal& principal, identity::Permission needed) {
  std::string scope;
  for (const std::string_view name : principal.permissions.Names()) {
    scope += std::string(name) + " ";
  }
  scope += identity::PermissionName(needed);
  json::object details;
  details["requiredScope"] = scope;
  return Error(ErrorCode::kOAuthInsufficientScope,
               "This connection's consent does not include '" +
                   std::string(identity::PermissionName(needed)) + "'.",
               std::move(details));
}

}  // namespace

Error RateLimited(const identity::RateDecision& decision) {
  Error limited(ErrorCode::kAuthRateLimited, "Rate limit exceeded: " +
                                                 std::to_string(decision.limit) +
                                                 " requests per minute.");
  limited.mutable_details()["retryAfterSeconds"] = decision.reset_seconds;
  return limited;
}

Result<Principal> Gate::Identify(Surface surface, const Presented& presented,
                                 const OperationSpec* operation) {
  if (operation && operation->credentials == CredentialKind::kNone) return Principal{};
  auto principal =
      surface == Surface::kMcp ? IdentifyMcp(presented) : IdentifyRest(presented, operation);
  if (principal && surface == Surface::kMcp) {
    principal->read_only = principal->read_only || presented.read_only;
  }
  return principal;
}

Result<Principal> Gate::IdentifyRest(const Presented& presented, const OperationSpec* operation) {
  if (presented.setup_token && !presented.in_authorization) {
    if (auto refused = RefusedUnseen(operation, CredentialKind::kTwoFactorSetup)) return *refused;
    return parts_.sessions.AuthenticateSetupToken(*presented.setup_token);
  }
  if (!presented.secret) return NoCredential();
  const std::string& secret = *presented.secret;
  const CredentialKind kind = RestKindOf(secret);
  if (kind == CredentialKind::kNone) {
    return Error(ErrorCode::kAuthMalformedCredential,
                 "The credential is neither an API key nor an access token.");
  }
  if (auto refused = RefusedUnseen(operation, kind)) return *refused;
  switch (kind) {
    case CredentialKind::kSdkKey:
      return parts_.keys.AuthenticateSdkKey(secret);
    case CredentialKind::kPrivateApiKey:
      return parts_.keys.AuthenticatePrivateKey(secret);
    case CredentialKind::kCliToken:
      if (!parts_.grants) {
        return Error(ErrorCode::kAuthInvalidCredential, "The access token is unknown.");
      }
      return parts_.grants->AuthenticateCliToken(secret, presented.remote_address);
    default:
      return parts_.sessions.AuthenticateAccessToken(secret);
  }
}

// An OAuth access token (`Authorization: Bearer` only) or a private API key.
Result<Principal> Gate::IdentifyMcp(const Presented& presented) {
  if (!presented.secret) return NoCredential();
  const std::string& secret = *presented.secret;
  if (parts_.grants && oauth::AuthorizationServer::LooksLikeAccessToken(secret)) {
    if (!presented.in_authorization) {
      return Error(ErrorCode::kAuthMalformedCredential,
                   "Send an access token in the Authorization header.");
    }
    return parts_.grants->AuthenticateAccessToken(secret);
  }
  const auto kind = identity::ParseKeyKind(secret);
  if (kind == storage::KeyKind::kSdk) {
    return Error(ErrorCode::kAuthWrongCredentialKind,
                 "MCP takes a private API key (sk_service_…), not an SDK key.");
  }
  if (kind) return parts_.keys.AuthenticatePrivateKey(secret);
  return Error(ErrorCode::kAuthInvalidCredential,
               "The credential is neither an access token nor a private API key this server "
               "knows.");
}

Result<std::optional<Window>> Gate::Count(const OperationSpec& operation,
                                          const Principal& principal,
                                          std::string_view client_ip) {
  // Ingestion is exempt, and SDK keys reach nothing else.
  if (!operation.rate_limited || principal.kind == CredentialKind::kSdkKey) {
    return std::optional<Window>();
  }
  const bool anonymous = principal.kind == CredentialKind::kNone;
  auto decision = anonymous
                      ? parts_.client_ip_windows.Hit("ip:" + std::string(client_ip))
                      : parts_.credential_windows.Hit(identity::CredentialName(principal));
  if (!decision) return decision.error();
  return std::optional<Window>(Window{*decision, anonymous});
}

std::optional<Error> Gate::CountClientIp(std::string_view client_ip) {
  auto decision = parts_.client_ip_windows.Hit("ip:" + std::string(client_ip));
  if (!decision) return decision.error();
  if (!decision->allowed) return RateLimited(*decision);
  return std::nullopt;
}

const identity::RateLimitPolicy& Gate::PolicyOf(const Window& window) const {
  return window.per_client_ip ? parts_.client_ip_windows.policy()
                              : parts_.credential_windows.policy();
}

void Gate::Call(const RegisteredOperation& operation, const Principal& principal,
                const json::object& args, const RequestMeta& request, GateCallback done) {
  auto counted = Count(*operation.spec, principal, request.client_ip);
  if (!counted) return done(counted.error(), std::nullopt);
  const std::optional<Window> window = *counted;
  if (window && !window->decision.allowed) return done(RateLimited(window->decision), window);
  parts_.dispatcher.CallAsync(operation, principal, args, request,
                              [done = std::move(done), window](Result<json::value> result) {
                                done(std::move(result), window);
                              });
}

Result<json::value> Gate::CallAndWait(const RegisteredOperation& operation,
                                      const Principal& principal, const json::object& args,
                                      const RequestMeta& request) {
  std::promise<Result<json::value>> answered;
  auto future = answered.get_future();
  Call(operation, principal, args, request,
       [&answered](Result<json::value> result, const std::optional<Window>&) {
         answered.set_value(std::move(result));
       });
  return future.get();
}

Result<std::shared_ptr<core::ResponseStream>> Gate::OpenStream(
    const RegisteredOperation& operation, Surface surface, const Presented& presented,
    const Principal& principal, const json::object& args, const RequestMeta& request,
    bool renewed) {
  auto stream = parts_.dispatcher.OpenStream(operation, principal, args, request);
  if (!stream || !renewed) return stream;
  // The recheck repeats the gate's and the dispatcher's checks, opening nothing, with copies of
  // what this request presented; the gate outlives every stream (they end before the server
  // stops).
  auto still_allowed = [this, &operation, surface, presented, args,
                        request_id = std::string(request.request_id), caller = request.caller]() {
    auto again = Identify(surface, presented, operation.spec);
    if (!again) return false;
    const RequestMeta recheck{request_id, presented.client_ip, std::nullopt, nullptr, caller};
    return parts_.dispatcher.Authorize(operation, *again, args, recheck).has_value();
  };
  return std::shared_ptr<core::ResponseStream>(
      std::make_shared<ReauthorizedStream>(std::move(*stream), std::move(still_allowed)));
}

std::optional<Error> Gate::StepUp(const OperationSpec& operation, const Principal& principal) {
  if (principal.kind != CredentialKind::kMcpToken) return std::nullopt;
  const auto held = EffectivePermissions(principal, std::nullopt);
  if (CheckCredential(operation, principal, Caller::kModel) &&
      !CheckPermission(operation, held) && principal.consentable.Has(operation.permission)) {
    return InsufficientScope(principal, operation.permission);
  }
  return std::nullopt;
}

Principal Gate::ActingIn(const Principal& caller, const storage::OrganizationRecord& organization,
                         const storage::ProjectRecord& project) {
  Principal acting = caller;
  acting.organization_id = organization.id;
  acting.organization_slug = organization.slug;
  acting.project_id = project.id;
  return acting;
}

Caller Gate::CallerOf(Surface surface) {
  return surface == Surface::kMcp ? Caller::kModel : Caller::kDirect;
}

}  // namespace sightline::tools
