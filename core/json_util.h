// JSON helpers shared by every layer (Boost.JSON).
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace sightline::core {

// Parses a request body that must be one JSON object. VAL_002 otherwise; an empty body is an
// empty object.
Result<boost::json::object> ParseJsonObject(std::string_view body);
std::string ToJson(const boost::json::value& value);

}  // namespace sightline::core
