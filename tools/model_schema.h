// How an operation's arguments look to a language model, for the two model-facing views of the
// registry (MCP tools and the agent assistant's tools): JSON Schema 2020-12 rather than
// OpenAPI 3.0, and without the organization and project, which the caller's credential or
// conversation fixes and the server fills in. Pure functions.
#pragma once

#include <boost/json/object.hpp>
#include <string_view>

namespace sightline::tools {

// Arguments bound server-side: never asked of the model.
inline constexpr std::string_view kBoundOrganizationArgument = "orgSlug";
inline constexpr std::string_view kBoundProjectArgument = "projectId";

// An OpenAPI 3.0 schema object as JSON Schema 2020-12 (what MCP clients validate with):
// `nullable` becomes a "null" member of `type` (and of `enum`); OpenAPI-only keywords go.
boost::json::object ToJsonSchema(const boost::json::object& openapi_schema);

// An operation's input schema as a model sees it: JSON Schema, the bound arguments removed,
// a root `type: object` with `properties`.
boost::json::object ModelInputSchema(const boost::json::object& input_schema);

}  // namespace sightline::tools
