#include "tools/schema.h"

#include "core/crypto.h"
#include "core/json_util.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::array<std::string_view, 6> kTypes = {"object", "array",  "string",
                                                    "integer", "number", "boolean"};
constexpr std::array<std::string_view, 4> kFormats = {"uuid", "date", "date-time", "email"};

std::string Child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string_view TypeOf(const json::object& schema) {
  const json::value* type = schema.if_contains("type");
  return type && type->is_string() ? std::string_view(type->as_string()) : std::string_view();
}

std::string FieldName(const std::string& path) { return path.empty() ? "body" : path; }

Error Mismatch(const std::string& path, std::string_view expected) {
  return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must be " +
                                             std::string(expected) + ".");
}

bool MatchesType(std::string_view type, const json::value& value) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_bool();
  if (type == "integer") {
    if (value.is_int64() || value.is_uint64()) return true;
    return value.is_double() && std::trunc(value.as_double()) == value.as_double();
  }
  if (type == "number") return value.is_number();
  return true;  // no type constraint
}

std::string_view Article(std::string_view type) {
  return type == "object" || type == "array" || type == "integer" ? "an " : "a ";
}

// Two digits at `at` within [0, max].
bool TwoDigits(std::string_view s, std::size_t at, int max) {
  if (at + 2 > s.size() || !std::isdigit(static_cast<unsigned char>(s[at])) ||
      !std::isdigit(static_cast<unsigned char>(s[at + 1]))) {
    return false;
  }
  return (s[at] - '0') * 10 + (s[at + 1] - '0') <= max;
}

// RFC 3339 date-time: 2026-11-22T10:04:05(.fraction)?(Z|±hh:mm); 60 seconds for leap seconds.
bool IsValidDateTime(std::string_view s) {
  if (s.size() < 20 || !IsIsoDate(s.substr(0, 10)) || (s[10] != 'T' && s[10] != 't')) {
    return false;
  }
  if (!TwoDigits(s, 11, 23) || s[13] != ':' || !TwoDigits(s, 14, 59) || s[16] != ':' ||
      !TwoDigits(s, 17, 60)) {
    return false;
  }
  std::size_t at = 19;
  if (s[at] == '.') {
    const std::size_t digits = s.find_first_not_of("0123456789", at + 1);
    if (digits == at + 1 || digits == std::string_view::npos) return false;
    at = digits;
  }
  const std::string_view zone = s.substr(at);
  if (zone == "Z" || zone == "z") return true;
  return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && TwoDigits(zone, 1, 23) &&
         zone[3] == ':' && TwoDigits(zone, 4, 59);
}

Result<void> CheckFormat(std::string_view format, std::string_view text, const std::string& path) {
  bool ok = true;
  if (format == "uuid") ok = core::IsUuid(text);
  else if (format == "date") ok = IsIsoDate(text);
  else if (format == "date-time") ok = IsValidDateTime(text);
  else if (format == "email") ok = text.find('@') != std::string_view::npos && text.size() <= 254;
  if (ok) return {};
  return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must be a valid " +
                                             std::string(format) + ".");
}

Result<void> CheckString(const json::object& schema, std::string_view text,
                         const std::string& path) {
  // Lengths count Unicode code points, not bytes.
  std::size_t length = 0;
  for (unsigned char c : text) length += (c & 0xC0) != 0x80;
  if (auto min = schema.if_contains("minLength"); min && length < min->to_number<std::size_t>()) {
    return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must be at least " +
                                               core::ToJson(*min) + " characters long.");
  }
  if (auto max = schema.if_contains("maxLength"); max && length > max->to_number<std::size_t>()) {
    return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must be at most " +
                                               core::ToJson(*max) + " characters long.");
  }
  if (auto format = schema.if_contains("format"); format && format->is_string()) {
    return CheckFormat(format->as_string(), text, path);
  }
  return {};
}

Result<void> CheckNumber(const json::object& schema, double number, const std::string& path) {
  if (auto min = schema.if_contains("minimum"); min && number < min->to_number<double>()) {
    return Error::Invalid(FieldName(path),
                          "'" + FieldName(path) + "' must be at least " + core::ToJson(*min) + ".");
  }
  if (auto max = schema.if_contains("maximum"); max && number > max->to_number<double>()) {
    return Error::Invalid(FieldName(path),
                          "'" + FieldName(path) + "' must be at most " + core::ToJson(*max) + ".");
  }
  return {};
}

Result<void> CheckEnum(const json::object& schema, const json::value& value,
                       const std::string& path) {
  const json::value* options = schema.if_contains("enum");
  if (!options) return {};
  for (const auto& option : options->as_array()) {
    if (option == value) return {};
  }
  Error error = Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must be one of " +
                                                    core::ToJson(*options) + ".");
  error.mutable_details()["value"] = value;
  return error;
}

Result<void> CheckObject(const json::object& schema, const json::object& object,
                         const std::string& path) {
  if (auto required = schema.if_contains("required")) {
    for (const auto& name : required->as_array()) {
      if (!object.contains(name.as_string())) {
        const std::string field = Child(path, name.as_string());
        return Error::Invalid(field, "'" + field + "' is required.");
      }
    }
  }
  const json::value* properties = schema.if_contains("properties");
  if (!properties) return {};
  for (const auto& [name, member] : object) {
    const json::value* property = properties->as_object().if_contains(name);
    if (!property) continue;  // unknown members are ignored (additive API evolution)
    auto checked = Validate(property->as_object(), member, Child(path, name));
    if (!checked) return checked;
  }
  return {};
}

Result<void> CheckArray(const json::object& schema, const json::array& array,
                        const std::string& path) {
  if (auto min = schema.if_contains("minItems"); min && array.size() < min->to_number<std::size_t>()) {
    return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must have at least " +
                                               core::ToJson(*min) + " items.");
  }
  if (auto max = schema.if_contains("maxItems"); max && array.size() > max->to_number<std::size_t>()) {
    return Error::Invalid(FieldName(path), "'" + FieldName(path) + "' must have at most " +
                                               core::ToJson(*max) + " items.");
  }
  const json::value* items = schema.if_contains("items");
  if (!items) return {};
  for (std::size_t i = 0; i < array.size(); ++i) {
    auto checked = Validate(items->as_object(), array[i], path + "[" + std::to_string(i) + "]");
    if (!checked) return checked;
  }
  return {};
}

}  // namespace

bool IsIsoDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  int year = 0;
  int month = 0;
  int day = 0;
  auto parse = [&](std::size_t at, std::size_t len, int& out) {
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + at + len, out);
    return ec == std::errc() && p == s.data() + at + len;
  };
  if (!parse(0, 4, year) || !parse(5, 2, month) || !parse(8, 2, day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int max_day = kDays[static_cast<std::size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
  return day <= max_day;
}

Result<void> Validate(const json::object& schema, const json::value& value,
                      const std::string& path) {
  if (value.is_null()) {
    const json::value* nullable = schema.if_contains("nullable");
    if (nullable && nullable->is_bool() && nullable->as_bool()) return {};
  }
  const std::string_view type = TypeOf(schema);
  if (!type.empty() && !MatchesType(type, value)) {
    return Mismatch(path, std::string(Article(type)) + std::string(type));
  }
  auto in_enum = CheckEnum(schema, value, path);
  if (!in_enum) return in_enum;
  if (value.is_string()) return CheckString(schema, value.as_string(), path);
  if (value.is_number()) return CheckNumber(schema, value.to_number<double>(), path);
  if (value.is_object()) return CheckObject(schema, value.as_object(), path);
  if (value.is_array()) return CheckArray(schema, value.as_array(), path);
  return {};
}

Result<json::value> CoerceFromString(const json::object& schema, std::string_view field,
                                     std::string_view text) {
  const std::string_view type = TypeOf(schema);
  const std::string name(field);
  if (type == "integer") {
    std::int64_t number = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || p != text.data() + text.size()) {
      return Error::Invalid(name, "'" + name + "' must be an integer.");
    }
    return json::value(number);
  }
  if (type == "number") {
    double number = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(number)) {
      return Error::Invalid(name, "'" + name + "' must be a number.");
    }
    return json::value(number);
  }
  if (type == "boolean") {
    if (text == "true") return json::value(true);
    if (text == "false") return json::value(false);
    return Error::Invalid(name, "'" + name + "' must be true or false.");
  }
  return json::value(json::string(text));
}

// A schema that takes any JSON value (OpenAPI 3.0: no `type`): only a description, which
// must say what the value holds and who checks it (the operation, for shapes this subset cannot
// express, such as `query`'s nested filters).
bool IsAnyValue(const json::object& schema) {
  return schema.size() == 1 && schema.contains("description") &&
         schema.at("description").is_string() && !schema.at("description").as_string().empty();
}

Result<void> CheckSchema(const json::object& schema, const std::string& path) {
  if (IsAnyValue(schema)) return {};
  const std::string_view type = TypeOf(schema);
  if (type.empty() || std::find(kTypes.begin(), kTypes.end(), type) == kTypes.end()) {
    return Error::Invalid(FieldName(path), "schema at '" + FieldName(path) + "' needs a known type");
  }
  if (auto format = schema.if_contains("format")) {
    if (!format->is_string() ||
        std::find(kFormats.begin(), kFormats.end(), format->as_string()) == kFormats.end()) {
      return Error::Invalid(FieldName(path), "unknown format at '" + FieldName(path) + "'");
    }
  }
  if (auto properties = schema.if_contains("properties")) {
    if (!properties->is_object()) return Error::Invalid(FieldName(path), "properties not an object");
    for (const auto& [name, property] : properties->as_object()) {
      if (!property.is_object()) return Error::Invalid(Child(path, name), "property not a schema");
      auto checked = CheckSchema(property.as_object(), Child(path, name));
      if (!checked) return checked;
    }
  }
  if (auto required = schema.if_contains("required")) {
    const json::value* properties = schema.if_contains("properties");
    for (const auto& name : required->as_array()) {
      if (!name.is_string() || !properties || !properties->as_object().contains(name.as_string())) {
        return Error::Invalid(FieldName(path), "required names an undeclared property");
      }
    }
  }
  if (auto items = schema.if_contains("items")) {
    if (!items->is_object()) return Error::Invalid(FieldName(path), "items not a schema");
    return CheckSchema(items->as_object(), path + "[]");
  }
  if (type == "array") return Error::Invalid(FieldName(path), "array schema without items");
  return {};
}

}  // namespace sightline::tools
