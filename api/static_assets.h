// The one table of static assets the server serves: per URL path the asset (content type,
// bytes, gzip form, strong ETag), its Cache-Control and extra headers, and whether other sites
// may read it; plus the folders the table owns, whose other paths answer 404 with a reason.
// The tracking script's two routes (api/sdk_script.h) make one table; the dashboard's hashed,
// precompressed files (api/embedded_assets.h) another (api/dashboard_endpoint.h).
// Serving: GET and HEAD, brotli or gzip to clients that accept it (each coding with its own
// ETag), 304 to a matching If-None-Match, `Vary: Accept-Encoding`. Immutable once built;
// thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/embedded_assets.h"
#include "core/http_types.h"

namespace sightline::api {

struct StaticAsset {
  std::string path;     // "/sdk/v1/script.js"
  EmbeddedAsset asset;  // views into bytes that outlive the table (its own `path` is not read)
  std::string cache_control;  // "public, max-age=3600"
  // Sent with every answer; exposed to other sites when `cross_origin`.
  std::vector<std::pair<std::string, std::string>> headers;
  bool cross_origin = false;  // readable from any site (CORS `*`), as Subresource Integrity needs
};

// The paths under `prefix` that end in `suffix` belong to the table; one it does not hold is
// REQ_001 with `missing` as the message.
struct AssetFolder {
  std::string prefix;  // "/sdk/v1/"
  std::string suffix;  // ".js"
  std::string route;   // what the access log names for every path in it: "/sdk/v1/script.js"
  std::string missing;
};

struct StaticAssetTable {
  std::vector<StaticAsset> assets;  // paths unique
  std::vector<AssetFolder> folders;

  // The row served at `path`, or null.
  const StaticAsset* Find(std::string_view path) const;
  // The folder `path` belongs to, or null.
  const AssetFolder* FolderOf(std::string_view path) const;
};

// The answer to a GET or HEAD of `asset`.
core::HttpResponse ServeStaticAsset(const core::HttpRequest& request, const StaticAsset& asset);

// Whether an Accept-Encoding list (RFC 9110 §12.5.3) admits `coding` ("gzip", "br"): named
// (x-gzip for gzip) or `*`, without q=0.
bool AcceptsCoding(std::string_view accept_encoding, std::string_view coding);
inline bool AcceptsGzip(std::string_view accept_encoding) {
  return AcceptsCoding(accept_encoding, "gzip");
}

}  // namespace sightline::api
