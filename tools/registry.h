// The registry: the operation list with each operation's schemas (from its feature's schema
// document) resolved once and its path parameters and argument locations worked out. Built
// once at start-up; read-only and thread-safe afterwards. REST routing, OpenAPI and the
// dispatcher all read this one object.
#pragma once

#include "core/result.h"
#include "tools/operation.h"
#include "tools/schema_catalog.h"

#include <boost/json/object.hpp>

#include <span>
#include <string>
#include <vector>

namespace sightline::tools {

enum class ArgumentLocation { kPath, kQuery, kBody };

struct RegisteredOperation {
  const OperationSpec* spec;
  // With every $ref inlined: for validation, MCP tools, the assistant and the CLI.
  boost::json::object input_schema;
  boost::json::object output_schema;
  // As written, $refs to the shared shapes kept: for the OpenAPI document.
  boost::json::object published_input_schema;
  boost::json::object published_output_schema;
  std::vector<std::string> path_parameters;  // in template order
  // Where each input property arrives over REST: path parameters by name, then query string
  // for GET/DELETE, JSON body otherwise.
  ArgumentLocation LocationOf(std::string_view property) const;
  bool HasBody() const;
};

class Registry {
 public:
  // Loads the schema documents and checks every operation; fails (naming the operation or
  // document) on a malformed definition, a duplicate name or route, an operation without
  // schemas, schemas for an operation not in the list, or a path parameter missing from the
  // input schema.
  static core::Result<Registry> Build(std::span<const OperationSpec> operations,
                                      std::span<const SchemaDocument> schema_documents);

  const std::vector<RegisteredOperation>& operations() const { return operations_; }
  const RegisteredOperation* Find(std::string_view name) const;
  // The shared shapes the published schemas refer to (OpenAPI components.schemas).
  const boost::json::object& schema_components() const { return schema_components_; }

 private:
  std::vector<RegisteredOperation> operations_;
  boost::json::object schema_components_;
};

// "{orgSlug}" segments of a path template, in order.
std::vector<std::string> PathParameters(std::string_view path_template);

}  // namespace sightline::tools
