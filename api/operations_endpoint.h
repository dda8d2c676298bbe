// The registry's routes: route (404/405), then the gate (tools/gate.h: credential → Principal,
// 401; the credential's or the client IP's window, 429), arguments (400), then the dispatcher,
// answering JSON, an ErrorResponse or a Server-Sent Events stream; also the SDK routes'
// preflights. Claims every path under /api, so the front door asks it after the other API
// modules. Decides nothing: it translates HTTP to and from the gate.
// Thread-safe: the router is immutable; the services it calls are.
#pragma once

#include <optional>

#include "api/endpoint.h"
#include "api/rate_limits.h"
#include "api/router.h"
#include "tools/gate.h"
#include "tools/registry.h"

namespace sightline::api {

class OperationsEndpoint final : public Endpoint {
 public:
  // Everything must outlive the endpoint, and every stream it opens.
  OperationsEndpoint(const tools::Registry& registry, tools::Gate& gate, RateLimits& limits);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  std::optional<core::HttpResponse> ServeOperation(const core::HttpRequest& request,
                                                   const RouteMatch& match,
                                                   const std::shared_ptr<Exchange>& exchange);
  // The answer, with the rate-limit headers when the request was counted.
  using Answer = std::function<void(core::HttpResponse)>;
  core::Result<tools::Presented> Present(const core::HttpRequest& request,
                                         const tools::OperationSpec& spec) const;
  // The operation's Server-Sent Events answer, or the refusal.
  core::HttpResponse Stream(const tools::RegisteredOperation& op, const tools::Presented& presented,
                            const identity::Principal& principal, const boost::json::object& args,
                            const tools::RequestMeta& meta, Exchange& exchange);

  Router router_;
  tools::Gate& gate_;
  RateLimits& limits_;
};

}  // namespace sightline::api
