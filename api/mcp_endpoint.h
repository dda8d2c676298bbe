// The MCP module: `/api/mcp` (the Origin check against DNS rebinding, the caller identified by
// the gate — an OAuth access token or a private API key — with the challenges MCP clients need,
// CORS, then mcp::McpServer, which counts each `tools/call` in the credential's window through
// the gate) and its anonymous discovery documents (the server card and the protected-resource
// metadata). Never decides who may call a tool.
// Thread-safe: its documents are rendered once; the services it calls are thread-safe.
#pragma once

#include <string>
#include <vector>

#include "api/endpoint.h"
#include "api/openapi.h"
#include "api/rate_limits.h"
#include "mcp/mcp_server.h"
#include "oauth/authorization_server.h"
#include "tools/gate.h"

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
  // `oauth` (what the challenges and the metadata name) may be null: the gate then takes private
  // API keys only. All must outlive the endpoint.
  McpEndpoint(mcp::McpServer& server, oauth::AuthorizationServer* oauth, tools::Gate& gate,
              RateLimits& limits, Options options);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  std::optional<core::HttpResponse> ServeMcp(const core::HttpRequest& request,
                                             const std::shared_ptr<Exchange>& exchange);
  // Hands the identified request to the MCP server; finishes `exchange` later.
  void Forward(const core::HttpRequest& request, const identity::Principal& principal,
               const std::shared_ptr<Exchange>& exchange);
  core::Result<identity::Principal> Identify(const core::HttpRequest& request);
  std::string Challenge(const core::Error& error) const;
  bool OriginAllowed(const core::HttpRequest& request) const;

  mcp::McpServer& server_;
  oauth::AuthorizationServer* oauth_;
  tools::Gate& gate_;
  RateLimits& limits_;
  const Options options_;
  const std::string resource_metadata_path_;  // "/.well-known/oauth-protected-resource/api/mcp"
  const RenderedDocument server_card_;
  const RenderedDocument resource_metadata_;
  const std::string baseline_scope_;  // what a 401 from /mcp suggests asking for
};

}  // namespace sightline::api
