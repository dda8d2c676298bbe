// Generates the OpenAPI 3.0 document from the registry, and keeps its two renderings (JSON and
// YAML) with their strong ETags. Built once at start-up.
#pragma once

#include "tools/registry.h"

#include <boost/json/value.hpp>

#include <string>

namespace sightline::api {

struct OpenApiOptions {
  std::string server_url = "http://127.0.0.1:8080";  // the API base users call
};

boost::json::value BuildOpenApi(const tools::Registry& registry, const OpenApiOptions& options);

struct RenderedDocument {
  std::string body;
  std::string etag;  // strong: "\"<sha-256 prefix of body>\""
  std::string content_type;
};

struct OpenApiDocuments {
  RenderedDocument json;
  RenderedDocument yaml;
};

OpenApiDocuments RenderOpenApi(const tools::Registry& registry, const OpenApiOptions& options);

}  // namespace sightline::api
