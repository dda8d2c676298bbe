// The registry: the operation list with each schema parsed once and each operation's path
// parameters and argument locations worked out. Built once at start-up; read-only and
// thread-safe afterwards. REST routing, OpenAPI and the dispatcher all read this one object.
#pragma once

#include "core/result.h"
#include "tools/operation.h"

#include <boost/json/object.hpp>

#include <span>
#include <string>
#include <vector>

namespace sightline::tools {

enum class ArgumentLocation { kPath, kQuery, kBody };

struct RegisteredOperation {
  const OperationSpec* spec;
  boost::json::object input_schema;
  boost::json::object output_schema;
  std::vector<std::string> path_parameters;  // in template order
  // Where each input property arrives over REST: path parameters by name, then query string
  // for GET/DELETE, JSON body otherwise.
  ArgumentLocation LocationOf(std::string_view property) const;
  bool HasBody() const;
};

class Registry {
 public:
  // Parses and checks every schema; fails (naming the operation) on a malformed definition,
  // a duplicate name or route, or a path parameter missing from the input schema.
  static core::Result<Registry> Build(std::span<const OperationSpec> operations);

  const std::vector<RegisteredOperation>& operations() const { return operations_; }
  const RegisteredOperation* Find(std::string_view name) const;

 private:
  std::vector<RegisteredOperation> operations_;
};

// "{orgSlug}" segments of a path template, in order.
std::vector<std::string> PathParameters(std::string_view path_template);

}  // namespace sightline::tools
