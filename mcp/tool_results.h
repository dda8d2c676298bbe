// What a registry tool's call answers over MCP, shared by tools/call and the task methods that
// hand back a tool's result later (mcp/mcp_server.h): the CallToolResult of an operation's
// result, and the step-up challenge for a consent that lacks the operation's permission.
// Pure functions (but for logging internal errors); thread-safe.
#pragma once

#include "core/result.h"
#include "identity/principal.h"
#include "mcp/tool_catalog.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace sightline::mcp {

// The CallToolResult of `result`: the JSON as text, and as `structuredContent` when the tool
// declares an output schema; an error as the API's ErrorResponse body with `isError: true`
// (internal errors logged with `request_id`).
boost::json::object ToolResult(const Tool& tool, core::Result<boost::json::value> result,
                               std::int64_t now, std::string_view request_id);

// The 403 insufficient_scope challenge when `principal` is an OAuth connection whose consent
// lacks the operation's permission but could be widened to it (consenting again helps); nullopt
// otherwise, and the dispatcher's own refusal (a tool error) applies.
std::optional<core::Error> StepUp(const tools::OperationSpec& spec,
                                  const identity::Principal& principal);

}  // namespace sightline::mcp
