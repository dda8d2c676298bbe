// The operations the assistant can offer a language model: those of the registry that act on
// one project (they take `projectId`) and are not kept from models (the MCP exclusions apply
// here too). Which of them a caller is offered is decided per step by the dispatcher's rule
// (tools/access.h) from the caller's credential and live permissions; every call still goes
// through the dispatcher, which decides again. Operations that change anything wait for the
// user's approval. Built once; read-only and thread-safe afterwards.
#pragma once

#include <string_view>
#include <vector>

#include "agent/chat.h"
#include "identity/permissions.h"
#include "identity/principal.h"
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

  // What `principal`, holding `permissions` in the conversation's project, may call now, sorted
  // by name (a stable prompt).
  std::vector<ToolDefinition> Offer(const identity::Principal& principal,
                                    const identity::PermissionSet& permissions) const;
  const AgentTool* Find(std::string_view name) const;
  const std::vector<AgentTool>& tools() const { return tools_; }

 private:
  std::vector<AgentTool> tools_;
};

}  // namespace sightline::agent
