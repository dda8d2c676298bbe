// What a test-only executable built from the same libraries as `sightline` adds to `serve`
// (tests/mcp_fixture_server: the MCP conformance suite's fixtures, answered without a
// credential). The product's main sets none of it, and no option or environment variable
// reaches it: a server with fixtures is another program, not another configuration.
// Plain data; thread-compatible.
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "mcp/extension.h"

namespace sightline::app {

struct ServeHooks {
  // Builds what /api/mcp offers beyond the registry (mcp::McpServer's extension), once the
  // options are read and logging is set up; empty: nothing.
  std::function<std::unique_ptr<const mcp::McpExtension>()> mcp_extension;
  // /api/mcp also answers requests without a credential, which then see only the extension.
  bool anonymous_mcp = false;
};

// `serve` (app/serve.cpp) with `hooks`; `sightline serve` is RunServe(args) (app/commands.h),
// with none.
int RunServe(std::span<char*> args, const ServeHooks& hooks);

}  // namespace sightline::app
