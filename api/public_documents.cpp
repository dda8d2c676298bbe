#include "api/public_documents.h"

#include "api/http_methods.h"
#include "core/crypto.h"
#include "core/json_util.h"

namespace sightline::api {

using core::HttpRequest;
using core::HttpResponse;

RenderedDocument RenderJsonDocument(const boost::json::value& document, std::string content_type) {
  std::string body = core::ToJson(document);
  std::string etag = "\"" + core::Sha256Hex(body).substr(0, 32) + "\"";
  return RenderedDocument{std::move(body), std::move(etag), std::move(content_type)};
}

bool EtagMatches(std::string_view if_none_match, std::string_view etag) {
  // Weak comparison, as RFC 9110 prescribes for If-None-Match.
  std::size_t at = 0;
  while (at < if_none_match.size()) {
    std::size_t end = if_none_match.find(',', at);
    if (end == std::string_view::npos) end = if_none_match.size();
    std::string_view tag = if_none_match.substr(at, end - at);
    tag.remove_prefix(std::min(tag.find_first_not_of(" \t"), tag.size()));
    tag = tag.substr(0, tag.find_last_not_of(" \t") + 1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
    at = end + 1;
  }
  return false;
}

HttpResponse Document(const HttpRequest& request, const RenderedDocument& document) {
  HttpResponse response;
  AddCors(CorsPolicy::kPublic, std::nullopt, response);
  response.headers.Set("Cache-Control", "public, max-age=3600");
  response.headers.Set("ETag", document.etag);
  response.headers.Set("Vary", "Accept-Encoding");
  if (auto tags = request.headers.Get("If-None-Match"); tags && EtagMatches(*tags, document.etag)) {
    response.status = 304;
    return response;
  }
  response.headers.Set("Content-Type", document.content_type);
  response.body = document.body;
  return response;
}

}  // namespace sightline::api
