#include "core/json_util.h"

#include <boost/json/parse.hpp>

#include <charconv>
#include <cmath>

namespace sightline::core {
namespace {

namespace json = boost::json;

// Doubles below this magnitude with no fraction are exact integers (and int64 holds them).
constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53

template <class Number>
void AppendNumber(Number number, std::string& out) {
  char buffer[32];  // the longest shortest double, "-2.2250738585072014e-308", is 24
  const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, number);
  out.append(buffer, written.ptr);
}

void AppendDouble(double number, std::string& out) {
  if (!std::isfinite(number)) {
    out += "null";
  } else if (std::fabs(number) < kLargestExactInteger && std::trunc(number) == number) {
    AppendNumber(static_cast<std::int64_t>(number), out);  // also turns -0.0 into 0
  } else {
    AppendNumber(number, out);  // shortest round trip, fixed or scientific, whichever is shorter
  }
}

// Escapes what JSON requires, the way Boost.JSON does: the quote, the backslash, the short forms
// of \b \t \n \f \r and \u00xx for the other control characters; other bytes pass through.
void AppendString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte != '"' && byte != '\\') continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    out += '\\';
    switch (byte) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '\b': out += 'b'; break;
      case '\t': out += 't'; break;
      case '\n': out += 'n'; break;
      case '\f': out += 'f'; break;
      case '\r': out += 'r'; break;
      default:
        out += "u00";
        out += kHex[byte >> 4];
        out += kHex[byte & 0xf];
    }
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

void AppendValue(const json::value& value, std::string& out);

void AppendObject(const json::object& object, std::string& out) {
  out += '{';
  bool first = true;
  for (const json::key_value_pair& member : object) {
    if (!first) out += ',';
    first = false;
    AppendString(member.key(), out);
    out += ':';
    AppendValue(member.value(), out);
  }
  out += '}';
}

void AppendArray(const json::array& array, std::string& out) {
  out += '[';
  bool first = true;
  for (const json::value& item : array) {
    if (!first) out += ',';
    first = false;
    AppendValue(item, out);
  }
  out += ']';
}

void AppendValue(const json::value& value, std::string& out) {
  switch (value.kind()) {
    case json::kind::null: out += "null"; break;
    case json::kind::bool_: out += value.get_bool() ? "true" : "false"; break;
    case json::kind::int64: AppendNumber(value.get_int64(), out); break;
    case json::kind::uint64: AppendNumber(value.get_uint64(), out); break;
    case json::kind::double_: AppendDouble(value.get_double(), out); break;
    case json::kind::string: AppendString(value.get_string(), out); break;
    case json::kind::array: AppendArray(value.get_array(), out); break;
    case json::kind::object: AppendObject(value.get_object(), out); break;
  }
}

}  // namespace

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

// The one writer of JSON text that leaves the process (REST, MCP, CLI --json, SSE, logs): compact,
// strings escaped as Boost.JSON escapes them, integers as integers, and doubles in the shortest
// notation that reads back to the same double ("0.4", not Boost's "4E-1"). A double with no
// fraction below 2^53 in magnitude is written as an integer ("50", and "0" for -0.0); NaN and the
// infinities, which JSON cannot express, are written as null.
std::string ToJson(const boost::json::value& value) {
  std::string out;
  out.reserve(256);  // most answers are larger; one growth path, no per-value allocation
  AppendValue(value, out);
  return out;
}

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
