// Outbound HTTP requests whose answer streams in (a language model's reply) or that a command
// of the CLI makes, for layers that must not know the transport; implemented by net
// over Beast and OpenSSL. The destination is operator or user configuration, not a visitor's
// input, so any address is allowed unless the limits say `public_only`.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/http_types.h"
#include "core/result.h"

namespace sightline::core {

struct OutboundRequest {
  std::string url;  // http:// or https://
  HttpHeaders headers;
  std::string body;
  HttpMethod method = HttpMethod::kPost;
};

struct OutboundLimits {
  std::chrono::milliseconds connect_timeout{10000};  // resolve, connect and TLS handshake
  std::chrono::milliseconds idle_timeout{60000};     // longest silence while reading the answer
  std::chrono::milliseconds total_timeout{300000};   // the whole exchange
  std::size_t max_body_bytes = 16 * 1024 * 1024;
  // Connect only to global addresses (core::IpAddress::IsGlobal), checked on the resolved
  // address itself: for destinations a project member chose (an AI-visibility engine's base
  // URL), not the operator (SSRF).
  bool public_only = false;
};

struct OutboundResponse {
  int status = 0;
  HttpHeaders headers;
};

using BodyCallback = std::function<void(const OutboundResponse& head, std::string_view bytes)>;

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Sends `request` and blocks the calling thread until the answer has been read: `on_body`
  // gets the status and headers with each piece of the body as it arrives. Gives
  // up, closing the connection, when `cancelled()` turns true (asked every 100 ms) or a limit
  // is passed. Errors: SYS_002 naming what failed (connect, TLS, timeout, cancelled).
  virtual Result<OutboundResponse> Send(const OutboundRequest& request,
                                        const OutboundLimits& limits, const BodyCallback& on_body,
                                        const std::function<bool()>& cancelled) = 0;
};

}  // namespace sightline::core
