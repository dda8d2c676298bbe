#include "api/sdk_script.h"

#include "api/embedded_assets.h"
#include "api/public_documents.h"
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

bool IsScriptPath(std::string_view path) {
  return path == kSdkScriptPath ||
         (path.starts_with("/sdk/v1/sightline-") && path.ends_with(".js"));
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

// Whether an Accept-Encoding list (RFC 9110 §12.5.3) admits gzip: named or `*`, without q=0.
bool AcceptsGzip(std::string_view accept_encoding) {
  for (const std::string& item : core::SplitList(accept_encoding)) {
    const std::string entry = core::ToLowerAscii(item);
    const auto semicolon = entry.find(';');
    const std::string_view coding = core::TrimSpaces(std::string_view(entry).substr(0, semicolon));
    if (coding != "gzip" && coding != "x-gzip" && coding != "*") continue;
    if (semicolon == std::string::npos) return true;
    std::string params(entry.substr(semicolon + 1));
    std::erase(params, ' ');
    if (!params.starts_with("q=0") || params.find_first_of("123456789") != std::string::npos) {
      return true;
    }
  }
  return false;
}

void SetScriptHeaders(core::HttpResponse& response, const SdkScript& script, bool versioned) {
  AddPublicCors(response);
  response.headers.Set("Cache-Control", versioned ? "public, max-age=31536000, immutable"
                                                  : "public, max-age=3600");
  response.headers.Set("Vary", "Accept-Encoding");
  response.headers.Set("X-Script-Integrity", script.integrity);
  response.headers.Set("X-Script-Versioned-Url", script.versioned_path);
  response.headers.Set("Access-Control-Expose-Headers",
                       "ETag, X-Request-Id, X-Script-Integrity, X-Script-Versioned-Url");
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
  const auto accepted = request.headers.Get("Accept-Encoding");
  const bool gzip = !script->gzip.empty() && accepted && AcceptsGzip(*accepted);
  // Each content coding is its own representation, so it has its own strong validator.
  const std::string etag =
      gzip ? script->etag.substr(0, script->etag.size() - 1) + "-gzip\"" : script->etag;
  core::HttpResponse response;
  SetScriptHeaders(response, *script, versioned);
  response.headers.Set("ETag", etag);
  if (auto tags = request.headers.Get("If-None-Match"); tags && EtagMatches(*tags, etag)) {
    response.status = 304;
    return response;
  }
  response.headers.Set("Content-Type", "text/javascript; charset=utf-8");
  if (gzip) response.headers.Set("Content-Encoding", "gzip");
  response.body = gzip ? script->gzip : script->body;
  return response;
}

}  // namespace sightline::api
