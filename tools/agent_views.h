// The JSON shapes of the agent assistant's conversations and messages, shared by the agent
// operations and the assistant's own answers.
#pragma once

#include <boost/json/object.hpp>

#include "storage/records.h"

namespace sightline::tools {

// The title of a conversation nobody named.
inline constexpr std::string_view kUntitledConversation = "New conversation";

// {id, workflowId, title, status, createdAt, updatedAt}
boost::json::object AgentConversationView(const storage::AgentConversationRecord& conversation);
// {id, seq, role, content, toolCallId, toolName, inputTokens, outputTokens, approval, createdAt}
boost::json::object AgentMessageView(const storage::AgentMessageRecord& message);

}  // namespace sightline::tools
