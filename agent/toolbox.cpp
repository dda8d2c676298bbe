#include "agent/toolbox.h"

#include <algorithm>

#include "tools/model_schema.h"

namespace sightline::agent {
namespace {

namespace json = boost::json;

bool TakesProject(const tools::RegisteredOperation& operation) {
  const json::value* properties = operation.input_schema.if_contains("properties");
  return properties && properties->is_object() &&
         properties->as_object().contains(tools::kBoundProjectArgument);
}

bool Declares(const tools::RegisteredOperation& operation, std::string_view argument) {
  const json::value* properties = operation.input_schema.if_contains("properties");
  return properties && properties->is_object() && properties->as_object().contains(argument);
}

}  // namespace

Toolbox::Toolbox(const tools::Registry& registry) {
  for (const tools::RegisteredOperation& operation : registry.operations()) {
    const tools::OperationSpec& spec = *operation.spec;
    if (!spec.mcp_exclusion_reason.empty() || !TakesProject(operation)) continue;
    if (spec.open_stream && !spec.run_async) continue;  // a subscription, not an answer
    if (!identity::Accepts(spec.credentials, identity::CredentialKind::kUserSession)) continue;
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

std::vector<ToolDefinition> Toolbox::Offer(const identity::PermissionSet& permissions) const {
  std::vector<ToolDefinition> offered;
  for (const AgentTool& tool : tools_) {
    const identity::Permission needed = tool.operation->spec->permission;
    if (needed == identity::Permission::kPublic || permissions.Has(needed)) {
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

json::object Toolbox::BindArguments(const AgentTool& tool, json::object arguments,
                                    const std::string& organization_slug,
                                    const std::string& project_id) {
  arguments.erase(tools::kBoundOrganizationArgument);
  arguments.erase(tools::kBoundProjectArgument);
  if (Declares(*tool.operation, tools::kBoundOrganizationArgument)) {
    arguments[tools::kBoundOrganizationArgument] = organization_slug;
  }
  arguments[tools::kBoundProjectArgument] = project_id;
  return arguments;
}

}  // namespace sightline::agent
