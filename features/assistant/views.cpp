#include "features/assistant/views.h"

#include "core/clock.h"
#include "tools/views.h"

namespace sightline::tools {

namespace json = boost::json;

json::object AgentConversationView(const storage::AgentConversationRecord& c) {
  return {{"id", c.id},
          {"workflowId", NullableString(c.workflow_id)},
          {"title", c.title},
          {"status", c.status},
          {"createdAt", core::FormatRfc3339(c.created_at)},
          {"updatedAt", core::FormatRfc3339(c.updated_at)}};
}

json::object AgentMessageView(const storage::AgentMessageRecord& m) {
  return {{"id", m.id},
          {"seq", m.seq},
          {"role", m.role},
          {"content", m.content},
          {"toolCallId", NullableString(m.tool_call_id)},
          {"toolName", NullableString(m.tool_name)},
          {"inputTokens", NullableInteger(m.input_tokens)},
          {"outputTokens", NullableInteger(m.output_tokens)},
          {"approval", NullableString(m.approval)},
          {"createdAt", core::FormatRfc3339(m.created_at)}};
}

namespace {

json::object UsageView(const AgentAnswerEnd& end) {
  return {{"inputTokens", NullableInteger(end.input_tokens)},
          {"outputTokens", NullableInteger(end.output_tokens)}};
}

}  // namespace

json::object AgentDoneEvent(const AgentAnswerEnd& end) {
  return {{"conversation", end.conversation},
          {"stopReason", end.stop_reason},
          {"usage", UsageView(end)}};
}

json::object AgentAnswerView(const AgentAnswerEnd& end,
                             const std::vector<storage::AgentMessageRecord>& added) {
  json::object out = end.conversation;
  json::array messages;
  for (const auto& message : added) messages.push_back(AgentMessageView(message));
  out["messages"] = std::move(messages);
  out["stopReason"] = end.stop_reason;
  out["usage"] = UsageView(end);
  return out;
}

}  // namespace sightline::tools
