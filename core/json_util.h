// JSON helpers shared by every layer (Boost.JSON).
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::core {

// Parses a request body that must be one JSON object. VAL_002 otherwise; an empty body is an
// empty object.
Result<boost::json::object> ParseJsonObject(std::string_view body);
std::string ToJson(const boost::json::value& value);  // numbers as people write them: see .cpp

// Lenient readers of documents other services wrote (language model replies): a missing or
// mistyped member reads as empty.
std::string StringField(const boost::json::object& object, std::string_view key);
std::optional<std::int64_t> IntegerField(const boost::json::object& object, std::string_view key);
const boost::json::object* ObjectField(const boost::json::object& object, std::string_view key);

}  // namespace sightline::core
