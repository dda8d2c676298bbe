// The server-rendered pages module: /account (api/account_page.h), same-origin, GET and HEAD.
// The OAuth consent pages belong to /oauth/authorize (api/authorize_endpoint.h).
// Stateless; thread-safe.
#pragma once

#include "api/endpoint.h"

namespace sightline::api {

class PagesEndpoint final : public Endpoint {
 public:
  bool Claims(std::string_view path) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, std::string_view path,
                                          const std::shared_ptr<Exchange>& exchange) override;
};

}  // namespace sightline::api
