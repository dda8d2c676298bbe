#include "api/rate_limits.h"

#include "ingest/client_ip.h"

namespace sightline::api {

core::Error RateLimited(const identity::RateDecision& decision) {
  core::Error limited(
      core::ErrorCode::kAuthRateLimited,
      "Rate limit exceeded: " + std::to_string(decision.limit) + " requests per minute.");
  limited.mutable_details()["retryAfterSeconds"] = decision.reset_seconds;
  return limited;
}

core::Result<identity::RateDecision> RateLimits::HitCredential(
    const identity::Principal& principal) {
  return credentials_.Hit(identity::CredentialName(principal));
}

core::Result<identity::RateDecision> RateLimits::HitClientIp(const core::HttpRequest& request) {
  return client_ips_.Hit(
      "ip:" + ingest::ClientIp(request.headers, request.remote_address, trusted_proxies_));
}

std::optional<core::Error> RateLimits::CountAnonymous(const core::HttpRequest& request) {
  auto decision = HitClientIp(request);
  if (!decision) return decision.error();
  if (!decision->allowed) return RateLimited(*decision);
  return std::nullopt;
}

void RateLimits::AddHeaders(const identity::RateDecision& decision, identity::CredentialKind kind,
                            core::HttpResponse& response) const {
  const identity::RateLimitPolicy& policy =
      kind == identity::CredentialKind::kNone ? client_ips_.policy() : credentials_.policy();
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
