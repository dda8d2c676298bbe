// The web assets compiled into the binary (cmake/embed_web_assets.cmake generates the table at
// build time from the built files: the tracking script now, the dashboard's hashed files next),
// so `sightline` serves them from wherever it runs, with nothing read from disk.
// Immutable after static initialization; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace sightline::api {

struct EmbeddedAsset {
  std::string_view path;          // the URL path it is served at: "/sdk/v1/script.js"
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view body;
  std::string_view gzip;    // the body gzip-compressed; empty when compression does not pay
  std::string_view sha384;  // the 48 raw digest bytes of `body`, for Subresource Integrity
  std::string_view etag;    // a strong entity tag, the digest's first 12 hex digits: "\"3f9a…\""
};

// Every embedded asset; paths are unique.
std::span<const EmbeddedAsset> EmbeddedAssets();

// The asset served at `path`, or null.
const EmbeddedAsset* FindEmbeddedAsset(std::string_view path);

}  // namespace sightline::api
