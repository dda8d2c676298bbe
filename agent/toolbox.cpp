#include "agent/toolbox.h"

#include <algorithm>

#include "tools/access.h"
#include "tools/model_schema.h"

namespace sightline::agent {
namespace {

namespace json = boost::json;

bool TakesProject(const tools::RegisteredOperation& operation) {
  const json::value* properties = operation.input_schema.if_contains("properties");
  return properties && properties->is_object() &&
         properties->as_object().contains(tools::kBoundProjectArgument);
}

}  // namespace

Toolbox::Toolbox(const tools::Registry& registry) {
  for (const tools::RegisteredOperation& operation : registry.operations()) {
    const tools::OperationSpec& spec = *operation.spec;
    if (!spec.mcp_exclusion_reason.empty() || !TakesProject(operation)) continue;
    if (spec.open_stream && !spec.run_async) continue;  // a subscription, not an answer
    std::string description(spec.summary);
    if (!spec.description.empty()) description += "\n\n" + std::string(spec.description);
    const bool writes = spec.effect != tools::Effect::kReadOnly;
    if (writes) description += "\n\nChanges data: runs only after the user approves the call.";
    tools_.push_back({&operation,
                      {std::string(spec.name), std::move(description),
                       tools::ModelInputSchema(operation.input_schema)},
                      writes});
  }
  std::sort(tools_.begin(), tools_.end(), [](const AgentTool& a, const AgentTool& b) {
    return a.definition.name < b.definition.name;
  });
}

std::vector<ToolDefinition> Toolbox::Offer(const identity::Principal& principal,
                                           const identity::PermissionSet& permissions) const {
  std::vector<ToolDefinition> offered;
  for (const AgentTool& tool : tools_) {
    if (tools::MayCall(*tool.operation->spec, principal, permissions, tools::Caller::kModel)) {
      offered.push_back(tool.definition);
    }
  }
  return offered;
}

const AgentTool* Toolbox::Find(std::string_view name) const {
  for (const AgentTool& tool : tools_) {
    if (tool.definition.name == name) return &tool;
  }
  return nullptr;
}

}  // namespace sightline::agent
