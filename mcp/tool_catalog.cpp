#include "mcp/tool_catalog.h"

#include <algorithm>

#include "tools/access.h"
#include "tools/model_schema.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using tools::ModelInputSchema;
using tools::ToJsonSchema;
using identity::CredentialKind;
using tools::Effect;

// ToolAnnotations from the operation's effect. Every hint is stated: clients assume the worst
// for a missing one (destructive, open world).
json::object Annotations(const tools::OperationSpec& spec) {
  const bool read_only = spec.effect == Effect::kReadOnly;
  // An update overwrites what was there; a create only adds.
  const bool destructive =
      spec.effect == Effect::kDestructive || spec.effect == Effect::kIdempotentWrite;
  const bool idempotent = spec.effect != Effect::kWrite;
  return {{"title", spec.summary},
          {"readOnlyHint", read_only},
          {"destructiveHint", !read_only && destructive},
          {"idempotentHint", idempotent},
          // Every tool works on this server's own records, never on the outside world.
          {"openWorldHint", false}};
}

Tool Describe(const tools::RegisteredOperation& operation) {
  const tools::OperationSpec& spec = *operation.spec;
  Tool tool{&operation, {}, false};
  json::object& d = tool.descriptor;
  d["name"] = spec.name;
  d["title"] = spec.summary;
  d["description"] = spec.description.empty()
                         ? std::string(spec.summary)
                         : std::string(spec.summary) + "\n\n" + std::string(spec.description);
  d["inputSchema"] = ModelInputSchema(operation.input_schema);
  const json::value* type = operation.output_schema.if_contains("type");
  if (spec.success_status != 204 && type && *type == "object") {
    d["outputSchema"] = ToJsonSchema(operation.output_schema);
    tool.has_output_schema = true;
  }
  d["annotations"] = Annotations(spec);
  return tool;
}

}  // namespace

ToolCatalog::ToolCatalog(const tools::Registry& registry, AppViews views)
    : views_(std::move(views)) {
  for (const tools::RegisteredOperation& operation : registry.operations()) {
    if (!operation.spec->mcp_exclusion_reason.empty()) continue;
    Tool tool = Describe(operation);
    // Always linked, whoever asks: a host without Apps ignores it, and tools/list stays one
    // answer for every client.
    if (const std::string* view = views_.ViewOf(operation.spec->name)) {
      tool.descriptor["_meta"] = AppToolMeta(*view);
    }
    tools_.push_back(std::move(tool));
  }
  // A task is read and cancelled through its status and cancel operations, as tools: a tool
  // whose companions are not tools (kept from models) cannot run as one.
  for (Tool& tool : tools_) {
    const tools::LongRunning* long_running = tool.operation->spec->long_running;
    if (!long_running || !Find(long_running->status_operation)) continue;
    const bool cancellable = !long_running->cancel_operation.empty();
    if (cancellable && !Find(long_running->cancel_operation)) continue;
    tool.task_support = true;
    tool.descriptor["execution"] = json::object{{"taskSupport", "optional"}};
    offers_tasks_ = true;
    offers_task_cancel_ = offers_task_cancel_ || cancellable;
  }
}

const Tool* ToolCatalog::Find(std::string_view name) const {
  for (const Tool& tool : tools_) {
    if (tool.operation->spec->name == name) return &tool;
  }
  return nullptr;
}

identity::PermissionSet ToolCatalog::GrantablePermissions() const {
  identity::PermissionSet grantable;
  for (const Tool& tool : tools_) {
    const tools::OperationSpec& spec = *tool.operation->spec;
    if (!tools::CheckCredentialKind(spec, CredentialKind::kMcpToken)) continue;
    grantable.Add(spec.permission);
  }
  // A grant holds consent ∩ role: permissions no role carries (`account.manage` comes with a
  // signed-in session, not a role) could never be used.
  identity::PermissionSet any_role;
  for (const identity::Role role : identity::AllRoles()) {
    any_role = any_role.Union(identity::RolePermissions(role));
  }
  return grantable.Intersect(any_role);
}

}  // namespace sightline::mcp
