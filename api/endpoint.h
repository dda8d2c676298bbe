// An endpoint module behind the front door: the operations, MCP, OAuth, the server-rendered
// pages, the documents and static assets. The front door asks each, in order, whether it claims
// a path, and hands the request to the first that does.
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

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  // Whether this module answers `path` (the /api prefix already stripped).
  virtual bool Claims(std::string_view path) const = 0;
  // The answer when it is ready now; nullopt when the module finishes `exchange` itself, later
  // and from any thread (it keeps the exchange alive until then). Sets the exchange's route. The
  // request is valid only during the call. Exceptions are bugs: the front door answers SYS_001.
  virtual std::optional<core::HttpResponse> Serve(const core::HttpRequest& request,
                                                  std::string_view path,
                                                  const std::shared_ptr<Exchange>& exchange) = 0;
};

}  // namespace sightline::api
