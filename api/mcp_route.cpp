// RestHandler's MCP routes: `/mcp` (Origin check, authentication with the challenge MCP clients
// need, rate limit, CORS, then mcp::McpServer) and the anonymous discovery documents.
#include "api/public_documents.h"
#include "api/request_arguments.h"
#include "api/rest_handler.h"
#include "api/rest_outcome.h"
#include "core/text.h"
#include "core/url.h"
#include "identity/api_keys.h"
#include "mcp/discovery.h"

namespace sightline::api {
namespace {

using core::ErrorCode;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using core::Result;
namespace json = boost::json;

constexpr std::string_view kMcpPath = "/mcp";
constexpr std::string_view kServerCardPath = "/mcp/server-card";
constexpr std::string_view kRootResourceMetadataPath = "/.well-known/oauth-protected-resource";
constexpr std::string_view kMcpResourceMetadataPath = "/.well-known/oauth-protected-resource/mcp";

// What browser-based MCP clients send, and what they must be able to read.
constexpr std::string_view kMcpAllowHeaders =
    "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, "
    "X-API-Key, X-MCP-Readonly";
constexpr std::string_view kMcpExposeHeaders =
    "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, Retry-After, X-Request-Id";

// The host of a Host header or origin, without scheme and port.
std::string_view HostName(std::string_view authority) {
  if (const std::size_t scheme = authority.find("://"); scheme != std::string_view::npos) {
    authority.remove_prefix(scheme + 3);
  }
  if (authority.starts_with('[')) return authority.substr(0, authority.find(']') + 1);
  return authority.substr(0, authority.find(':'));
}

bool IsLoopbackName(std::string_view host) {
  return core::IsLoopbackHost(core::ToLowerAscii(host));
}

bool Truthy(std::string_view value) {
  return value == "1" || core::EqualsIgnoreCase(value, "true");
}

// `/mcp?readonly=true` or `X-MCP-Readonly: true`: only read-only tools for this connection.
bool ReadOnlyRequested(const HttpRequest& request) {
  if (auto header = request.headers.Get("X-MCP-Readonly"); header && Truthy(*header)) return true;
  for (const auto& [name, value] : core::ParseQuery(request.query())) {
    if (name == "readonly" && Truthy(value)) return true;
  }
  return false;
}

void AddMcpCors(const HttpRequest& request, HttpResponse& response) {
  const auto origin = request.headers.Get("Origin");
  if (!origin) return;
  response.headers.Set("Access-Control-Allow-Origin", std::string(*origin));
  response.headers.Set("Vary", "Origin");
  response.headers.Set("Access-Control-Expose-Headers", std::string(kMcpExposeHeaders));
}

}  // namespace

bool RestHandler::IsMcpPath(std::string_view path) {
  // The metadata's well-known path carries the public URL's own path (/api/mcp behind a
  // proxy that serves the API under /api).
  const bool metadata = path == kRootResourceMetadataPath ||
                        (path.starts_with(kRootResourceMetadataPath) && path.ends_with(kMcpPath));
  return path == kMcpPath || path == kServerCardPath || metadata;
}

std::optional<HttpResponse> RestHandler::ServeMcp(const HttpRequest& request,
                                                  std::string_view path,
                                                  const std::shared_ptr<Outcome>& exchange) {
  Outcome& outcome = *exchange;
  if (path == kMcpPath) {
    outcome.route = kMcpPath;
    return ServeMcpEndpoint(request, exchange);
  }
  const bool card = path == kServerCardPath;
  outcome.route = card ? kServerCardPath
                       : (path == kRootResourceMetadataPath ? kRootResourceMetadataPath
                                                            : kMcpResourceMetadataPath);
  if (request.method == HttpMethod::kOptions) {
    HttpResponse response = Preflight(request);
    response.headers.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match");
    return response;
  }
  if (request.method == HttpMethod::kGet || request.method == HttpMethod::kHead) {
    return Document(request, card ? server_card_ : resource_metadata_);
  }
  HttpResponse response = Fail(
      core::Error(ErrorCode::kMethodNotAllowed, "Only GET and HEAD are served here."),
      outcome.request_id, outcome);
  response.headers.Set("Allow", "GET, HEAD, OPTIONS");
  return response;
}

// DNS-rebinding protection (the transport spec's MUST): a browser page may call /mcp only from
// the server's own origin or one the operator allowed; a server published on a loopback
// address also answers only requests that name a loopback host.
bool RestHandler::McpOriginAllowed(const HttpRequest& request) const {
  const std::string own = core::OriginOf(public_url_);
  const bool loopback_server = IsLoopbackName(HostName(own));
  if (loopback_server) {
    const auto host = request.headers.Get("Host");
    if (host && !IsLoopbackName(HostName(*host))) return false;
  }
  const auto origin = request.headers.Get("Origin");
  if (!origin) return true;  // not a browser
  const std::string given = core::OriginOf(*origin);
  if (given == own || (loopback_server && IsLoopbackName(HostName(given)))) return true;
  for (const std::string& allowed : mcp_allowed_origins_) {
    if (given == core::OriginOf(allowed)) return true;
  }
  return false;
}

// An OAuth access token (`Authorization: Bearer` only) or a private API key (Bearer or
// X-API-Key).
Result<identity::Principal> RestHandler::AuthenticateMcp(const HttpRequest& request) {
  auto secret = PresentedSecret(request, identity::CredentialKind::kPrivateApiKey);
  if (!secret) return secret.error();
  if (oauth_ && oauth::AuthorizationServer::LooksLikeAccessToken(*secret)) {
    if (!request.headers.Has("Authorization")) {
      return core::Error(ErrorCode::kAuthMalformedCredential,
                         "Send an access token in the Authorization header.");
    }
    return oauth_->AuthenticateAccessToken(*secret);
  }
  const auto kind = identity::ParseKeyKind(*secret);
  if (kind == storage::KeyKind::kSdk) {
    return core::Error(ErrorCode::kAuthWrongCredentialKind,
                       "MCP takes a private API key (sk_service_…), not an SDK key.");
  }
  if (kind) return authenticator_.AuthenticatePrivateKey(*secret);
  return core::Error(ErrorCode::kAuthInvalidCredential,
                     "The credential is neither an access token nor a private API key this "
                     "server knows.");
}

// RFC 6750 §3 / RFC 9728 §5.1 challenges: every 401 names the metadata so an OAuth client can
// find the authorization server; a 403 for a missing permission names the scope to ask for.
std::string RestHandler::McpChallenge(const core::Error& error) const {
  std::string challenge = "Bearer resource_metadata=\"" +
                          mcp::ProtectedResourceMetadataUrl(public_url_) + "\"";
  if (error.code() == ErrorCode::kOAuthInsufficientScope) {
    const json::value* scope = error.details().if_contains("requiredScope");
    challenge += ", error=\"insufficient_scope\"";
    if (scope && scope->is_string()) {
      challenge += ", scope=\"" + std::string(scope->as_string()) + "\"";
    }
    return challenge;
  }
  if (!mcp_baseline_scope_.empty()) challenge += ", scope=\"" + mcp_baseline_scope_ + "\"";
  if (error.code() != ErrorCode::kAuthRequired) challenge += ", error=\"invalid_token\"";
  return challenge;
}

std::optional<HttpResponse> RestHandler::ServeMcpEndpoint(
    const HttpRequest& request, const std::shared_ptr<Outcome>& exchange) {
  Outcome& outcome = *exchange;
  if (!McpOriginAllowed(request)) {
    return Fail(core::Error(ErrorCode::kOriginNotAllowed,
                            "This origin may not call the MCP server."),
                outcome.request_id, outcome);
  }
  if (request.method == HttpMethod::kOptions) {
    HttpResponse response;
    response.status = 204;
    AddMcpCors(request, response);
    response.headers.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    response.headers.Set("Access-Control-Allow-Headers", std::string(kMcpAllowHeaders));
    response.headers.Set("Access-Control-Max-Age", "86400");
    return response;
  }
  auto principal = AuthenticateMcp(request);
  if (!principal && mcp_anonymous_ && principal.error().code() == ErrorCode::kAuthRequired) {
    principal = identity::Principal{.kind = identity::CredentialKind::kNone,
                                    .credential_id = "anonymous"};
  }
  if (!principal) {
    HttpResponse response = Fail(principal.error(), outcome.request_id, outcome);
    response.headers.Set("WWW-Authenticate", McpChallenge(principal.error()));
    AddMcpCors(request, response);
    return response;
  }
  outcome.credential_kind = identity::CredentialKindName(principal->kind);
  outcome.credential_id = principal->credential_id;
  // One window per credential: a private API key's is shared with its REST calls.
  auto decision = credential_limits_.Hit(identity::CredentialName(*principal));
  if (!decision) return Fail(decision.error(), outcome.request_id, outcome);
  if (!decision->allowed) {
    HttpResponse response = Fail(RateLimited(*decision), outcome.request_id, outcome);
    AddRateLimitHeaders(*decision, principal->kind, response);
    AddMcpCors(request, response);
    return response;
  }
  tools::RequestMeta meta = MetaOf(request, outcome.request_id);
  meta.caller = tools::Caller::kModel;
  principal->read_only = principal->read_only || ReadOnlyRequested(request);
  const mcp::McpCall call{request.method, request.headers, request.body, *principal, meta};
  auto cors_request = std::make_shared<HttpRequest>();
  if (auto origin = request.headers.Get("Origin")) {
    cors_request->headers.Set("Origin", std::string(*origin));
  }
  mcp_->HandleAsync(call, [this, exchange, cors_request, kind = principal->kind,
                           decision = *decision](Result<HttpResponse> answer) {
    HttpResponse response =
        answer ? std::move(*answer) : Fail(answer.error(), exchange->request_id, *exchange);
    if (!answer && answer.error().code() == ErrorCode::kOAuthInsufficientScope) {
      response.headers.Set("WWW-Authenticate", McpChallenge(answer.error()));
    }
    if (response.status == 405) response.headers.Set("Allow", "POST, DELETE, OPTIONS");
    AddRateLimitHeaders(decision, kind, response);
    AddMcpCors(*cors_request, response);
    Finish(*exchange, std::move(response));
  });
  return std::nullopt;
}

}  // namespace sightline::api
