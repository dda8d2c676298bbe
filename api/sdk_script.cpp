#include "api/sdk_script.h"

#include "api/public_documents.h"
#include "core/crypto.h"

#include <openssl/evp.h>

#include <fstream>
#include <sstream>

namespace sightline::api {
namespace {

std::string Sha384(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha384(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), size);
}

bool IsScriptPath(std::string_view path) {
  return path == kSdkScriptPath ||
         (path.starts_with("/sdk/v1/sightline-") && path.ends_with(".js"));
}

}  // namespace

core::Result<SdkScript> LoadSdkScript(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return core::Error(core::ErrorCode::kUnavailable,
                       "The tracking script is not built (" + path + "); script/bootstrap "
                       "installs esbuild and the build runs it.");
  }
  std::ostringstream content;
  content << file.rdbuf();
  SdkScript script;
  script.body = content.str();
  script.integrity = "sha384-" + core::Base64Encode(Sha384(script.body));
  const std::string hash = core::Sha256Hex(script.body).substr(0, 12);
  script.versioned_path = "/sdk/v1/sightline-" + hash + ".js";
  script.etag = "\"" + hash + "\"";
  return script;
}

std::optional<core::HttpResponse> ServeSdkScript(const core::HttpRequest& request,
                                                 std::string_view path,
                                                 const SdkScript* script) {
  if (!IsScriptPath(path)) return std::nullopt;
  if (request.method == core::HttpMethod::kOptions) return Preflight(request);
  const bool versioned = path != kSdkScriptPath;
  if (!script || (versioned && path != script->versioned_path)) return std::nullopt;  // 404
  if (request.method != core::HttpMethod::kGet && request.method != core::HttpMethod::kHead) {
    return std::nullopt;
  }
  core::HttpResponse response;
  AddPublicCors(response);
  response.headers.Set("Cache-Control", versioned ? "public, max-age=31536000, immutable"
                                                  : "public, max-age=3600");
  response.headers.Set("ETag", script->etag);
  response.headers.Set("X-Script-Integrity", script->integrity);
  response.headers.Set("X-Script-Versioned-Url", script->versioned_path);
  response.headers.Set("Access-Control-Expose-Headers",
                       "ETag, X-Request-Id, X-Script-Integrity, X-Script-Versioned-Url");
  if (auto tags = request.headers.Get("If-None-Match"); tags && EtagMatches(*tags, script->etag)) {
    response.status = 304;
    return response;
  }
  response.headers.Set("Content-Type", "text/javascript; charset=utf-8");
  response.body = script->body;
  return response;
}

}  // namespace sightline::api
