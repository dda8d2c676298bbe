// Drift between a result and its output schema that the validator lets through: the validator
// ignores undeclared members (arguments may grow without breaking older servers), so a field
// added to a result but not to its schema would pass it. This walk finds such a member. Free-form
// maps (event tags, audit details) say so with `additionalProperties`.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>

namespace sightline::operations {

inline std::optional<std::string> UndeclaredMember(const boost::json::object& schema,
                                                   const boost::json::value& value,
                                                   const std::string& path = "") {
  if (value.is_array()) {
    const boost::json::value* items = schema.if_contains("items");
    if (items == nullptr) return std::nullopt;
    const boost::json::array& array = value.as_array();
    for (std::size_t i = 0; i < array.size(); ++i) {
      auto found =
          UndeclaredMember(items->as_object(), array[i], path + "[" + std::to_string(i) + "]");
      if (found) return found;
    }
    return std::nullopt;
  }
  if (!value.is_object()) return std::nullopt;
  const boost::json::value* properties = schema.if_contains("properties");
  const boost::json::value* additional = schema.if_contains("additionalProperties");
  for (const auto& [name, member] : value.as_object()) {
    const std::string child = path.empty() ? std::string(name) : path + "." + std::string(name);
    const boost::json::value* declared =
        properties != nullptr ? properties->as_object().if_contains(name) : nullptr;
    if (declared == nullptr && additional != nullptr && additional->is_object()) {
      declared = additional;
    }
    if (declared == nullptr) {
      if (additional != nullptr && additional->is_bool() && additional->as_bool()) continue;
      return child;
    }
    auto found = UndeclaredMember(declared->as_object(), member, child);
    if (found) return found;
  }
  return std::nullopt;
}

}  // namespace sightline::operations
