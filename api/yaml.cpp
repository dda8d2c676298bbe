#include "api/yaml.h"

#include <boost/json/string.hpp>

#include "core/json_util.h"

namespace sightline::api {
namespace {

namespace json = boost::json;

bool IsScalar(const json::value& v) {
  return !(v.is_object() && !v.as_object().empty()) && !(v.is_array() && !v.as_array().empty());
}

// JSON's escaping leaves DEL and the C1 controls (U+0080..U+009F) raw; YAML 1.2 forbids them in
// a document, so escape them too.
std::string EscapeForYaml(std::string serialized) {
  std::string out;
  out.reserve(serialized.size());
  for (std::size_t i = 0; i < serialized.size(); ++i) {
    const auto c = static_cast<unsigned char>(serialized[i]);
    if (c == 0x7F) {
      out += "\\u007F";
    } else if (c == 0xC2 && i + 1 < serialized.size() &&
               static_cast<unsigned char>(serialized[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(serialized[i + 1]) <= 0x9F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto low = static_cast<unsigned char>(serialized[++i]);
      out += "\\u00";
      out += kHex[low >> 4];
      out += kHex[low & 0x0F];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string Scalar(const json::value& v) {
  if (v.is_object()) return "{}";
  if (v.is_array()) return "[]";
  return EscapeForYaml(core::ToJson(v));  // JSON scalars are valid YAML flow scalars
}

void Emit(const json::value& value, int indent, std::string& out);

void EmitObject(const json::object& object, int indent, std::string& out) {
  for (const auto& [key, member] : object) {
    out.append(static_cast<std::size_t>(indent), ' ');
    out += EscapeForYaml(core::ToJson(json::string(key)));
    out += ":";
    if (IsScalar(member)) {
      out += " " + Scalar(member) + "\n";
    } else {
      out += "\n";
      Emit(member, indent + 2, out);
    }
  }
}

void EmitArray(const json::array& array, int indent, std::string& out) {
  for (const auto& item : array) {
    out.append(static_cast<std::size_t>(indent), ' ');
    if (IsScalar(item)) {
      out += "- " + Scalar(item) + "\n";
      continue;
    }
    // "- " then the nested block, its first line on the dash line.
    std::string nested;
    Emit(item, indent + 2, nested);
    out += "- ";
    out += nested.substr(static_cast<std::size_t>(indent) + 2);
  }
}

void Emit(const json::value& value, int indent, std::string& out) {
  if (value.is_object() && !value.as_object().empty()) {
    EmitObject(value.as_object(), indent, out);
  } else if (value.is_array() && !value.as_array().empty()) {
    EmitArray(value.as_array(), indent, out);
  } else {
    out.append(static_cast<std::size_t>(indent), ' ');
    out += Scalar(value) + "\n";
  }
}

}  // namespace

std::string ToYaml(const json::value& value) {
  std::string out;
  Emit(value, 0, out);
  return out;
}

}  // namespace sightline::api
