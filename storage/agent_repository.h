// Agent: the queries over the agent assistant's conversations and their messages, written once over
// SqlSession and run unchanged on SQLite and PostgreSQL. Reached from a Transaction (`tx.agent()`);
// lives for one transaction and is used by one thread. Lookups return nullopt for "not there";
// errors are storage failures, or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/agent_records.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class AgentRepository {
 public:
  explicit AgentRepository(SqlSession& session) : session_(session) {}

  // Conversations (storage/agent_repository.cpp).
  core::Result<void> InsertAgentConversation(const AgentConversationRecord& conversation);
  core::Result<std::optional<AgentConversationRecord>> FindAgentConversation(
      std::string_view conversation_id);
  core::Result<std::optional<AgentConversationRecord>> FindAgentConversationByWorkflow(
      std::string_view project_id, std::string_view user_id, std::string_view workflow_id);
  // The user's conversations in the project (only the workflow's, when given), most recently
  // updated first, at most `limit`; `before` (updated_at, id) is the keyset of the previous
  // page's last conversation.
  core::Result<std::vector<AgentConversationRecord>> ListAgentConversations(
      std::string_view project_id, std::string_view user_id,
      const std::optional<std::string>& workflow_id, std::int64_t limit,
      const std::optional<std::pair<std::int64_t, std::string>>& before = std::nullopt);
  // Appends a message after the conversation's last (its seq is set here) and updates the
  // conversation's updated_at.
  core::Result<AgentMessageRecord> AppendAgentMessage(AgentMessageRecord message);
  core::Result<std::vector<AgentMessageRecord>> ListAgentMessages(
      std::string_view conversation_id);
  // Marks the conversation running from `now` unless an answer already runs in it (one that
  // started before `stale_before` is taken to have died with its node); whether it did.
  core::Result<bool> ClaimAgentConversation(std::string_view conversation_id, std::int64_t now,
                                            std::int64_t stale_before);
  // Sets the status ("idle", "awaiting_approval") when an answer ends.
  core::Result<void> SetAgentConversationStatus(std::string_view conversation_id,
                                                std::string_view status, std::int64_t now);
  // Replaces the title while it is still `untitled` (the default), e.g. with the first question.
  core::Result<void> TitleAgentConversation(std::string_view conversation_id,
                                            std::string_view title, std::string_view untitled);
  // Asks a running answer to stop (status "canceling"); whether one was running.
  core::Result<bool> RequestAgentCancel(std::string_view conversation_id);
  // Records the decision on a pending tool call; whether one was pending.
  core::Result<bool> DecideAgentToolCall(std::string_view conversation_id,
                                         std::string_view tool_call_id, std::string_view approval);
  // Deletes the user's conversations in the project (only the workflow's, when given) with
  // every message; how many conversations.
  core::Result<std::int64_t> DeleteAgentConversations(
      std::string_view project_id, std::string_view user_id,
      const std::optional<std::string>& workflow_id);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
