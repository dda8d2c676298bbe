#include "tools/model_schema.h"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

namespace sightline::tools {
namespace {

namespace json = boost::json;

json::value ConvertSchemaValue(const json::value& value) {
  return value.is_object() ? json::value(ToJsonSchema(value.as_object())) : value;
}

}  // namespace

json::object ModelInputSchema(const json::object& input) {
  json::object schema = ToJsonSchema(input);
  schema["type"] = "object";
  if (json::value* properties = schema.if_contains("properties")) {
    properties->as_object().erase(kBoundOrganizationArgument);
    properties->as_object().erase(kBoundProjectArgument);
  } else {
    schema["properties"] = json::object();
  }
  if (json::value* required = schema.if_contains("required")) {
    json::array kept;
    for (const json::value& name : required->as_array()) {
      const bool bound = name.is_string() && (name.as_string() == kBoundOrganizationArgument ||
                                              name.as_string() == kBoundProjectArgument);
      if (!bound) kept.push_back(name);
    }
    if (kept.empty()) {
      schema.erase("required");
    } else {
      *required = std::move(kept);
    }
  }
  return schema;
}

json::object ToJsonSchema(const json::object& openapi) {
  json::object schema;
  for (const auto& [key, value] : openapi) {
    if (key == "nullable" || key == "example") continue;
    if (key == "properties" && value.is_object()) {
      json::object properties;
      for (const auto& [name, property] : value.as_object()) {
        properties[name] = ConvertSchemaValue(property);
      }
      schema[key] = std::move(properties);
    } else if (key == "items" || key == "additionalProperties") {
      schema[key] = ConvertSchemaValue(value);
    } else {
      schema[key] = value;
    }
  }
  const json::value* nullable = openapi.if_contains("nullable");
  if (nullable && nullable->is_bool() && nullable->as_bool()) {
    if (json::value* type = schema.if_contains("type"); type && type->is_string()) {
      *type = json::array{*type, "null"};
    }
    if (json::value* values = schema.if_contains("enum"); values && values->is_array()) {
      auto& list = values->as_array();
      if (std::find(list.begin(), list.end(), json::value(nullptr)) == list.end()) {
        list.push_back(nullptr);
      }
    }
  }
  return schema;
}

}  // namespace sightline::tools
