// The REST adapter: HttpRequest → route → authenticate → arguments → dispatcher → HttpResponse.
// Also serves the anonymous documents (/openapi.json, /openapi.yaml) and /healthz, renders
// every failure as an ErrorResponse, adds X-Request-Id and deprecation headers, and writes the
// access log. Contains no business logic. Thread-safe.
#pragma once

#include <memory>
#include <optional>

#include "api/openapi.h"
#include "api/router.h"
#include "core/clock.h"
#include "core/http_types.h"
#include "core/ip_address.h"
#include "identity/authenticator.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "mcp/mcp_server.h"
#include "oauth/authorization_server.h"
#include "api/sdk_script.h"
#include "tools/dispatch.h"
#include "tools/registry.h"

namespace sightline::api {

class RestHandler final : public core::HttpHandler {
 public:
  struct Dependencies {
    const tools::Registry& registry;
    tools::Dispatcher& dispatcher;
    identity::Authenticator& authenticator;
    identity::SessionService& sessions;
    identity::RateLimiter& credential_limits;  // per user, per private API key
    identity::RateLimiter& public_limits;      // per client IP, for anonymous operations
    const core::Clock& clock;
    // Proxies whose forwarding headers name the client (the per-IP limit behind a balancer).
    const core::CidrList& trusted_proxies;
    // The MCP server at /mcp; null serves no MCP routes.
    mcp::McpServer* mcp = nullptr;
    // Browser origins allowed to call /mcp besides the server's own (`--mcp-allowed-origin`).
    std::vector<std::string> mcp_allowed_origins = {};
    // The OAuth authorization server of /mcp; null serves no OAuth routes and /mcp takes
    // private API keys only.
    oauth::AuthorizationServer* oauth = nullptr;
    // Test-only (the conformance fixture mode): /mcp also answers requests without a
    // credential, which then see only the fixtures.
    bool mcp_anonymous = false;
    // The browser tracking script; null when it was not built (its routes then answer 404).
    const SdkScript* sdk_script = nullptr;
  };
  RestHandler(const Dependencies& dependencies, const OpenApiOptions& openapi);

  void HandleAsync(const core::HttpRequest& request, core::Responder respond) override;
  core::HttpResponse RenderTransportError(int status, std::string_view reason) override;

  // Turns a finished operation's result into a response (exposed for the registry fixtures in
  // unit tests).
  static void AddDeprecationHeaders(const tools::OperationSpec& spec,
                                    core::HttpResponse& response);

 private:
  struct Outcome;
  // Each returns the response when it is ready now, or nullopt when Finish will be (or was)
  // called with it.
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, std::string_view path,
                                          const std::shared_ptr<Outcome>& exchange);
  std::optional<core::HttpResponse> ServeOperation(const core::HttpRequest& request,
                                                   const RouteMatch& match,
                                                   const std::shared_ptr<Outcome>& exchange);
  // Adds the request id and deprecation headers, writes the access log and responds; once.
  void Finish(Outcome& exchange, core::HttpResponse response);
  void AddRateLimitHeaders(const identity::RateDecision& decision,
                           identity::CredentialKind kind, core::HttpResponse& response);
  core::Result<identity::Principal> Authenticate(const core::HttpRequest& request,
                                                 const tools::OperationSpec& spec);
  // Counts the request against its credential's (or, anonymous, its IP's) window; nullopt for
  // routes that are exempt (ingestion).
  core::Result<std::optional<identity::RateDecision>> CountRequest(
      const core::HttpRequest& request, const tools::OperationSpec& spec,
      const identity::Principal& principal);
  std::optional<core::HttpResponse> ServeBuiltIn(const core::HttpRequest& request,
                                                 std::string_view path,
                                                 std::string_view request_id, Outcome& outcome);
  // /mcp, its server card and its protected-resource metadata (api/mcp_route.cpp).
  static bool IsMcpPath(std::string_view path);
  std::optional<core::HttpResponse> ServeMcp(const core::HttpRequest& request,
                                             std::string_view path,
                                             const std::shared_ptr<Outcome>& exchange);
  std::optional<core::HttpResponse> ServeMcpEndpoint(const core::HttpRequest& request,
                                                     const std::shared_ptr<Outcome>& exchange);
  core::Result<identity::Principal> AuthenticateMcp(const core::HttpRequest& request);
  std::string McpChallenge(const core::Error& error) const;
  bool McpOriginAllowed(const core::HttpRequest& request) const;
  // The authorization server's metadata, registration, token and revocation endpoints
  // (api/oauth_routes.cpp) and its browser pages at /oauth/authorize (api/authorize_route.cpp).
  static bool IsOAuthPath(std::string_view path);
  std::optional<core::HttpResponse> ServeOAuth(const core::HttpRequest& request,
                                               std::string_view path,
                                               const std::shared_ptr<Outcome>& exchange);
  std::optional<core::HttpResponse> ServeAuthorize(const core::HttpRequest& request,
                                                   const std::shared_ptr<Outcome>& exchange);
  // Counts an anonymous request against its client IP's window: nullopt when allowed, else
  // the refusal.
  std::optional<core::Error> CountAnonymous(const core::HttpRequest& request);
  // Records the code for the access log and logs internal diagnostics (every failure).
  void NoteFailure(const core::Error& error, Outcome& outcome);
  // Renders `error`, records its code for the access log, and logs internal diagnostics.
  core::HttpResponse Fail(const core::Error& error, std::string_view request_id,
                          Outcome& outcome);

  const tools::Registry& registry_;
  Router router_;
  tools::Dispatcher& dispatcher_;
  identity::Authenticator& authenticator_;
  identity::SessionService& sessions_;
  identity::RateLimiter& credential_limits_;
  identity::RateLimiter& public_limits_;
  const core::Clock& clock_;
  const core::CidrList& trusted_proxies_;
  OpenApiDocuments documents_;
  mcp::McpServer* mcp_;
  oauth::AuthorizationServer* oauth_;
  RenderedDocument authorization_server_metadata_;
  std::vector<std::string> mcp_allowed_origins_;
  bool mcp_anonymous_;
  const SdkScript* sdk_script_;
  std::string public_url_;
  RenderedDocument server_card_;
  RenderedDocument resource_metadata_;
  std::string mcp_baseline_scope_;  // what a 401 from /mcp suggests asking for
};

}  // namespace sightline::api
