// The web assets compiled into the binary (cmake/embed_web_assets.cmake generates the table at
// build time from the built files: the tracking script, the dashboard's hashed files and the MCP
// Apps views),
// so `sightline` serves them from wherever it runs, with nothing read from disk.
// Immutable after static initialization; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace sightline::api {

struct EmbeddedAsset {
  // Where it is served: a path under /api ("/sdk/v1/script.js"), a path at the site's root
  // ("/assets/app-3HX2QZ.js", "/index.html"), or an MCP resource ("ui://sightline/reports.html").
  std::string_view path;
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view body;
  std::string_view gzip;    // the body gzip-compressed; empty when compression does not pay
  std::string_view brotli;  // brotli-compressed (built beside the file); empty when none
  std::string_view sha384;  // the 48 raw digest bytes of `body`, for Subresource Integrity
  std::string_view etag;    // a strong entity tag, the digest's first 12 hex digits: "\"3f9a…\""
};

// Every embedded asset; paths are unique.
std::span<const EmbeddedAsset> EmbeddedAssets();

// The asset served at `path`, or null.
const EmbeddedAsset* FindEmbeddedAsset(std::string_view path);

}  // namespace sightline::api
