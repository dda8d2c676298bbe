// The outbound HTTP(S) client behind core::HttpClient (language model providers): one
// connection per request, run on the calling thread's own io_context so that a blocked
// provider holds only the thread that asked. Host names go through the server's bounded
// resolver (c-ares) when given. TLS verifies the peer against the system's CAs and `ca_file`.
#pragma once

#include <memory>
#include <string>

#include "core/http_client.h"
#include "detection/reverse_dns.h"

namespace sightline::net {

struct HttpClientOptions {
  std::string ca_file;  // extra trusted CA certificates (PEM)
  detection::DnsResolver* resolver = nullptr;
  std::string user_agent = "Sightline";
};

class BeastHttpClient final : public core::HttpClient {
 public:
  // Throws when `ca_file` cannot be read.
  explicit BeastHttpClient(HttpClientOptions options);
  ~BeastHttpClient() override;
  core::Result<core::OutboundResponse> Send(const core::OutboundRequest& request,
                                            const core::OutboundLimits& limits,
                                            const core::BodyCallback& on_body,
                                            const std::function<bool()>& cancelled) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sightline::net
