// The responses every browser may read: the OpenAPI documents (cacheable, ETag, 304) and the
// CORS answers of the public routes (/openapi.*, /sdk/v1/*). Pure functions; thread-safe.
#pragma once

#include "api/openapi.h"
#include "core/http_types.h"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace sightline::api {

// A JSON document with its strong ETag.
RenderedDocument RenderJsonDocument(const boost::json::value& document,
                                    std::string content_type = "application/json");

// Weak comparison of an If-None-Match list (with `*`) against an entity tag, as RFC 9110 says.
bool EtagMatches(std::string_view if_none_match, std::string_view etag);
void AddPublicCors(core::HttpResponse& response);
// A CORS preflight answer for the OpenAPI documents (GET, HEAD) …
core::HttpResponse Preflight(const core::HttpRequest& request);
// … and for the SDK routes (POST), which browsers call from any site with an SDK key.
core::HttpResponse SdkPreflight(const core::HttpRequest& request);
// The document, or 304 when If-None-Match matches its ETag.
core::HttpResponse Document(const core::HttpRequest& request, const RenderedDocument& document);

}  // namespace sightline::api
