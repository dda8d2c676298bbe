#include "tools/schema_catalog.h"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::string_view kRefPrefix = "#/components/schemas/";

Error Bad(std::string_view document, const std::string& what) {
  return Error::Internal("schema document " + std::string(document) + ": " + what);
}

// The component a {"$ref": "#/components/schemas/Name"} object names; empty for any other value.
std::string_view ReferencedName(const json::object& schema) {
  const json::value* ref = schema.if_contains("$ref");
  if (ref == nullptr || !ref->is_string()) return {};
  const std::string_view text = ref->as_string();
  return text.starts_with(kRefPrefix) ? text.substr(kRefPrefix.size()) : std::string_view();
}

// Every component name `value` refers to, in order met; `loose` collects refs with siblings.
void CollectReferences(const json::value& value, std::vector<std::string>& names, bool& loose) {
  if (value.is_array()) {
    for (const json::value& item : value.as_array()) CollectReferences(item, names, loose);
    return;
  }
  if (!value.is_object()) return;
  const json::object& object = value.as_object();
  if (object.contains("$ref")) {
    names.emplace_back(ReferencedName(object));  // empty when it is not a component's
    loose = loose || object.size() != 1;
    return;
  }
  for (const auto& [key, member] : object) CollectReferences(member, names, loose);
}

json::value ResolvedValue(const json::object& components, const json::value& value) {
  if (value.is_array()) {
    json::array items;
    for (const json::value& item : value.as_array()) items.push_back(ResolvedValue(components, item));
    return items;
  }
  if (!value.is_object()) return value;
  const std::string_view name = ReferencedName(value.as_object());
  if (!name.empty()) return ResolvedValue(components, components.at(name));
  json::object resolved;
  for (const auto& [key, member] : value.as_object()) resolved[key] = ResolvedValue(components, member);
  return resolved;
}

// JSON has no comments: a schema's "$comment" (JSON Schema's keyword for notes to maintainers)
// is for the readers of the document, and neither validation, MCP nor OpenAPI 3.0 sees it.
void DropComments(json::value& value) {
  if (value.is_array()) {
    for (json::value& item : value.as_array()) DropComments(item);
    return;
  }
  if (!value.is_object()) return;
  if (value.as_object().contains("$comment")) {
    // Copied rather than erased: object::erase moves the last member into the gap, and the
    // order of members is what MCP clients and the CLI's help show.
    json::object kept;
    for (auto& [key, member] : value.as_object()) {
      if (key != "$comment") kept[key] = std::move(member);
    }
    value = std::move(kept);
  }
  for (auto& member : value.as_object()) DropComments(member.value());
}

Result<json::object> ObjectMember(const json::object& parent, std::string_view key,
                                  std::string_view document, const std::string& where) {
  const json::value* member = parent.if_contains(key);
  if (member == nullptr || !member->is_object()) {
    return Bad(document, where + " needs an object '" + std::string(key) + "'");
  }
  return member->as_object();
}

}  // namespace

Result<SchemaCatalog> SchemaCatalog::Load(std::span<const SchemaDocument> documents) {
  SchemaCatalog catalog;
  for (const SchemaDocument& document : documents) {
    auto added = catalog.Add(document);
    if (!added) return added.error();
  }
  auto checked = catalog.CheckReferences();
  if (!checked) return checked.error();
  return catalog;
}

Result<void> SchemaCatalog::Add(const SchemaDocument& document) {
  boost::system::error_code ec;
  json::value parsed = json::parse(document.text, ec);
  if (ec || !parsed.is_object()) return Bad(document.path, "is not a JSON object");
  DropComments(parsed);
  for (const auto& [key, value] : parsed.as_object()) {
    if (key != "components" && key != "operations") {
      return Bad(document.path, "unknown member '" + std::string(key) + "'");
    }
  }
  if (parsed.as_object().contains("components")) {
    auto schemas = ObjectMember(parsed.at("components").as_object(), "schemas", document.path,
                                "components");
    if (!schemas) return schemas.error();
    for (const auto& [name, schema] : *schemas) {
      if (!schema.is_object()) {
        return Bad(document.path, "component " + std::string(name) + " is not an object");
      }
      if (!defined_in_.emplace(name, document.path).second) {
        return Bad(document.path, "component " + std::string(name) + " is also defined in " +
                                      defined_in_.at(name));
      }
      components_[name] = schema;
    }
  }
  if (!parsed.as_object().contains("operations")) return {};
  auto operations = ObjectMember(parsed.as_object(), "operations", document.path, "the document");
  if (!operations) return operations.error();
  for (const auto& [name, entry] : *operations) {
    const std::string where = "operation '" + std::string(name) + "'";
    if (!entry.is_object()) return Bad(document.path, where + " is not an object");
    auto input = ObjectMember(entry.as_object(), "input", document.path, where);
    if (!input) return input.error();
    auto output = ObjectMember(entry.as_object(), "output", document.path, where);
    if (!output) return output.error();
    if (!operations_.emplace(name, OperationSchemas{*input, *output}).second) {
      return Bad(document.path, where + " has schemas in another document too");
    }
  }
  return {};
}

// Every $ref names a component and stands alone (OpenAPI 3.0 ignores a $ref's siblings, so a
// resolved schema would differ from the published one).
Result<void> SchemaCatalog::CheckReferences() const {
  auto check = [&](const json::value& value, const std::string& where) -> Result<void> {
    std::vector<std::string> names;
    bool loose = false;
    CollectReferences(value, names, loose);
    if (loose) return Error::Internal(where + ": a $ref has sibling members");
    for (const std::string& name : names) {
      if (!components_.contains(name)) {
        return Error::Internal(where + ": $ref to no component ('" + name + "')");
      }
    }
    return {};
  };
  for (const auto& [name, schema] : components_) {
    auto checked = check(schema, "component " + std::string(name));
    if (!checked) return checked;
  }
  for (const auto& [name, schemas] : operations_) {
    auto input = check(schemas.input, "operation '" + name + "' input");
    if (!input) return input;
    auto output = check(schemas.output, "operation '" + name + "' output");
    if (!output) return output;
  }
  return CheckNoCycles();
}

// A shape containing itself would make Resolve recurse forever: each component's references are
// walked depth first.
Result<void> SchemaCatalog::CheckNoCycles() const {
  std::set<std::string> done;
  std::vector<std::string> path;
  std::function<Result<void>(const std::string&)> visit = [&](const std::string& name) {
    if (done.contains(name)) return Result<void>();
    if (std::ranges::find(path, name) != path.end()) {
      return Result<void>(Error::Internal("component " + name + " contains itself"));
    }
    path.push_back(name);
    std::vector<std::string> names;
    bool loose = false;
    CollectReferences(components_.at(name), names, loose);
    for (const std::string& next : names) {
      if (auto visited = visit(next); !visited) return visited;
    }
    path.pop_back();
    done.insert(name);
    return Result<void>();
  };
  for (const auto& [name, schema] : components_) {
    if (auto visited = visit(std::string(name)); !visited) return visited;
  }
  return {};
}

json::object SchemaCatalog::Resolve(const json::object& schema) const {
  return ResolvedValue(components_, schema).as_object();
}

}  // namespace sightline::tools
