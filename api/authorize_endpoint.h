// The OAuth module's browser side, /oauth/authorize: GET validates the authorization request and
// shows the sign-in or consent page; POST carries the page's forms (sign in with a password or a
// passkey, second factor, sign out, allow, deny). Every request counts against its client IP's
// window. Same-origin only (no CORS). Thread-safe: it keeps no state of its own (state rides in the
// browser: hidden fields, a signed session cookie, a CSRF cookie).
#pragma once

#include <string>

#include "api/endpoint.h"
#include "api/rate_limits.h"
#include "identity/passkeys.h"
#include "identity/sessions.h"
#include "oauth/authorization_server.h"

namespace sightline::api {

class AuthorizeEndpoint final : public Endpoint {
 public:
  // All must outlive the endpoint and every client lookup it starts.
  AuthorizeEndpoint(oauth::AuthorizationServer& server, identity::SessionService& sessions,
                    identity::PasskeyService& passkeys, RateLimits& limits, std::string api_url);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  oauth::AuthorizationServer& server_;
  identity::SessionService& sessions_;
  identity::PasskeyService& passkeys_;
  RateLimits& limits_;
  const std::string api_url_;  // the API base: the OAuth issuer
};

}  // namespace sightline::api
