// The MCP module: `/api/mcp` (the Origin check against DNS rebinding, authentication by OAuth access
// token or private API key with the challenges MCP clients need, the credential's window, CORS,
// then mcp::McpServer) and its anonymous discovery documents (the server card and the
// protected-resource metadata). Never decides who may call a tool.
// Thread-safe: its documents are rendered once; the services it calls are thread-safe.
#pragma once

#include <string>
#include <vector>

#include "api/endpoint.h"
#include "api/openapi.h"
#include "api/rate_limits.h"
#include "identity/authenticator.h"
#include "mcp/mcp_server.h"
#include "oauth/authorization_server.h"

namespace sightline::api {

class McpEndpoint final : public Endpoint {
 public:
  struct Options {
    std::string api_url;  // the API base users call: the public URL + /api
    // Browser origins allowed to call /mcp besides the server's own (`--mcp-allowed-origin`).
    std::vector<std::string> allowed_origins = {};
    // Test-only (set by the fixture server, tests/mcp_fixture_server; sightline never sets it):
    // /mcp also answers requests without a credential, which then see only the fixtures.
    bool anonymous = false;
  };
  // `oauth` may be null: /mcp then takes private API keys only. All must outlive the endpoint.
  McpEndpoint(mcp::McpServer& server, oauth::AuthorizationServer* oauth,
              identity::Authenticator& authenticator, RateLimits& limits, Options options);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  std::optional<core::HttpResponse> ServeMcp(const core::HttpRequest& request,
                                             const std::shared_ptr<Exchange>& exchange);
  // Hands the authenticated, counted request to the MCP server; finishes `exchange` later.
  void Forward(const core::HttpRequest& request, identity::Principal principal,
               const identity::RateDecision& decision, const std::shared_ptr<Exchange>& exchange);
  core::Result<identity::Principal> Authenticate(const core::HttpRequest& request);
  std::string Challenge(const core::Error& error) const;
  bool OriginAllowed(const core::HttpRequest& request) const;

  mcp::McpServer& server_;
  oauth::AuthorizationServer* oauth_;
  identity::Authenticator& authenticator_;
  RateLimits& limits_;
  const Options options_;
  const std::string resource_metadata_path_;  // "/.well-known/oauth-protected-resource/api/mcp"
  const RenderedDocument server_card_;
  const RenderedDocument resource_metadata_;
  const std::string baseline_scope_;  // what a 401 from /mcp suggests asking for
};

}  // namespace sightline::api
