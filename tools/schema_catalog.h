// The operations' JSON Schema documents (features/<feature>/schemas.json and the shared shapes
// of tools/schemas.json), embedded at build time. Every document has the same form:
//   {"components": {"schemas": {"Name": {...}}},
//    "operations": {"operation_name": {"input": {...}, "output": {...}}}}
// with either part optional. A schema names a shared shape as {"$ref": "#/components/schemas/Name"},
// as the OpenAPI document does, whichever document defines it. A "$comment" anywhere is a note to
// the document's readers and is dropped on loading. Built once at start-up;
// read-only and thread-safe afterwards.
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace sightline::tools {

struct SchemaDocument {
  std::string_view path;  // where it lives in the source tree, for messages
  std::string_view text;
};

// One operation's schemas as written (with $refs).
struct OperationSchemas {
  boost::json::object input;
  boost::json::object output;
};

class SchemaCatalog {
 public:
  // Fails (naming the document) on a malformed document, an operation or component named twice,
  // or a $ref to no component.
  static core::Result<SchemaCatalog> Load(std::span<const SchemaDocument> documents);

  // The shared shapes as written, for the OpenAPI document's components.schemas.
  const boost::json::object& components() const { return components_; }
  const std::map<std::string, OperationSchemas, std::less<>>& operations() const {
    return operations_;
  }
  // `schema` with every $ref replaced by the shape it names (recursively).
  boost::json::object Resolve(const boost::json::object& schema) const;

 private:
  core::Result<void> Add(const SchemaDocument& document);
  core::Result<void> CheckReferences() const;
  core::Result<void> CheckNoCycles() const;

  boost::json::object components_;
  std::map<std::string, OperationSchemas, std::less<>> operations_;
  std::map<std::string, std::string, std::less<>> defined_in_;  // component → document path
};

}  // namespace sightline::tools
