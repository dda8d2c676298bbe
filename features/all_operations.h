// Every operation of the product, in one explicit list: the registry, the REST routes, the
// OpenAPI document, the MCP tools, the assistant's tools and the CLI's commands all start here.
#pragma once

#include <span>

#include "tools/operation.h"

namespace sightline::tools {

std::span<const OperationSpec> AllOperations();

}  // namespace sightline::tools
