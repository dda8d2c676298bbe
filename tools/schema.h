// A validator for the JSON Schema subset the registry uses (OpenAPI 3.0 schema objects):
// type (object, array, string, integer, number, boolean), nullable, properties, required,
// items, enum, minLength/maxLength, minimum/maximum, minItems/maxItems, and format
// (uuid, date, date-time, email); and a schema of only a `description`, which takes any value
// (the operation checks it: `query`'s date range and nested filters). Unknown properties are accepted and ignored, as the API's
// versioning rules require. Thread-safe (pure functions).
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace sightline::tools {

// Checks `value` against `schema`; the error is VAL_003 with `details.field` set to the path of
// the offending member ("name", "tags.color", "events[3].event").
core::Result<void> Validate(const boost::json::object& schema, const boost::json::value& value,
                            const std::string& path = "");

// Converts a path or query string to the type its schema declares (integer, number, boolean;
// strings stay strings). VAL_003 naming `field` when it does not convert.
core::Result<boost::json::value> CoerceFromString(const boost::json::object& schema,
                                                  std::string_view field, std::string_view text);

// Whether a schema is well formed for the subset above (used by the registry test).
core::Result<void> CheckSchema(const boost::json::object& schema, const std::string& path = "");

bool IsIsoDate(std::string_view text);  // YYYY-MM-DD, a real calendar date

}  // namespace sightline::tools
