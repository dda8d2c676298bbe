// The agent assistant's conversation store: get_agent_status, create_agent_conversation,
// list_agent_conversations, get_agent_conversation, send_agent_message and
// delete_agent_conversations. A conversation belongs to the signed-in user in one project.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kGetAgentStatus;
extern const OperationSpec kCreateAgentConversation;
extern const OperationSpec kListAgentConversations;
extern const OperationSpec kGetAgentConversation;
extern const OperationSpec kSendAgentMessage;
extern const OperationSpec kDecideAgentToolCall;
extern const OperationSpec kCancelAgentAnswer;
extern const OperationSpec kDeleteAgentConversations;

}  // namespace sightline::tools
