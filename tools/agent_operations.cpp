#include "tools/agent_operations.h"

#include "core/crypto.h"
#include "tools/audit.h"
#include "tools/operation_helpers.h"
#include "tools/schema_fragments.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kDefaultTitle = "New conversation";
constexpr std::int64_t kDefaultListLimit = 50;

json::value Nullable(const std::optional<std::string>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}
json::value Nullable(const std::optional<std::int64_t>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}

json::object ConversationView(const storage::AgentConversationRecord& c) {
  return {{"id", c.id},
          {"workflowId", Nullable(c.workflow_id)},
          {"title", c.title},
          {"status", c.status},
          {"createdAt", core::FormatRfc3339(c.created_at)},
          {"updatedAt", core::FormatRfc3339(c.updated_at)}};
}

json::object MessageView(const storage::AgentMessageRecord& m) {
  return {{"id", m.id},
          {"seq", m.seq},
          {"role", m.role},
          {"content", m.content},
          {"toolCallId", Nullable(m.tool_call_id)},
          {"toolName", Nullable(m.tool_name)},
          {"inputTokens", Nullable(m.input_tokens)},
          {"outputTokens", Nullable(m.output_tokens)},
          {"createdAt", core::FormatRfc3339(m.created_at)}};
}

// The caller's conversation in this project; 404 for anyone else's, as for none.
Result<storage::AgentConversationRecord> OwnConversation(OperationContext& context,
                                                         storage::Repository& repo,
                                                         const std::string& id) {
  auto found = repo.FindAgentConversation(id);
  if (!found) return found.error();
  if (!*found || (*found)->project_id != context.project->id ||
      (*found)->user_id != *context.principal.user_id) {
    return NotFound("conversation");
  }
  return std::move(**found);
}

Result<json::value> RunGetAgentStatus(OperationContext&, const json::object&) {
  return json::value(json::object{
      {"configured", false},
      {"provider", nullptr},
      {"model", nullptr},
      {"message",
       "The assistant has no language model provider configured on this server, so it cannot "
       "answer yet. Reports and the MCP server work without one."}});
}

Result<json::value> RunCreateAgentConversation(OperationContext& context,
                                               const json::object& args) {
  const std::string& user_id = *context.principal.user_id;
  const auto given_id = OptionalString(args, "id");
  const auto workflow_id = OptionalString(args, "workflowId");
  const std::int64_t now = context.clock.NowMillis();
  auto conversation = context.store.Write(
      [&](storage::Repository& repo) -> Result<storage::AgentConversationRecord> {
        // Continue: the caller's conversation with this id, or this workflow's.
        if (given_id) {
          auto found = repo.FindAgentConversation(*given_id);
          if (!found) return found.error();
          if (*found) {
            auto own = OwnConversation(context, repo, *given_id);
            if (!own) {
              return core::Error(core::ErrorCode::kConflict,
                                 "This conversation id is already in use; choose another.");
            }
            if (workflow_id && own->workflow_id != workflow_id) {
              return FieldError(core::ErrorCode::kConflict,
                                "The conversation belongs to another workflow.", "workflowId");
            }
            return own;
          }
        }
        if (workflow_id) {
          auto shared =
              repo.FindAgentConversationByWorkflow(context.project->id, user_id, *workflow_id);
          if (!shared) return shared.error();
          if (*shared) return std::move(**shared);
        }
        storage::AgentConversationRecord created;
        created.id = given_id.value_or(core::NewUuidV4());
        created.organization_id = context.project->organization_id;
        created.project_id = context.project->id;
        created.user_id = user_id;
        created.workflow_id = workflow_id;
        created.title = OptionalString(args, "title").value_or(std::string(kDefaultTitle));
        created.created_at = now;
        created.updated_at = now;
        auto inserted = repo.InsertAgentConversation(created);
        if (!inserted) return inserted.error();
        return created;
      });
  if (!conversation) return conversation.error();
  json::object out = ConversationView(*conversation);
  out["messages"] = json::array();
  return json::value(std::move(out));
}

Result<json::value> RunListAgentConversations(OperationContext& context, const json::object& args) {
  auto conversations = context.store.Read([&](storage::Repository& repo) {
    return repo.ListAgentConversations(context.project->id, *context.principal.user_id,
                                       OptionalString(args, "workflowId"),
                                       IntegerOr(args, "limit", kDefaultListLimit));
  });
  if (!conversations) return conversations.error();
  json::array out;
  for (const auto& conversation : *conversations) out.push_back(ConversationView(conversation));
  return json::value(json::object{{"conversations", std::move(out)}});
}

Result<json::value> RunGetAgentConversation(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  auto loaded = context.store.Read([&](storage::Repository& repo) -> Result<json::object> {
    auto conversation = OwnConversation(context, repo, id);
    if (!conversation) return conversation.error();
    auto messages = repo.ListAgentMessages(id);
    if (!messages) return messages.error();
    json::object out = ConversationView(*conversation);
    json::array rows;
    for (const auto& message : *messages) rows.push_back(MessageView(message));
    out["messages"] = std::move(rows);
    return out;
  });
  if (!loaded) return loaded.error();
  return json::value(std::move(*loaded));
}

Result<json::value> RunSendAgentMessage(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  auto conversation = context.store.Read(
      [&](storage::Repository& repo) { return OwnConversation(context, repo, id); });
  if (!conversation) return conversation.error();
  // Without a provider there is no one to answer: refuse before storing anything rather than
  // keep a question that will never get its answer.
  return core::Error(core::ErrorCode::kAgentNotConfigured,
                     "The assistant has no language model provider configured on this server.");
}

Result<json::value> RunDeleteAgentConversations(OperationContext& context,
                                                const json::object& args) {
  const auto workflow_id = OptionalString(args, "workflowId");
  json::object details;
  if (workflow_id) details["workflowId"] = *workflow_id;
  AuditEntry audit{
      "agent.conversations.delete", "user", *context.principal.user_id, std::move(details), {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Repository& repo) {
    return repo.DeleteAgentConversations(context.project->id, *context.principal.user_id,
                                         workflow_id);
  });
  if (!deleted) return deleted.error();
  return NoContent();
}

constexpr std::string_view kNotATool =
    "The assistant calls the tools itself; offering it as a tool would chain two models.";

#define SIGHTLINE_CONVERSATION_PROPERTIES                                            \
  R"("id": {"type": "string"}, "workflowId": {"type": "string", "nullable": true},)" \
  R"( "title": {"type": "string"}, "status": {"type": "string", "enum": ["idle",)"   \
  R"( "running"]}, "createdAt": {"type": "string", "format": "date-time"},)"         \
  R"( "updatedAt": {"type": "string", "format": "date-time"})"
#define SIGHTLINE_CONVERSATION_REQUIRED \
  R"("id", "workflowId", "title", "status", "createdAt", "updatedAt")"
#define SIGHTLINE_MESSAGE_SCHEMA                                                     \
  R"({"type": "object", "required": ["id", "seq", "role", "content", "createdAt"],)" \
  R"( "properties": {"id": {"type": "string"}, "seq": {"type": "integer"},)"         \
  R"( "role": {"type": "string", "enum": ["user", "assistant", "tool_call",)"        \
  R"( "tool_result"]}, "content": {"type": "string"},)"                              \
  R"( "toolCallId": {"type": "string", "nullable": true},)"                          \
  R"( "toolName": {"type": "string", "nullable": true},)"                            \
  R"( "inputTokens": {"type": "integer", "nullable": true},)"                        \
  R"( "outputTokens": {"type": "integer", "nullable": true},)"                       \
  R"( "createdAt": {"type": "string", "format": "date-time"}}})"
#define SIGHTLINE_CONVERSATION_WITH_MESSAGES                            \
  R"({"type": "object", "required": [)" SIGHTLINE_CONVERSATION_REQUIRED \
  R"(, "messages"], "properties": {)" SIGHTLINE_CONVERSATION_PROPERTIES \
  R"(, "messages": {"type": "array", "items": )" SIGHTLINE_MESSAGE_SCHEMA R"(}}})"
#define SIGHTLINE_CONVERSATION_ID_PROPERTY \
  R"("conversationId": {"type": "string", "minLength": 1, "maxLength": 64})"
#define SIGHTLINE_WORKFLOW_ID_PROPERTY                                                   \
  R"("workflowId": {"type": "string", "minLength": 1, "maxLength": 128, "description":)" \
  R"( "Names one shared conversation per workflow (per user and project)."})"

}  // namespace

const OperationSpec kGetAgentStatus{
    .name = "get_agent_status",
    .summary = "Get the assistant's status",
    .description =
        "Whether the agent assistant can answer on this server (a language model "
        "provider is configured), which provider and model, and a message to show.",
    .tag = "Agent",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/agent/status",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(}})",
    .output_schema = R"({"type": "object", "required": ["configured", "provider", "model",
        "message"], "properties": {"configured": {"type": "boolean"},
        "provider": {"type": "string", "nullable": true},
        "model": {"type": "string", "nullable": true}, "message": {"type": "string"}}})",
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunGetAgentStatus,
};

const OperationSpec kCreateAgentConversation{
    .name = "create_agent_conversation",
    .summary = "Start or continue a conversation",
    .description =
        "Creates a conversation with the assistant for the signed-in user in this "
        "project, or continues one: with an `id` the caller already uses, or with a "
        "`workflowId` whose shared conversation exists, that conversation is "
        "returned. An `id` in use by anyone else is 409.",
    .tag = "Agent",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(,
        "id": {"type": "string", "minLength": 8, "maxLength": 64,
               "pattern": "^[A-Za-z0-9_-]+$", "description": "A client-chosen id (a UUID)."},)"
        SIGHTLINE_WORKFLOW_ID_PROPERTY R"(,
        "title": {"type": "string", "minLength": 1, "maxLength": 200}}})",
    .output_schema = SIGHTLINE_CONVERSATION_WITH_MESSAGES,
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .success_status = 201,
    .mcp_exclusion_reason = kNotATool,
    .run = RunCreateAgentConversation,
};

const OperationSpec kListAgentConversations{
    .name = "list_agent_conversations",
    .summary = "List my conversations",
    .description =
        "The signed-in user's conversations in this project, most recently updated "
        "first; only the workflow's shared one with `workflowId`.",
    .tag = "Agent",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES ", " SIGHTLINE_WORKFLOW_ID_PROPERTY R"(,
        "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}}})",
    .output_schema = R"({"type": "object", "required": ["conversations"], "properties": {
        "conversations": {"type": "array", "items": {"type": "object", "required": [)"
        SIGHTLINE_CONVERSATION_REQUIRED R"(], "properties": {)"
        SIGHTLINE_CONVERSATION_PROPERTIES R"(}}}}})",
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunListAgentConversations,
};

const OperationSpec kGetAgentConversation{
    .name = "get_agent_conversation",
    .summary = "Get a conversation with its messages",
    .description =
        "The conversation and every message in order: the user's, the assistant's, "
        "and the tool calls and results in between, with token usage. 404 for "
        "another user's conversation.",
    .tag = "Agent",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations/{conversationId}",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId",
        "conversationId"], "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES
                    ", " SIGHTLINE_CONVERSATION_ID_PROPERTY R"(}})",
    .output_schema = SIGHTLINE_CONVERSATION_WITH_MESSAGES,
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunGetAgentConversation,
};

const OperationSpec kSendAgentMessage{
    .name = "send_agent_message",
    .summary = "Ask the assistant",
    .description =
        "Sends a message in the conversation for the assistant to answer. Without a "
        "configured language model provider: 503 `AGENT_001`, and nothing is stored.",
    .tag = "Agent",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations/{conversationId}/messages",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId",
        "conversationId", "content"], "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES
                    ", " SIGHTLINE_CONVERSATION_ID_PROPERTY R"(,
        "content": {"type": "string", "minLength": 1, "maxLength": 20000}}})",
    .output_schema = SIGHTLINE_CONVERSATION_WITH_MESSAGES,
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunSendAgentMessage,
};

const OperationSpec kDeleteAgentConversations{
    .name = "delete_agent_conversations",
    .summary = "Delete my conversations",
    .description =
        "Permanently deletes the signed-in user's conversations in this project with "
        "every message, tool calls and results included; with `workflowId`, only that "
        "workflow's shared conversation. Other users' conversations are untouched.",
    .tag = "Agent",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES ", " SIGHTLINE_WORKFLOW_ID_PROPERTY R"(}})",
    .output_schema = kEmptyOutputSchema,
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kDestructive,
    .credentials = CredentialKind::kUserSession,
    .success_status = 204,
    .mcp_exclusion_reason = kNotATool,
    .run = RunDeleteAgentConversations,
};

}  // namespace sightline::tools
