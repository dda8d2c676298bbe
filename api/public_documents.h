// The documents every browser may read (the OpenAPI documents, MCP's and OAuth's discovery
// documents): rendered once with a strong ETag, served cacheable with 304 on a match and the
// public CORS headers (api/http_methods.h). Pure functions; thread-safe.
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
// The document, or 304 when If-None-Match matches its ETag.
core::HttpResponse Document(const core::HttpRequest& request, const RenderedDocument& document);

}  // namespace sightline::api
