#include "tools/agent_views.h"

#include "core/clock.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;

json::value Nullable(const std::optional<std::string>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}
json::value Nullable(const std::optional<std::int64_t>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}

}  // namespace

namespace json = boost::json;

json::object AgentConversationView(const storage::AgentConversationRecord& c) {
  return {{"id", c.id},
          {"workflowId", Nullable(c.workflow_id)},
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
          {"toolCallId", Nullable(m.tool_call_id)},
          {"toolName", Nullable(m.tool_name)},
          {"inputTokens", Nullable(m.input_tokens)},
          {"outputTokens", Nullable(m.output_tokens)},
          {"approval", Nullable(m.approval)},
          {"createdAt", core::FormatRfc3339(m.created_at)}};
}

}  // namespace sightline::tools
