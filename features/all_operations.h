// Every operation of the product, in one explicit list: the registry, the REST routes, the
// OpenAPI document, the MCP tools, the assistant's tools and the CLI's commands all start here.
#pragma once

#include <span>

#include "tools/operation.h"
#include "tools/schema_catalog.h"

namespace sightline::tools {

std::span<const OperationSpec> AllOperations();

// The operations' schema documents: tools/schemas.json (the shared shapes) and each
// features/<feature>/schemas.json, embedded at build time (cmake/embed_schemas.cmake).
std::span<const SchemaDocument> AllSchemaDocuments();

}  // namespace sightline::tools
