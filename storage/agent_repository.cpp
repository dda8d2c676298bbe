// The agent assistant's conversations and messages.
#include "storage/agent_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kConversationColumns =
    "id, organization_id, project_id, user_id, workflow_id, title, status, run_started_at, "
    "created_at, updated_at";
constexpr std::string_view kMessageColumns =
    "conversation_id, seq, id, role, content, tool_call_id, tool_name, input_tokens, "
    "output_tokens, created_at, approval";

AgentConversationRecord MapConversation(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2),   r.Text(3), r.OptText(4),
          r.Text(5), r.Text(6), r.OptInt(7), r.Int(8),  r.Int(9)};
}

AgentMessageRecord MapMessage(const SqlRow& r) {
  return {r.Text(0),    r.Int(1),     r.Text(2),   r.Text(3),   r.Text(4),     r.OptText(5),
          r.OptText(6), r.OptInt(7),  r.OptInt(8), r.Int(9),    r.OptText(10)};
}

// "… AND workflow_id = $3" when a workflow is given.
std::string OwnerFilter(const std::optional<std::string>& workflow_id) {
  return std::string("project_id = $1 AND user_id = $2") +
         (workflow_id ? " AND workflow_id = $3" : "");
}

}  // namespace

Result<void> AgentRepository::InsertAgentConversation(const AgentConversationRecord& c) {
  static const std::string sql = InsertStatement("agent_conversations", kConversationColumns);
  return ExecuteVoid(session_, sql,
                     {c.id, c.organization_id, c.project_id, c.user_id, Nullable(c.workflow_id),
                      c.title, c.status, Nullable(c.run_started_at), c.created_at, c.updated_at});
}

Result<std::optional<AgentConversationRecord>> AgentRepository::FindAgentConversation(
    std::string_view conversation_id) {
  static const std::string sql =
      Select(kConversationColumns, "FROM agent_conversations WHERE id = $1");
  return FindOne<AgentConversationRecord>(session_, sql, {std::string(conversation_id)},
                                          MapConversation);
}

Result<std::optional<AgentConversationRecord>> AgentRepository::FindAgentConversationByWorkflow(
    std::string_view project_id, std::string_view user_id, std::string_view workflow_id) {
  static const std::string sql =
      Select(kConversationColumns,
             "FROM agent_conversations WHERE project_id = $1 AND user_id = $2 AND "
             "workflow_id = $3");
  return FindOne<AgentConversationRecord>(
      session_, sql, {std::string(project_id), std::string(user_id), std::string(workflow_id)},
      MapConversation);
}

Result<std::vector<AgentConversationRecord>> AgentRepository::ListAgentConversations(
    std::string_view project_id, std::string_view user_id,
    const std::optional<std::string>& workflow_id, std::int64_t limit,
    const std::optional<std::pair<std::int64_t, std::string>>& before) {
  std::vector<SqlValue> params{std::string(project_id), std::string(user_id)};
  if (workflow_id) params.emplace_back(*workflow_id);
  std::string keyset;
  if (before) {
    params.emplace_back(before->first);
    params.emplace_back(before->second);
    keyset = " AND (updated_at, id) < ($" + std::to_string(params.size() - 1) + ", $" +
             std::to_string(params.size()) + ")";
  }
  params.emplace_back(limit);
  const std::string sql = Select(kConversationColumns,
                                 "FROM agent_conversations WHERE " + OwnerFilter(workflow_id) +
                                     keyset + " ORDER BY updated_at DESC, id DESC LIMIT $" +
                                     std::to_string(params.size()));
  auto rows = session_.Query(sql, params);
  if (!rows) return rows.error();
  std::vector<AgentConversationRecord> out;
  for (const SqlRow& row : *rows) out.push_back(MapConversation(row));
  return out;
}

Result<AgentMessageRecord> AgentRepository::AppendAgentMessage(AgentMessageRecord message) {
  auto last = FindOne<std::int64_t>(
      session_, "SELECT COALESCE(MAX(seq), 0) FROM agent_messages WHERE conversation_id = $1",
      {message.conversation_id}, [](const SqlRow& r) { return r.Int(0); });
  if (!last) return last.error();
  message.seq = last->value_or(0) + 1;
  static const std::string sql = InsertStatement("agent_messages", kMessageColumns);
  auto inserted = ExecuteVoid(
      session_, sql,
      {message.conversation_id, message.seq, message.id, message.role, message.content,
       Nullable(message.tool_call_id), Nullable(message.tool_name), Nullable(message.input_tokens),
       Nullable(message.output_tokens), message.created_at, Nullable(message.approval)});
  if (!inserted) return inserted.error();
  auto touched =
      session_.Execute("UPDATE agent_conversations SET updated_at = $2 WHERE id = $1",
                       {message.conversation_id, message.created_at});
  if (!touched) return touched.error();
  // Deleted meanwhile (an answer still running when its conversation went): the caller's
  // transaction rolls back rather than leave a message without a conversation.
  if (*touched == 0) return core::Error(core::ErrorCode::kResourceNotFound, "Conversation not found.");
  return message;
}

Result<std::vector<AgentMessageRecord>> AgentRepository::ListAgentMessages(
    std::string_view conversation_id) {
  static const std::string sql =
      Select(kMessageColumns, "FROM agent_messages WHERE conversation_id = $1 ORDER BY seq");
  return FindAll<AgentMessageRecord>(session_, sql, {std::string(conversation_id)}, MapMessage);
}

Result<bool> AgentRepository::ClaimAgentConversation(std::string_view conversation_id,
                                                std::int64_t now, std::int64_t stale_before) {
  auto claimed = session_.Execute(
      "UPDATE agent_conversations SET status = 'running', run_started_at = $2, updated_at = $2 "
      "WHERE id = $1 AND (status IN ('idle', 'awaiting_approval') OR run_started_at < $3)",
      {std::string(conversation_id), now, stale_before});
  if (!claimed) return claimed.error();
  return *claimed == 1;
}

Result<void> AgentRepository::SetAgentConversationStatus(std::string_view conversation_id,
                                                    std::string_view status, std::int64_t now) {
  return ExecuteVoid(session_,
                     "UPDATE agent_conversations SET status = $2, run_started_at = NULL, "
                     "updated_at = $3 WHERE id = $1",
                     {std::string(conversation_id), std::string(status), now});
}

Result<void> AgentRepository::TitleAgentConversation(std::string_view conversation_id,
                                                std::string_view title,
                                                std::string_view untitled) {
  return ExecuteVoid(session_,
                     "UPDATE agent_conversations SET title = $2 WHERE id = $1 AND title = $3",
                     {std::string(conversation_id), std::string(title), std::string(untitled)});
}

Result<bool> AgentRepository::RequestAgentCancel(std::string_view conversation_id) {
  auto asked = session_.Execute(
      "UPDATE agent_conversations SET status = 'canceling' WHERE id = $1 AND status = 'running'",
      {std::string(conversation_id)});
  if (!asked) return asked.error();
  return *asked == 1;
}

Result<bool> AgentRepository::DecideAgentToolCall(std::string_view conversation_id,
                                             std::string_view tool_call_id,
                                             std::string_view approval) {
  auto decided = session_.Execute(
      "UPDATE agent_messages SET approval = $3 WHERE conversation_id = $1 AND tool_call_id = $2 "
      "AND role = 'tool_call' AND approval = 'pending'",
      {std::string(conversation_id), std::string(tool_call_id), std::string(approval)});
  if (!decided) return decided.error();
  return *decided > 0;
}

Result<std::int64_t> AgentRepository::DeleteAgentConversations(
    std::string_view project_id, std::string_view user_id,
    const std::optional<std::string>& workflow_id) {
  std::vector<SqlValue> params{std::string(project_id), std::string(user_id)};
  if (workflow_id) params.emplace_back(*workflow_id);
  const std::string filter = OwnerFilter(workflow_id);
  auto messages = session_.Execute(
      "DELETE FROM agent_messages WHERE conversation_id IN (SELECT id FROM agent_conversations "
      "WHERE " +
          filter + ")",
      params);
  if (!messages) return messages.error();
  return session_.Execute("DELETE FROM agent_conversations WHERE " + filter, params);
}

}  // namespace sightline::storage
