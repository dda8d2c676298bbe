// The documents and static assets module: the OpenAPI documents (/openapi.json, /openapi.yaml;
// readable from any site, cacheable, 304 on a matching ETag), /healthz, and the one static-asset
// table (api/static_assets.h). Anonymous; nothing is read from the store.
// Thread-safe: everything it serves is rendered or built once.
#pragma once

#include "api/endpoint.h"
#include "api/openapi.h"
#include "api/static_assets.h"
#include "tools/registry.h"

namespace sightline::api {

class DocumentsEndpoint final : public Endpoint {
 public:
  // Renders the OpenAPI documents of `registry` now. The table's bytes must outlive the
  // endpoint.
  DocumentsEndpoint(const tools::Registry& registry, const OpenApiOptions& openapi,
                    StaticAssetTable assets);

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  std::optional<core::HttpResponse> ServeAsset(const core::HttpRequest& request,
                                               std::string_view path, Exchange& exchange);

  const OpenApiDocuments documents_;
  const StaticAssetTable assets_;
};

}  // namespace sightline::api
