#include "core/json_util.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace sightline::core {

Result<boost::json::object> ParseJsonObject(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return boost::json::object();
  boost::system::error_code ec;
  boost::json::parse_options options;
  options.max_depth = 64;  // bounded recursion for hostile input
  boost::json::value value = boost::json::parse(body, ec, {}, options);
  if (ec) {
    boost::json::object details;
    details["reason"] = ec.message();
    return Error(ErrorCode::kValMalformedJson, "The request body is not valid JSON.",
                 std::move(details));
  }
  if (!value.is_object()) {
    return Error(ErrorCode::kValMalformedJson, "The request body must be a JSON object.");
  }
  return std::move(value.as_object());
}

std::string ToJson(const boost::json::value& value) { return boost::json::serialize(value); }

std::string StringField(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::optional<std::int64_t> IntegerField(const boost::json::object& object,
                                         std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value && value->is_int64()) return value->as_int64();
  if (value && value->is_uint64()) return static_cast<std::int64_t>(value->as_uint64());
  return std::nullopt;
}

const boost::json::object* ObjectField(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  return value ? value->if_object() : nullptr;
}

}  // namespace sightline::core
