// /mcp and its discovery documents (api/mcp_endpoint.h).
#include "api/mcp_endpoint.h"

#include "api/exchange.h"
#include "api/http_methods.h"
#include "api/public_documents.h"
#include "api/request_arguments.h"
#include "core/text.h"
#include "core/url.h"
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

// The transport is POST (and DELETE to end a session); GET reaches the MCP server, which answers
// that it offers no stream. A 405 from it names what is served.
const PathMethods kMcpMethods{
    {HttpMethod::kGet, HttpMethod::kPost, HttpMethod::kDelete, HttpMethod::kOptions},
    CorsPolicy::kMcp};
constexpr std::string_view kMcpAllow = "POST, DELETE, OPTIONS";
// The discovery documents: public, and a preflight names the headers a client revalidates with.
PathMethods DocumentMethods() {
  PathMethods path = ReadOnlyMethods(CorsPolicy::kPublic);
  path.allow_headers = "Content-Type, If-None-Match";
  return path;
}
const PathMethods kDocumentMethods = DocumentMethods();

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

McpEndpoint::McpEndpoint(mcp::McpServer& server, oauth::AuthorizationServer* oauth,
                         tools::Gate& gate, RateLimits& limits, Options options)
    : server_(server),
      oauth_(oauth),
      gate_(gate),
      limits_(limits),
      options_(std::move(options)),
      resource_metadata_path_(
          core::PathOfUrl(mcp::ProtectedResourceMetadataUrl(options_.api_url))),
      server_card_(RenderJsonDocument(mcp::ServerCard(options_.api_url),
                                      std::string(mcp::kServerCardMediaType))),
      resource_metadata_(RenderJsonDocument(
          mcp::ProtectedResourceMetadata(options_.api_url, BaselineScopes(oauth)))),
      baseline_scope_(core::JoinStrings(BaselineScopes(oauth), " ")) {}

// The protected-resource metadata sits at the root, RFC 9728 §3.1: at the well-known path with
// the resource's path appended (/.well-known/oauth-protected-resource/api/mcp), and at the bare
// well-known path, which clients try when the first fails.
bool McpEndpoint::Claims(const Target& target) const {
  if (target.api) return target.path == kMcpPath || target.path == kServerCardPath;
  return target.path == resource_metadata_path_ || target.path == kRootResourceMetadataPath;
}

std::optional<HttpResponse> McpEndpoint::Serve(const HttpRequest& request, const Target& target,
                                               const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  if (target.api && path == kMcpPath) {
    exchange->set_route(kMcpPath);
    return ServeMcp(request, exchange);
  }
  const bool card = target.api;
  exchange->set_route(card ? kServerCardPath
                           : (path == kRootResourceMetadataPath ? kRootResourceMetadataPath
                                                                : resource_metadata_path_));
  if (auto answered = AnswerMethod(request, kDocumentMethods, *exchange)) return answered;
  return Document(request, card ? server_card_ : resource_metadata_);
}

// DNS-rebinding protection (the transport spec's MUST): a browser page may call /mcp only from
// the server's own origin or one the operator allowed; a server published on a loopback
// address also answers only requests that name a loopback host.
bool McpEndpoint::OriginAllowed(const HttpRequest& request) const {
  const std::string own = core::OriginOf(options_.api_url);
  const bool loopback_server = IsLoopbackName(HostName(own));
  if (loopback_server) {
    const auto host = request.headers.Get("Host");
    if (host && !IsLoopbackName(HostName(*host))) return false;
  }
  const auto origin = request.headers.Get("Origin");
  if (!origin) return true;  // not a browser
  const std::string given = core::OriginOf(*origin);
  if (given == own || (loopback_server && IsLoopbackName(HostName(given)))) return true;
  for (const std::string& allowed : options_.allowed_origins) {
    if (given == core::OriginOf(allowed)) return true;
  }
  return false;
}

// What the request presents, to the gate: an OAuth access token (`Authorization: Bearer` only) or
// a private API key (Bearer or X-API-Key); `?readonly=true` asks for read-only tools.
Result<identity::Principal> McpEndpoint::Identify(const HttpRequest& request) {
  auto presented =
      ReadPresented(request, identity::CredentialKind::kPrivateApiKey, limits_.ClientIp(request));
  if (!presented) return presented.error();
  presented->setup_token.reset();  // not a way into MCP
  presented->read_only = ReadOnlyRequested(request);
  return gate_.Identify(tools::Surface::kMcp, *presented);
}

// RFC 6750 §3 / RFC 9728 §5.1 challenges: every 401 names the metadata so an OAuth client can
// find the authorization server; a 403 for a missing permission names the scope to ask for.
std::string McpEndpoint::Challenge(const core::Error& error) const {
  std::string challenge = "Bearer resource_metadata=\"" +
                          mcp::ProtectedResourceMetadataUrl(options_.api_url) + "\"";
  if (error.code() == ErrorCode::kOAuthInsufficientScope) {
    const json::value* scope = error.details().if_contains("requiredScope");
    challenge += ", error=\"insufficient_scope\"";
    if (scope && scope->is_string()) {
      challenge += ", scope=\"" + std::string(scope->as_string()) + "\"";
    }
    return challenge;
  }
  if (!baseline_scope_.empty()) challenge += ", scope=\"" + baseline_scope_ + "\"";
  if (error.code() != ErrorCode::kAuthRequired) challenge += ", error=\"invalid_token\"";
  return challenge;
}

std::optional<HttpResponse> McpEndpoint::ServeMcp(const HttpRequest& request,
                                                  const std::shared_ptr<Exchange>& exchange) {
  if (!OriginAllowed(request)) {
    return exchange->Fail(
        core::Error(ErrorCode::kOriginNotAllowed, "This origin may not call the MCP server."));
  }
  if (request.method == HttpMethod::kOptions) return AnswerOptions(request, kMcpMethods);
  auto principal = Identify(request);
  if (!principal && options_.anonymous && principal.error().code() == ErrorCode::kAuthRequired) {
    principal = identity::Principal{.kind = identity::CredentialKind::kNone,
                                    .credential_id = "anonymous"};
  }
  if (!principal) {
    HttpResponse response = exchange->Fail(principal.error());
    response.headers.Set("WWW-Authenticate", Challenge(principal.error()));
    AddCors(CorsPolicy::kMcp, request, response);
    return response;
  }
  exchange->set_credential(*principal);
  Forward(request, *principal, exchange);
  return std::nullopt;
}

void McpEndpoint::Forward(const HttpRequest& request, const identity::Principal& principal,
                          const std::shared_ptr<Exchange>& exchange) {
  tools::RequestMeta meta = exchange->MetaOf(request);
  meta.caller = tools::Gate::CallerOf(tools::Surface::kMcp);
  // Written by a tools/call before the answer comes: its window's headers.
  auto counted = std::make_shared<std::optional<tools::Window>>();
  const mcp::McpCall call{request.method, request.headers, request.body, principal, meta,
                          counted.get()};
  // The request is gone when the answer comes: keep its Origin for the CORS headers.
  std::optional<std::string> origin;
  if (auto given = request.headers.Get("Origin")) origin = std::string(*given);
  server_.HandleAsync(call, [this, exchange, origin, counted](Result<HttpResponse> answer) {
    HttpResponse response = answer ? std::move(*answer) : exchange->Fail(answer.error());
    if (!answer && answer.error().code() == ErrorCode::kOAuthInsufficientScope) {
      response.headers.Set("WWW-Authenticate", Challenge(answer.error()));
    }
    // The MCP server names what it serves when that is narrower (a 2026-07-28 GET: POST only).
    if (response.status == 405 && !response.headers.Has("Allow")) {
      response.headers.Set("Allow", std::string(kMcpAllow));
    }
    if (*counted) limits_.AddHeaders(**counted, response);
    AddCors(CorsPolicy::kMcp, origin ? std::optional<std::string_view>(*origin) : std::nullopt,
            response);
    exchange->Finish(std::move(response));
  });
}

}  // namespace sightline::api
