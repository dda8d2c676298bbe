#include "api/dashboard_endpoint.h"

#include "api/exchange.h"
#include "api/http_methods.h"
#include "core/crypto.h"

namespace sightline::api {
namespace {

using core::HttpRequest;
using core::HttpResponse;

constexpr std::string_view kShellPath = "/index.html";
constexpr std::string_view kAssetsFolder = "/assets/";
constexpr std::string_view kWellKnown = "/.well-known/";
constexpr std::string_view kNoncePlaceholder = "__CSP_NONCE__";

// A hashed file never changes under its name; the other root files may, with a release.
constexpr std::string_view kImmutable = "public, max-age=31536000, immutable";
constexpr std::string_view kRootFileCaching = "public, max-age=3600";

PathMethods PageMethods() {
  PathMethods page = ReadOnlyMethods(CorsPolicy::kNone);
  page.refusal = "The dashboard answers GET here; the API is under /api.";
  return page;
}
const PathMethods kPageMethods = PageMethods();

// The site's files: every embedded asset whose path is at the root, but the shell.
StaticAssetTable SiteFiles() {
  StaticAssetTable table;
  table.folders.push_back({std::string(kAssetsFolder), "", "/assets/*",
                           "No such file; the dashboard may have been updated: reload it."});
  for (const EmbeddedAsset& asset : EmbeddedAssets()) {
    if (!asset.path.starts_with('/') || asset.path == kShellPath) continue;
    // The tracking script's row is served under /api (api/sdk_script.h).
    if (asset.path.starts_with("/sdk/")) continue;
    const bool hashed = asset.path.starts_with(kAssetsFolder);
    table.assets.push_back({std::string(asset.path), asset,
                            std::string(hashed ? kImmutable : kRootFileCaching), {}, false});
  }
  return table;
}

std::optional<std::string> Shell() {
  const EmbeddedAsset* shell = FindEmbeddedAsset(kShellPath);
  if (!shell) return std::nullopt;
  return std::string(shell->body);
}

HttpResponse ShellResponse(std::string_view shell) {
  const std::string nonce = core::Base64Encode(core::RandomBytes(16));
  HttpResponse response;
  response.headers.Set("Content-Type", "text/html; charset=utf-8");
  // Per response (the nonce), and the session lives in the browser, not in the page.
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("Content-Security-Policy", DashboardContentSecurityPolicy(nonce));
  response.headers.Set("X-Content-Type-Options", "nosniff");
  response.headers.Set("Referrer-Policy", "same-origin");
  response.headers.Set("Cross-Origin-Opener-Policy", "same-origin");
  response.body = WithNonce(shell, nonce);
  return response;
}

}  // namespace

std::string DashboardContentSecurityPolicy(std::string_view nonce) {
  const std::string n = "'nonce-" + std::string(nonce) + "'";
  return "default-src 'self'; script-src " + n + " 'strict-dynamic'; style-src 'self' " + n +
         "; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
         "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
}

std::string WithNonce(std::string_view shell, std::string_view nonce) {
  std::string out;
  out.reserve(shell.size() + 64);
  for (std::size_t at = 0;;) {
    const std::size_t found = shell.find(kNoncePlaceholder, at);
    out.append(shell.substr(at, found - at));
    if (found == std::string_view::npos) return out;
    out.append(nonce);
    at = found + kNoncePlaceholder.size();
  }
}

DashboardEndpoint::DashboardEndpoint() : files_(SiteFiles()), shell_(Shell()) {}

bool DashboardEndpoint::Claims(const Target& target) const {
  return !target.api && !target.path.starts_with(kWellKnown);
}

std::optional<HttpResponse> DashboardEndpoint::Serve(const HttpRequest& request,
                                                     const Target& target,
                                                     const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  const StaticAsset* file = files_.Find(path);
  const AssetFolder* folder = files_.FolderOf(path);
  // The exchange keeps a view until the access log line: views of the endpoint's own strings
  // (a conditional mixing them with a temporary std::string copied each into a temporary that
  // died at the semicolon: ASan, script/test).
  exchange->set_route(folder ? std::string_view(folder->route)
                      : file ? std::string_view(file->path)
                             : std::string_view("/*"));
  if (auto answered = AnswerMethod(request, kPageMethods, *exchange)) return answered;
  if (file) return ServeStaticAsset(request, *file);
  if (folder || !shell_) {
    return exchange->Fail(core::Error(
        core::ErrorCode::kRouteNotFound,
        folder ? folder->missing : std::string("This server was built without the dashboard.")));
  }
  return ShellResponse(*shell_);
}

}  // namespace sightline::api
