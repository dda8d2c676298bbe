// What a test-only executable built from the same libraries as `sightline` adds to `serve`
// (tests/mcp_fixture_server: the MCP conformance suite's fixtures, answered without a
// credential, and a clock the test chose). The product's main sets none of it, and no option
// or environment variable reaches it: a server with fixtures is another program, not another
// configuration.
// Plain data; thread-compatible.
#pragma once

#include <functional>
#include <memory>
#include <span>

#include "core/clock.h"
#include "mcp/extension.h"

namespace sightline::app {

struct ServeHooks {
  // Builds what /api/mcp offers beyond the registry (mcp::McpServer's extension), once the
  // options are read and logging is set up; empty: nothing.
  std::function<std::unique_ptr<const mcp::McpExtension>()> mcp_extension;
  // /api/mcp also answers requests without a credential, which then see only the extension.
  bool anonymous_mcp = false;
  // The server's time (sessions, windows, leases, reports' "today"); empty: the system's. Tests
  // of time windows start the server at a moment they chose instead of sleeping until one.
  std::shared_ptr<const core::Clock> clock;
};

// `serve` (app/serve.cpp) with `hooks`; `sightline serve` is RunServe(args) (app/commands.h),
// with none.
int RunServe(std::span<char*> args, const ServeHooks& hooks);

}  // namespace sightline::app
