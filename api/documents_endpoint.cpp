#include "api/documents_endpoint.h"

#include <boost/json/value.hpp>

#include "api/exchange.h"
#include "api/http_methods.h"
#include "api/public_documents.h"
#include "core/json_util.h"

namespace sightline::api {
namespace {

using core::HttpRequest;
using core::HttpResponse;

constexpr std::string_view kOpenApiJson = "/openapi.json";
constexpr std::string_view kOpenApiYaml = "/openapi.yaml";
constexpr std::string_view kHealth = "/healthz";

const PathMethods kDocumentMethods = ReadOnlyMethods(CorsPolicy::kPublic);
const PathMethods kHealthMethods = ReadOnlyMethods(CorsPolicy::kNone);

HttpResponse Health() {
  HttpResponse response;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  response.body = core::ToJson(boost::json::object{{"status", "ok"}});
  return response;
}

}  // namespace

DocumentsEndpoint::DocumentsEndpoint(const tools::Registry& registry, const OpenApiOptions& openapi,
                                     StaticAssetTable assets)
    : documents_(RenderOpenApi(registry, openapi)), assets_(std::move(assets)) {}

bool DocumentsEndpoint::Claims(const Target& target) const {
  if (!target.api) return false;
  const std::string_view path = target.path;
  return path == kOpenApiJson || path == kOpenApiYaml || path == kHealth || assets_.Find(path) ||
         assets_.FolderOf(path);
}

std::optional<HttpResponse> DocumentsEndpoint::Serve(const HttpRequest& request,
                                                     const Target& target,
                                                     const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  if (path == kHealth) {
    exchange->set_route(kHealth);
    if (auto answered = AnswerMethod(request, kHealthMethods, *exchange)) return answered;
    return Health();
  }
  if (path != kOpenApiJson && path != kOpenApiYaml) return ServeAsset(request, path, *exchange);
  const bool json = path == kOpenApiJson;
  exchange->set_route(json ? kOpenApiJson : kOpenApiYaml);
  if (auto answered = AnswerMethod(request, kDocumentMethods, *exchange)) return answered;
  return Document(request, json ? documents_.json : documents_.yaml);
}

std::optional<HttpResponse> DocumentsEndpoint::ServeAsset(const HttpRequest& request,
                                                          std::string_view path,
                                                          Exchange& exchange) {
  const StaticAsset* asset = assets_.Find(path);
  const AssetFolder* folder = assets_.FolderOf(path);
  exchange.set_route(folder ? std::string_view(folder->route) : std::string_view(asset->path));
  if (!asset) {
    return exchange.Fail(core::Error(
        core::ErrorCode::kRouteNotFound,
        folder ? folder->missing : std::string("No operation is served at this path.")));
  }
  // A method an asset does not serve is 405 naming the ones it does, as everywhere else.
  if (auto answered = AnswerMethod(request, kDocumentMethods, exchange)) return answered;
  return ServeStaticAsset(request, *asset);
}

}  // namespace sightline::api
