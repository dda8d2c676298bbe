#include "tools/registry.h"

#include "tools/schema.h"

#include <regex>
#include <set>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

Error Bad(const OperationSpec& spec, const std::string& what) {
  return Error::Internal("operation '" + std::string(spec.name) + "': " + what);
}

Result<void> CheckedSchema(const OperationSpec& spec, const json::object& schema,
                           std::string_view which) {
  auto checked = CheckSchema(schema);
  if (!checked) {
    return Bad(spec, std::string(which) + " schema: " + checked.error().message() + " " +
                         checked.error().details().at("field").as_string().c_str());
  }
  return {};
}

Result<RegisteredOperation> Register(const OperationSpec& spec, const SchemaCatalog& catalog) {
  static const std::regex kName("^[a-z0-9_]{1,48}$");
  if (!std::regex_match(spec.name.begin(), spec.name.end(), kName)) {
    return Bad(spec, "name must match ^[a-z0-9_]{1,48}$");
  }
  const int bodies = (spec.run != nullptr) + (spec.run_async != nullptr) +
                     (spec.open_stream != nullptr);
  const bool negotiated = bodies == 2 && spec.run_async && spec.open_stream;
  if (bodies != 1 && !negotiated) {
    return Bad(spec, "needs one of run, run_async and open_stream (or run_async and open_stream)");
  }
  if (spec.method == core::HttpMethod::kGet && spec.effect != Effect::kReadOnly) {
    return Bad(spec, "GET operations must be read-only");
  }
  const auto schemas = catalog.operations().find(spec.name);
  if (schemas == catalog.operations().end()) {
    return Bad(spec, "no schemas: add its input and output to its feature's schemas.json");
  }
  RegisteredOperation op{&spec,
                         catalog.Resolve(schemas->second.input),
                         catalog.Resolve(schemas->second.output),
                         schemas->second.input,
                         schemas->second.output,
                         PathParameters(spec.path)};
  if (auto checked = CheckedSchema(spec, op.input_schema, "input"); !checked) return checked.error();
  if (auto checked = CheckedSchema(spec, op.output_schema, "output"); !checked) {
    return checked.error();
  }
  const json::value* type = op.input_schema.if_contains("type");
  if (type == nullptr || *type != "object") return Bad(spec, "input schema must be an object");
  const json::value* properties = op.input_schema.if_contains("properties");
  for (const auto& name : op.path_parameters) {
    if (!properties || !properties->as_object().contains(name)) {
      return Bad(spec, "path parameter {" + name + "} missing from the input schema");
    }
  }
  return op;
}

}  // namespace

std::vector<std::string> PathParameters(std::string_view path_template) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while ((at = path_template.find('{', at)) != std::string_view::npos) {
    const std::size_t end = path_template.find('}', at);
    if (end == std::string_view::npos) break;
    names.emplace_back(path_template.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return names;
}

ArgumentLocation RegisteredOperation::LocationOf(std::string_view property) const {
  for (const auto& name : path_parameters) {
    if (name == property) return ArgumentLocation::kPath;
  }
  // An operation that takes the body as it comes (log drains) can only be configured in the URL.
  if (spec->raw_body) return property == "body" ? ArgumentLocation::kBody : ArgumentLocation::kQuery;
  return HasBody() ? ArgumentLocation::kBody : ArgumentLocation::kQuery;
}

bool RegisteredOperation::HasBody() const {
  const core::HttpMethod m = spec->method;
  return m == core::HttpMethod::kPost || m == core::HttpMethod::kPut ||
         m == core::HttpMethod::kPatch;
}

Result<Registry> Registry::Build(std::span<const OperationSpec> operations,
                                 std::span<const SchemaDocument> schema_documents) {
  auto catalog = SchemaCatalog::Load(schema_documents);
  if (!catalog) return catalog.error();
  Registry registry;
  registry.schema_components_ = catalog->components();
  std::set<std::string_view> names;
  std::set<std::string> routes;
  for (const OperationSpec& spec : operations) {
    auto op = Register(spec, *catalog);
    if (!op) return op.error();
    if (!names.insert(spec.name).second) return Bad(spec, "duplicate name");
    // Two templates differing only in parameter names are the same route.
    const std::string route = std::string(core::MethodName(spec.method)) + " " +
                              std::regex_replace(std::string(spec.path), std::regex("\\{[^}]*\\}"), "{}");
    if (!routes.insert(route).second) return Bad(spec, "duplicate route " + route);
    registry.operations_.push_back(std::move(*op));
  }
  for (const auto& [name, schemas] : catalog->operations()) {
    if (!names.contains(name)) {
      return Error::Internal("schemas for operation '" + name + "', which does not exist");
    }
  }
  return registry;
}

const RegisteredOperation* Registry::Find(std::string_view name) const {
  for (const auto& op : operations_) {
    if (op.spec->name == name) return &op;
  }
  return nullptr;
}

}  // namespace sightline::tools
