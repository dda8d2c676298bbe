// The dashboard module: every path at the site's root except /.well-known/* (the API is under
// /api). Its hashed files under /assets/ (and the few root files the build emits, such as
// /favicon.svg) come from the embedded assets, precompressed, with immutable caching; any other
// GET is the application's shell, index.html, which routes in the browser. The shell is sent
// with a fresh CSP nonce each time: its scripts and styles carry it, and `'strict-dynamic'` lets
// the scripts they load run, so nothing inline or from another site can.
// Immutable once built; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "api/endpoint.h"
#include "api/static_assets.h"

namespace sightline::api {

class DashboardEndpoint final : public Endpoint {
 public:
  // From the embedded assets; a build without the dashboard answers its paths with 404.
  DashboardEndpoint();

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  StaticAssetTable files_;                // /assets/* and the root files besides the shell
  std::optional<std::string> shell_;      // index.html, its nonce placeholder still in it
};

// The Content-Security-Policy of a shell whose scripts and styles carry `nonce`.
std::string DashboardContentSecurityPolicy(std::string_view nonce);

// The shell with every nonce placeholder (`__CSP_NONCE__`) replaced by `nonce`.
std::string WithNonce(std::string_view shell, std::string_view nonce);

}  // namespace sightline::api
