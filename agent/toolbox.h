// The operations the assistant can offer a language model: those of the registry that act on
// one project (they take `projectId`), are open to a signed-in user and are not kept from
// models (the MCP exclusions apply here too). Which of them a user is offered is decided per
// step from the user's live permissions; every call still goes through the dispatcher, which
// checks again. Operations that change anything wait for the user's approval. Built once;
// read-only and thread-safe afterwards.
#pragma once

#include <string_view>
#include <vector>

#include "agent/chat.h"
#include "identity/permissions.h"
#include "tools/registry.h"

namespace sightline::agent {

struct AgentTool {
  const tools::RegisteredOperation* operation;
  ToolDefinition definition;  // the name is the operation's; organization and project removed
  bool needs_approval;        // anything but read-only
};

class Toolbox {
 public:
  explicit Toolbox(const tools::Registry& registry);

  // What a user holding `permissions` may call now, sorted by name (a stable prompt).
  std::vector<ToolDefinition> Offer(const identity::PermissionSet& permissions) const;
  const AgentTool* Find(std::string_view name) const;
  const std::vector<AgentTool>& tools() const { return tools_; }

  // The model's arguments with the conversation's organization and project filled in (they are
  // never the model's to choose: a value it wrote is replaced).
  static boost::json::object BindArguments(const AgentTool& tool, boost::json::object arguments,
                                           const std::string& organization_slug,
                                           const std::string& project_id);

 private:
  std::vector<AgentTool> tools_;
};

}  // namespace sightline::agent
