// The server's HttpHandler: creates the exchange (request id, access log, finishing once),
// finds where the request points (api/endpoint.h Target), hands it to the first endpoint module
// that claims it,
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
  // `endpoints` are asked in order (the operations, which claim every API path, and the
  // dashboard, which claims every other, last); each must outlive the front door. A target none
  // claims is REQ_001.
  FrontDoor(std::vector<Endpoint*> endpoints, const core::Clock& clock);

  void HandleAsync(const core::HttpRequest& request, core::Responder respond) override;
  core::HttpResponse RenderTransportError(int status, std::string_view reason) override;

 private:
  const std::vector<Endpoint*> endpoints_;
  const core::Clock& clock_;
};

}  // namespace sightline::api
