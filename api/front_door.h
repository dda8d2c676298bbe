// The server's HttpHandler: creates the exchange (request id, access log, finishing once),
// strips the /api prefix, hands the request to the first endpoint module that claims its path,
// turns an exception into SYS_001, and renders the transport's own failures. Knows no routes.
// Thread-safe: the endpoints it holds are (see api/endpoint.h).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "api/endpoint.h"
#include "core/clock.h"
#include "core/http_types.h"

namespace sightline::api {

class FrontDoor final : public core::HttpHandler {
 public:
  // `endpoints` are asked in order (the operations, which claim every path, last); each must
  // outlive the front door. A path none claims is REQ_001.
  FrontDoor(std::vector<Endpoint*> endpoints, const core::Clock& clock);

  void HandleAsync(const core::HttpRequest& request, core::Responder respond) override;
  core::HttpResponse RenderTransportError(int status, std::string_view reason) override;

 private:
  const std::vector<Endpoint*> endpoints_;
  const core::Clock& clock_;
};

// The API is served at the root and, for proxies that map it there, under /api as well.
std::string_view StripApiPrefix(std::string_view path);

}  // namespace sightline::api
