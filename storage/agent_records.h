// Rows of the agent area (storage/agent_repository.h), as plain values: the assistant's
// conversations and their messages. Times are Unix milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

// One conversation with the agent assistant, owned by a user in a project.
struct AgentConversationRecord {
  std::string id;
  std::string organization_id;
  std::string project_id;
  std::string user_id;
  std::optional<std::string> workflow_id;
  std::string title;
  // "idle", "running", "canceling" (a stop was asked) or "awaiting_approval"
  std::string status = "idle";
  std::optional<std::int64_t> run_started_at;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

// One message of a conversation, in order (`seq` from 1).
struct AgentMessageRecord {
  std::string conversation_id;
  std::int64_t seq = 0;
  std::string id;
  std::string role;     // "user", "assistant", "tool_call" or "tool_result"
  std::string content;  // text; JSON for tool calls and results
  std::optional<std::string> tool_call_id;
  std::optional<std::string> tool_name;
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::int64_t created_at = 0;
  // Tool calls of write operations: "pending" until the user decides, then "approved" or
  // "rejected"; nullopt for everything else.
  std::optional<std::string> approval;
};

}  // namespace sightline::storage
