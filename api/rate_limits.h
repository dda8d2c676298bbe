// What the HTTP adapters add to the gate's rate limits (tools/gate.h, which counts every
// window): the client's address behind trusted proxies, the RateLimit headers of a counted
// request, and the per-IP refusal of OAuth's anonymous endpoints. Thread-safe.
#pragma once

#include <optional>
#include <string>

#include "core/error.h"
#include "core/http_types.h"
#include "core/ip_address.h"
#include "tools/gate.h"

namespace sightline::api {

class RateLimits {
 public:
  // Both must outlive this object.
  RateLimits(tools::Gate& gate, const core::CidrList& trusted_proxies)
      : gate_(gate), trusted_proxies_(trusted_proxies) {}

  // The client's address: the socket's, or what a trusted proxy says.
  std::string ClientIp(const core::HttpRequest& request) const;
  // Counts an anonymous protocol request (OAuth's) in its client IP's window: nullopt when
  // allowed, else the refusal (or the store's failure).
  std::optional<core::Error> CountAnonymous(const core::HttpRequest& request);

  // RateLimit-Policy, RateLimit and the X-RateLimit-* headers of a counted call (a refusal's
  // Retry-After comes with its ErrorResponse).
  void AddHeaders(const tools::Window& window, core::HttpResponse& response) const;

 private:
  tools::Gate& gate_;
  const core::CidrList& trusted_proxies_;
};

}  // namespace sightline::api
