// The registry's routes: route (404/405), credential → Principal (401), the credential's or the
// client IP's window (429), arguments (400), then the dispatcher, answering JSON, an
// ErrorResponse or a Server-Sent Events stream; also the SDK routes' preflights. Claims every
// path under /api, so the front door asks it after the other API modules. Contains no business logic.
// Thread-safe: the router is immutable; the services it calls are.
#pragma once

#include <optional>

#include "api/endpoint.h"
#include "api/rate_limits.h"
#include "api/router.h"
#include "identity/authenticator.h"
#include "identity/sessions.h"
#include "oauth/authorization_server.h"
#include "tools/dispatch.h"
#include "tools/registry.h"

namespace sightline::api {

class OperationsEndpoint final : public Endpoint {
 public:
  // Everything must outlive the endpoint, and every stream it opens.
  OperationsEndpoint(const tools::Registry& registry, tools::Dispatcher& dispatcher,
                     identity::Authenticator& authenticator, identity::SessionService& sessions,
                     RateLimits& limits, oauth::AuthorizationServer* cli_tokens = nullptr);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  std::optional<core::HttpResponse> ServeOperation(const core::HttpRequest& request,
                                                   const RouteMatch& match,
                                                   const std::shared_ptr<Exchange>& exchange);
  // The answer, with the rate-limit headers when the request was counted.
  using Answer = std::function<void(core::HttpResponse)>;
  void OpenStream(const core::HttpRequest& request, const tools::RegisteredOperation& op,
                  const identity::Principal& principal, const boost::json::object& args,
                  Exchange& exchange, const Answer& answer);
  core::Result<identity::Principal> Authenticate(const core::HttpRequest& request,
                                                 const tools::OperationSpec& spec);
  // Counts the request against its credential's (or, anonymous, its IP's) window; nullopt for
  // routes that are exempt (ingestion).
  core::Result<std::optional<identity::RateDecision>> CountRequest(
      const core::HttpRequest& request, const tools::OperationSpec& spec,
      const identity::Principal& principal);

  Router router_;
  tools::Dispatcher& dispatcher_;
  identity::Authenticator& authenticator_;
  identity::SessionService& sessions_;
  RateLimits& limits_;
  oauth::AuthorizationServer* cli_tokens_;  // command-line logins' tokens (cli_at_…); may be null
};

}  // namespace sightline::api
