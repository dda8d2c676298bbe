// The front door's two request windows: per credential (users, private API keys, MCP grants;
// shared by REST and MCP) and per client IP (anonymous callers, behind trusted proxies), with
// the RateLimit headers and the AUTH_014 refusal. The windows live in the store; thread-safe.
#pragma once

#include <optional>

#include "core/error.h"
#include "core/http_types.h"
#include "core/ip_address.h"
#include "core/result.h"
#include "identity/principal.h"
#include "identity/rate_limiter.h"

namespace sightline::api {

class RateLimits {
 public:
  // All three must outlive this object.
  RateLimits(identity::RateLimiter& credentials, identity::RateLimiter& client_ips,
             const core::CidrList& trusted_proxies)
      : credentials_(credentials), client_ips_(client_ips), trusted_proxies_(trusted_proxies) {}

  // Counts one request against the credential's window (identity::CredentialName).
  core::Result<identity::RateDecision> HitCredential(const identity::Principal& principal);
  // Counts one request against the client IP's window.
  core::Result<identity::RateDecision> HitClientIp(const core::HttpRequest& request);
  // HitClientIp as a verdict: nullopt when allowed, else the refusal (or the store's failure).
  std::optional<core::Error> CountAnonymous(const core::HttpRequest& request);

  // RateLimit-Policy, RateLimit and the X-RateLimit-* headers of a counted request; `kind`
  // names the window (kNone: the client IP's).
  void AddHeaders(const identity::RateDecision& decision, identity::CredentialKind kind,
                  core::HttpResponse& response) const;

 private:
  identity::RateLimiter& credentials_;
  identity::RateLimiter& client_ips_;
  const core::CidrList& trusted_proxies_;
};

// AUTH_014 for a window that is used up, with `retryAfterSeconds`.
core::Error RateLimited(const identity::RateDecision& decision);

}  // namespace sightline::api
