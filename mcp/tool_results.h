// What a registry tool's call answers over MCP, shared by tools/call and the task methods that
// hand back a tool's result later (mcp/mcp_server.h): the CallToolResult of an operation's
// result (the step-up challenge is the gate's, tools/gate.h).
// Pure functions (but for logging internal errors); thread-safe.
#pragma once

#include "core/result.h"
#include "identity/principal.h"
#include "mcp/tool_catalog.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string_view>

namespace sightline::mcp {

// The CallToolResult of `result`: the JSON as text, and as `structuredContent` when the tool
// declares an output schema; an error as the API's ErrorResponse body with `isError: true`
// (internal errors logged with `request_id`).
boost::json::object ToolResult(const Tool& tool, core::Result<boost::json::value> result,
                               std::int64_t now, std::string_view request_id);

}  // namespace sightline::mcp
