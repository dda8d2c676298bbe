// An endpoint module behind the front door: the operations, MCP, OAuth, the documents and static
// assets, the dashboard. The front door asks each, in order, whether it claims a request's
// target, and hands the request to the first that does.
//
// Thread-safety: implementations are called from several threads at once (one call per
// request); whatever they share must be immutable or synchronized.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "core/http_types.h"

namespace sightline::api {

class Exchange;

// The API base under the site's root: the spec's `{base_url}` is `https://<host>/api`.
inline constexpr std::string_view kApiBase = "/api";

// Where a request points. The REST API, its documents, MCP, OAuth, ingestion and the tracking
// script are under /api, and their paths are written relative to it, as the spec writes them
// ("/mcp", "/sdk/v1/logs"); the dashboard and the /.well-known documents are at the root.
struct Target {
  bool api = false;       // under /api
  std::string_view path;  // relative to /api when `api`, else the whole path ("/" at least)
};
// "/api/mcp" → {true, "/mcp"}; "/api" → {true, "/"}; "/apis" or "/" → {false, path}.
Target TargetOf(std::string_view request_path);

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  // Whether this module answers `target`.
  virtual bool Claims(const Target& target) const = 0;
  // The answer when it is ready now; nullopt when the module finishes `exchange` itself, later
  // and from any thread (it keeps the exchange alive until then). Sets the exchange's route. The
  // request is valid only during the call. Exceptions are bugs: the front door answers SYS_001.
  virtual std::optional<core::HttpResponse> Serve(const core::HttpRequest& request,
                                                  const Target& target,
                                                  const std::shared_ptr<Exchange>& exchange) = 0;
};

}  // namespace sightline::api
