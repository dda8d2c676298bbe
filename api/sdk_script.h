// The browser tracking script the server serves (built from web/sdk by esbuild and compiled
// into the binary, see api/embedded_assets.h): at /sdk/v1/script.js, cached for an hour, and at
// a versioned URL named by its content (/sdk/v1/sightline-<hash>.js), cached for a year as
// immutable, for pages that pin it with Subresource Integrity. Both are rows of the static-asset
// table (api/static_assets.h): readable from any origin (CORS), as SRI needs, and sent
// gzip-compressed to clients that accept it. Values; thread-safe once built.
#pragma once

#include "api/static_assets.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace sightline::api {

struct SdkScript {
  std::string body;
  std::string gzip;            // `body` gzip-compressed; empty when that would not be smaller
  std::string integrity;       // "sha384-<base64>", for <script integrity="…">
  std::string versioned_path;  // "/sdk/v1/sightline-<12 hex>.js", under /api
  std::string etag;
};

// Under /api, as every path of the API.
inline constexpr std::string_view kSdkScriptPath = "/sdk/v1/script.js";
// The same SDK as an ES module (`import { createSightline } from ".../sightline.esm.js"`), for
// pages that load modules; always the build's own (docs/sdk.md).
inline constexpr std::string_view kSdkModulePath = "/sdk/v1/sightline.esm.js";

// The script compiled into the binary; SYS_002 when the build embedded none.
core::Result<SdkScript> EmbeddedSdkScript();

// Reads a built script from disk instead (`--sdk-script`: trying another build of the SDK
// without rebuilding the server); SYS_002 naming the path when it is missing.
core::Result<SdkScript> LoadSdkScript(const std::string& path);

// Adds the script's two routes to `table`, and its folder (/sdk/v1/*.js), whose other paths
// answer 404 with the reason (also when `script` is null: not built). `script` must outlive
// the table.
void AddSdkScript(const SdkScript* script, StaticAssetTable& table);

}  // namespace sightline::api
