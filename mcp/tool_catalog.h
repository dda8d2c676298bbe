// The MCP view of the operation registry: one tool per operation the registry does not exclude,
// described for models (JSON Schema 2020-12, all four annotations), and linked to the MCP Apps
// view that renders its results, if one does (mcp/app_views.h), and marked as able to run as a
// task when it is long-running (mcp/task_views.h). Which of them a connection sees and may call
// is tools/access.h's decision, the dispatcher's. Built once at start-up; read-only and
// thread-safe after.
#pragma once

#include "identity/principal.h"
#include "mcp/app_views.h"
#include "tools/model_schema.h"
#include "tools/registry.h"

#include <boost/json/object.hpp>

#include <string_view>
#include <vector>

namespace sightline::mcp {

struct Tool {
  const tools::RegisteredOperation* operation;
  boost::json::object descriptor;  // the `Tool` object of `tools/list`
  bool has_output_schema = false;  // results carry structuredContent
  // Long-running (tools/operation.h `LongRunning`) with its status operation, and its cancel
  // operation if it names one, tools as well: it may run as a task. The descriptor then says
  // `execution: {taskSupport: "optional"}` (2025-11-25's marking; 2026-07-28 has none).
  bool task_support = false;
};

class ToolCatalog {
 public:
  explicit ToolCatalog(const tools::Registry& registry, AppViews views = AppViews());

  const std::vector<Tool>& tools() const { return tools_; }  // in registry order
  const Tool* Find(std::string_view name) const;
  const AppViews& views() const { return views_; }
  // Whether some tool may run as a task, and whether some such task may be cancelled.
  bool offers_tasks() const { return offers_tasks_; }
  bool offers_task_cancel() const { return offers_task_cancel_; }
  // The permissions an OAuth consent may grant: those of the tools a grant can call.
  identity::PermissionSet GrantablePermissions() const;

 private:
  std::vector<Tool> tools_;
  AppViews views_;
  bool offers_tasks_ = false;
  bool offers_task_cancel_ = false;
};

}  // namespace sightline::mcp
