#include "api/static_assets.h"

#include <algorithm>

#include "api/http_methods.h"
#include "api/public_documents.h"
#include "core/text.h"

namespace sightline::api {
namespace {

// The browser reads the validator and the request id of a cross-origin asset, and its extra
// headers (the script's integrity and versioned URL).
void SetAssetHeaders(const StaticAsset& asset, core::HttpResponse& response) {
  if (asset.cross_origin) AddCors(CorsPolicy::kPublic, std::nullopt, response);
  response.headers.Set("Cache-Control", asset.cache_control);
  response.headers.Set("Vary", "Accept-Encoding");
  std::string exposed = "ETag, X-Request-Id";
  for (const auto& [name, value] : asset.headers) {
    response.headers.Set(name, value);
    exposed += ", " + name;
  }
  if (asset.cross_origin) response.headers.Set("Access-Control-Expose-Headers", exposed);
}

}  // namespace

const StaticAsset* StaticAssetTable::Find(std::string_view path) const {
  const auto it = std::find_if(assets.begin(), assets.end(),
                               [&](const StaticAsset& asset) { return asset.path == path; });
  return it == assets.end() ? nullptr : &*it;
}

const AssetFolder* StaticAssetTable::FolderOf(std::string_view path) const {
  const auto it = std::find_if(folders.begin(), folders.end(), [&](const AssetFolder& folder) {
    return path.starts_with(folder.prefix) && path.ends_with(folder.suffix);
  });
  return it == folders.end() ? nullptr : &*it;
}

bool AcceptsCoding(std::string_view accept_encoding, std::string_view wanted) {
  for (const std::string& item : core::SplitList(accept_encoding)) {
    const std::string entry = core::ToLowerAscii(item);
    const auto semicolon = entry.find(';');
    const std::string_view coding = core::TrimSpaces(std::string_view(entry).substr(0, semicolon));
    const bool named = coding == wanted || (wanted == "gzip" && coding == "x-gzip");
    if (!named && coding != "*") continue;
    if (semicolon == std::string::npos) return true;
    std::string params(entry.substr(semicolon + 1));
    std::erase(params, ' ');
    if (!params.starts_with("q=0") || params.find_first_of("123456789") != std::string::npos) {
      return true;
    }
  }
  return false;
}

core::HttpResponse ServeStaticAsset(const core::HttpRequest& request, const StaticAsset& asset) {
  const EmbeddedAsset& bytes = asset.asset;
  const std::string_view accepted = request.headers.Get("Accept-Encoding").value_or("");
  // Brotli when the client takes it (smaller), else gzip, else the bytes as they are.
  std::string_view coding;
  std::string_view body = bytes.body;
  if (!bytes.brotli.empty() && AcceptsCoding(accepted, "br")) {
    coding = "br";
    body = bytes.brotli;
  } else if (!bytes.gzip.empty() && AcceptsCoding(accepted, "gzip")) {
    coding = "gzip";
    body = bytes.gzip;
  }
  // Each content coding is its own representation, so it has its own strong validator.
  const std::string etag =
      coding.empty() ? std::string(bytes.etag)
                     : std::string(bytes.etag.substr(0, bytes.etag.size() - 1)) + "-" +
                           std::string(coding) + "\"";
  core::HttpResponse response;
  SetAssetHeaders(asset, response);
  response.headers.Set("ETag", etag);
  if (auto tags = request.headers.Get("If-None-Match"); tags && EtagMatches(*tags, etag)) {
    response.status = 304;
    return response;
  }
  response.headers.Set("Content-Type", std::string(bytes.content_type));
  if (!coding.empty()) response.headers.Set("Content-Encoding", std::string(coding));
  response.body = std::string(body);
  return response;
}

}  // namespace sightline::api
