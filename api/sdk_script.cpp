#include "api/sdk_script.h"

#include "api/embedded_assets.h"
#include "api/endpoint.h"
#include "core/compression.h"
#include "core/crypto.h"
#include "core/text.h"

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

// The URL and cache validator are named by the digest, as cmake/embed_web_assets.cmake names
// an embedded asset's ETag, so a script read from disk and the same one embedded agree.
SdkScript ScriptFrom(std::string body, std::string gzip, std::string_view sha384) {
  SdkScript script;
  script.body = std::move(body);
  script.gzip = std::move(gzip);
  script.integrity = "sha384-" + core::Base64Encode(sha384);
  const std::string hash = core::HexEncode(sha384).substr(0, 12);
  script.versioned_path = "/sdk/v1/sightline-" + hash + ".js";
  script.etag = "\"" + hash + "\"";
  return script;
}

}  // namespace

core::Result<SdkScript> EmbeddedSdkScript() {
  const EmbeddedAsset* asset = FindEmbeddedAsset(kSdkScriptPath);
  if (!asset) {
    return core::Error(core::ErrorCode::kUnavailable,
                       "This build embeds no tracking script (web/sdk was not built).");
  }
  return ScriptFrom(std::string(asset->body), std::string(asset->gzip), asset->sha384);
}

core::Result<SdkScript> LoadSdkScript(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return core::Error(core::ErrorCode::kUnavailable,
                       "The tracking script is not built (" + path + "); script/bootstrap "
                       "installs esbuild and the build runs it.");
  }
  std::ostringstream content;
  content << file.rdbuf();
  std::string body = content.str();
  std::string gzip = core::Gzip(body);
  if (gzip.size() >= body.size()) gzip.clear();
  const std::string digest = Sha384(body);
  return ScriptFrom(std::move(body), std::move(gzip), digest);
}

void AddSdkScript(const SdkScript* script, StaticAssetTable& table) {
  table.folders.push_back({"/sdk/v1/", ".js", std::string(kSdkScriptPath),
                           script ? "No such script version; use /api/sdk/v1/script.js."
                                  : "The tracking script was not built on this server."});
  if (const EmbeddedAsset* module = FindEmbeddedAsset(kSdkModulePath)) {
    table.assets.push_back({std::string(kSdkModulePath), *module, "public, max-age=3600", {}, true});
  }
  if (!script) return;
  const EmbeddedAsset bytes{.path = kSdkScriptPath,
                            .content_type = "text/javascript; charset=utf-8",
                            .body = script->body,
                            .gzip = script->gzip,
                            .etag = script->etag};
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"X-Script-Integrity", script->integrity},
      {"X-Script-Versioned-Url", std::string(kApiBase) + script->versioned_path}};
  table.assets.push_back(
      {std::string(kSdkScriptPath), bytes, "public, max-age=3600", headers, true});
  table.assets.push_back(
      {script->versioned_path, bytes, "public, max-age=31536000, immutable", headers, true});
}

}  // namespace sightline::api
