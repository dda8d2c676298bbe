// The OAuth module's machine endpoints: authorization-server metadata (RFC 8414, also answered
// as OpenID-style discovery), dynamic client registration (RFC 7591), the token endpoint and
// revocation (RFC 7009). Machine clients call these from anywhere, browsers included, so every
// answer carries OAuth's CORS headers; errors take the RFC 6749 shape. The browser side,
// /api/oauth/authorize, is api/authorize_endpoint.h.
// Thread-safe: the metadata is rendered once; the authorization server is thread-safe.
#pragma once

#include "api/endpoint.h"
#include "api/openapi.h"
#include "api/rate_limits.h"
#include "oauth/authorization_server.h"

namespace sightline::api {

class OAuthEndpoint final : public Endpoint {
 public:
  // Both must outlive the endpoint.
  OAuthEndpoint(oauth::AuthorizationServer& server, RateLimits& limits);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  bool IsMetadata(const Target& target) const;
  core::HttpResponse Register(const core::HttpRequest& request, Exchange& exchange);
  core::HttpResponse TokenOrRevoke(const core::HttpRequest& request, std::string_view path,
                                   Exchange& exchange);

  oauth::AuthorizationServer& server_;
  RateLimits& limits_;
  const RenderedDocument metadata_;
  const std::string authorization_server_metadata_path_;  // at the root, with the issuer's path
  const std::string openid_configuration_path_;
};

}  // namespace sightline::api
