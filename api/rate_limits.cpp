#include "api/rate_limits.h"

#include "ingest/client_ip.h"

namespace sightline::api {

std::string RateLimits::ClientIp(const core::HttpRequest& request) const {
  return ingest::ClientIp(request.headers, request.remote_address, trusted_proxies_);
}

std::optional<core::Error> RateLimits::CountAnonymous(const core::HttpRequest& request) {
  return gate_.CountClientIp(ClientIp(request));
}

void RateLimits::AddHeaders(const tools::Window& window, core::HttpResponse& response) const {
  const identity::RateLimitPolicy& policy = gate_.PolicyOf(window);
  const identity::RateDecision& decision = window.decision;
  const std::string name = "\"" + policy.name + "\"";
  response.headers.Set("RateLimit-Policy", name + ";q=" + std::to_string(policy.quota) +
                                               ";w=" + std::to_string(policy.window_seconds));
  response.headers.Set("RateLimit", name + ";r=" + std::to_string(decision.remaining) +
                                        ";t=" + std::to_string(decision.reset_seconds));
  response.headers.Set("X-RateLimit-Limit", std::to_string(decision.limit));
  response.headers.Set("X-RateLimit-Remaining", std::to_string(decision.remaining));
  response.headers.Set("X-RateLimit-Reset", std::to_string(decision.reset_seconds));
}

}  // namespace sightline::api
