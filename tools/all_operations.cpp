// The explicit list of every operation. Adding an operation = one spec in a *_operations.cpp
// file + one line here; routes, OpenAPI, MCP tools and agent tools follow from it.
#include "tools/operation.h"
#include "tools/project_operations.h"

#include <array>
#include <functional>

namespace sightline::tools {

std::string_view EffectName(Effect effect) {
  switch (effect) {
    case Effect::kReadOnly: return "read-only";
    case Effect::kIdempotentWrite: return "idempotent write";
    case Effect::kWrite: return "write";
    case Effect::kDestructive: return "destructive";
  }
  return "write";
}

std::span<const OperationSpec> AllOperations() {
  static const std::array kOperations = {
      kGetProject,
      kUpdateProject,
  };
  return kOperations;
}

}  // namespace sightline::tools
