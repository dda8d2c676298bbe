// The JSON shapes of the agent assistant's conversations and messages, shared by the agent
// operations and the assistant's own answers.
#pragma once

#include "storage/agent_records.h"

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>


namespace sightline::tools {

// The title of a conversation nobody named.
inline constexpr std::string_view kUntitledConversation = "New conversation";

// {id, workflowId, title, status, createdAt, updatedAt}
boost::json::object AgentConversationView(const storage::AgentConversationRecord& conversation);
// {id, seq, role, content, toolCallId, toolName, inputTokens, outputTokens, approval, createdAt}
boost::json::object AgentMessageView(const storage::AgentMessageRecord& message);

// How an answer ended, in its two forms: the `done` event of a stream
// ({conversation, stopReason, usage}) and the JSON answer (the conversation with the messages
// the answer added, stopReason and usage). Token counts are null when the provider gave none.
struct AgentAnswerEnd {
  boost::json::object conversation;  // AgentConversationView
  std::string stop_reason;
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
};
boost::json::object AgentDoneEvent(const AgentAnswerEnd& end);
boost::json::object AgentAnswerView(const AgentAnswerEnd& end,
                                    const std::vector<storage::AgentMessageRecord>& added);

}  // namespace sightline::tools
