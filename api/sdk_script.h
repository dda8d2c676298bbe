// The browser tracking script the server serves (built from web/sdk by esbuild): at
// /sdk/v1/script.js, cached for an hour, and at a versioned URL named by its content
// (/sdk/v1/sightline-<hash>.js), cached for a year as immutable, for pages that pin it with
// Subresource Integrity. Both are readable from any origin (CORS), as SRI needs.
#pragma once

#include "core/http_types.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace sightline::api {

struct SdkScript {
  std::string body;
  std::string integrity;       // "sha384-<base64>", for <script integrity="…">
  std::string versioned_path;  // "/sdk/v1/sightline-<12 hex>.js"
  std::string etag;
};

// Reads the built script; SYS_002 naming the path when it is missing.
core::Result<SdkScript> LoadSdkScript(const std::string& path);

// The answer for `path` when it is one of the script's routes, else nullopt. Without a script
// (not built), its routes answer 404 with the reason.
std::optional<core::HttpResponse> ServeSdkScript(const core::HttpRequest& request,
                                                 std::string_view path,
                                                 const SdkScript* script);
inline constexpr std::string_view kSdkScriptPath = "/sdk/v1/script.js";

}  // namespace sightline::api
