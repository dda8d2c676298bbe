#include "features/assistant/operations.h"

#include "tools/gate.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "storage/agent_repository.h"
#include "features/assistant/views.h"
#include "tools/assistant.h"
#include "tools/audit_log.h"
#include "tools/gate.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::int64_t kDefaultListLimit = 50;

// The caller's conversation in this project; 404 for anyone else's, as for none.
Result<storage::AgentConversationRecord> OwnConversation(OperationContext& context,
                                                         storage::Transaction& tx,
                                                         const std::string& id) {
  auto found = tx.agent().FindAgentConversation(id);
  if (!found) return found.error();
  if (!*found || (*found)->project_id != context.project->id ||
      (*found)->user_id != *context.principal.user_id) {
    return NotFound("conversation");
  }
  return std::move(**found);
}

Result<json::value> RunGetAgentStatus(OperationContext& context, const json::object&) {
  const AssistantStatus status =
      context.services.assistant ? context.services.assistant->Status()
                        : AssistantStatus{false, "", "", "The assistant is not available here."};
  auto named = [](const std::string& text) {
    return NullableString(text.empty() ? std::nullopt : std::optional<std::string>(text));
  };
  return json::value(json::object{{"configured", status.configured},
                                  {"provider", named(status.provider)},
                                  {"model", named(status.model)},
                                  {"message", status.message}});
}

Result<json::value> RunCreateAgentConversation(OperationContext& context,
                                               const json::object& args) {
  const std::string& user_id = *context.principal.user_id;
  const auto given_id = OptionalString(args, "id");
  const auto workflow_id = OptionalString(args, "workflowId");
  const std::int64_t now = context.clock.NowMillis();
  auto conversation = context.store.Write(
      [&](storage::Transaction& tx) -> Result<storage::AgentConversationRecord> {
        // Continue: the caller's conversation with this id, or this workflow's.
        if (given_id) {
          auto found = tx.agent().FindAgentConversation(*given_id);
          if (!found) return found.error();
          if (*found) {
            auto own = OwnConversation(context, tx, *given_id);
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
          auto shared = tx.agent().FindAgentConversationByWorkflow(context.project->id, user_id,
                                                                   *workflow_id);
          if (!shared) return shared.error();
          if (*shared) return std::move(**shared);
        }
        storage::AgentConversationRecord created;
        created.id = given_id.value_or(core::NewUuidV4());
        created.organization_id = context.project->organization_id;
        created.project_id = context.project->id;
        created.user_id = user_id;
        created.workflow_id = workflow_id;
        created.title = OptionalString(args, "title").value_or(std::string(kUntitledConversation));
        created.created_at = now;
        created.updated_at = now;
        auto inserted = tx.agent().InsertAgentConversation(created);
        if (!inserted) return inserted.error();
        return created;
      });
  if (!conversation) return conversation.error();
  json::object out = AgentConversationView(*conversation);
  out["messages"] = json::array();
  return json::value(std::move(out));
}

constexpr std::string_view kConversationList = "list_agent_conversations";

// Keyed by updated_at: a conversation that gets a message while a client pages moves to the
// top, so a walk through the pages may miss it (it is on the first page again).
Result<json::value> RunListAgentConversations(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kConversationList, kTimeIdShape, kDefaultListLimit);
  if (!request) return request.error();
  std::optional<std::pair<std::int64_t, std::string>> before;
  if (request->after) before = TimeIdOf(*request->after);
  auto conversations = context.store.Read([&](storage::Transaction& tx) {
    return tx.agent().ListAgentConversations(context.project->id, *context.principal.user_id,
                                             OptionalString(args, "workflowId"),
                                             static_cast<std::int64_t>(request->limit) + 1,
                                             before);
  });
  if (!conversations) return conversations.error();
  const auto last = TrimToPage(*conversations, request->limit, [](const auto& conversation) {
    return TimeIdKey(conversation.updated_at, conversation.id);
  });
  json::array out;
  for (const auto& conversation : *conversations) out.push_back(AgentConversationView(conversation));
  json::object page{{"conversations", std::move(out)}};
  WriteNextCursor(page, kConversationList, last);
  return json::value(std::move(page));
}

Result<json::value> RunGetAgentConversation(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  auto loaded = context.store.Read([&](storage::Transaction& tx) -> Result<json::object> {
    auto conversation = OwnConversation(context, tx, id);
    if (!conversation) return conversation.error();
    auto messages = tx.agent().ListAgentMessages(id);
    if (!messages) return messages.error();
    json::object out = AgentConversationView(*conversation);
    json::array rows;
    for (const auto& message : *messages) rows.push_back(AgentMessageView(message));
    out["messages"] = std::move(rows);
    return out;
  });
  if (!loaded) return loaded.error();
  return json::value(std::move(*loaded));
}

Result<AnswerRequest> PrepareAnswer(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  auto conversation = context.store.Read(
      [&](storage::Transaction& tx) { return OwnConversation(context, tx, id); });
  if (!conversation) return conversation.error();
  if (!context.services.assistant || !context.services.assistant->Status().configured) {
    return core::Error(core::ErrorCode::kAgentNotConfigured,
                       "The assistant has no language model provider configured on this server.");
  }
  // The answer acts in this conversation's organization and project: the dispatcher binds every
  // tool call the model makes to them.
  return AnswerRequest{id,
                       OptionalString(args, "content").value_or(""),
                       Gate::ActingIn(context.principal, *context.organization, *context.project),
                       context.organization->id,
                       context.organization->slug,
                       context.project->id,
                       std::string(context.request.request_id)};
}

void RunSendAgentMessage(OperationContext& context, const json::object& args,
                         ResultCallback done) {
  auto request = PrepareAnswer(context, args);
  if (!request) return done(request.error());
  context.services.assistant->Answer(std::move(*request), std::move(done));
}

Result<std::shared_ptr<core::ResponseStream>> StreamAgentMessage(OperationContext& context,
                                                                 const json::object& args) {
  auto request = PrepareAnswer(context, args);
  if (!request) return request.error();
  return context.services.assistant->AnswerStreaming(std::move(*request));
}

// Records the decision; true when no other proposed call waits, so the answer can go on.
Result<bool> Decide(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  const std::string call = RequiredString(args, "toolCallId");
  const bool approved = args.at("approved").as_bool();
  json::object details{{"conversationId", id}, {"toolCallId", call}, {"approved", approved}};
  AuditEntry audit{"agent.tool_call.decide", "agent_conversation", id, std::move(details), {}};
  return AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<bool> {
    auto conversation = OwnConversation(context, tx, id);
    if (!conversation) return conversation.error();
    auto decided = tx.agent().DecideAgentToolCall(id, call, approved ? "approved" : "rejected");
    if (!decided) return decided.error();
    if (!*decided) {
      return FieldError(core::ErrorCode::kConflict,
                        "No proposed tool call with this id waits for a decision.", "toolCallId");
    }
    auto messages = tx.agent().ListAgentMessages(id);
    if (!messages) return messages.error();
    for (const auto& message : *messages) {
      if (message.approval == "pending") return false;
    }
    return true;
  });
}

// While other calls still wait: the conversation as it stands, the answer paused.
Result<AgentAnswerEnd> StillWaiting(OperationContext& context, const std::string& id) {
  auto conversation = context.store.Read(
      [&](storage::Transaction& tx) { return OwnConversation(context, tx, id); });
  if (!conversation) return conversation.error();
  return AgentAnswerEnd{AgentConversationView(*conversation), "awaiting_approval", {}, {}};
}

void RunDecideAgentToolCall(OperationContext& context, const json::object& args,
                            ResultCallback done) {
  auto request = PrepareAnswer(context, args);
  if (!request) return done(request.error());
  auto resume = Decide(context, args);
  if (!resume) return done(resume.error());
  if (*resume) return context.services.assistant->Answer(std::move(*request), std::move(done));
  auto waiting = StillWaiting(context, request->conversation_id);
  if (!waiting) return done(waiting.error());
  done(json::value(AgentAnswerView(*waiting, {})));
}

// A one-event stream for a decision after which other calls still wait.
class FinishedStream final : public core::ResponseStream {
 public:
  explicit FinishedStream(std::string events) : events_(std::move(events)) {}
  std::chrono::milliseconds poll_interval() const override { return std::chrono::milliseconds(1); }
  std::optional<std::string> Poll() override {
    if (sent_) return std::nullopt;
    sent_ = true;
    return events_;
  }

 private:
  std::string events_;
  bool sent_ = false;
};

Result<std::shared_ptr<core::ResponseStream>> StreamDecideAgentToolCall(
    OperationContext& context, const json::object& args) {
  auto request = PrepareAnswer(context, args);
  if (!request) return request.error();
  auto resume = Decide(context, args);
  if (!resume) return resume.error();
  if (*resume) return context.services.assistant->AnswerStreaming(std::move(*request));
  auto waiting = StillWaiting(context, request->conversation_id);
  if (!waiting) return waiting.error();
  return std::shared_ptr<core::ResponseStream>(std::make_shared<FinishedStream>(
      "event: done\ndata: " + core::ToJson(json::value(AgentDoneEvent(*waiting))) + "\n\n"));
}

Result<json::value> RunCancelAgentAnswer(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "conversationId");
  auto conversation = context.store.Read(
      [&](storage::Transaction& tx) { return OwnConversation(context, tx, id); });
  if (!conversation) return conversation.error();
  if (context.services.assistant && conversation->status == "running") {
    auto cancelled = context.services.assistant->Cancel(id);
    if (!cancelled) return cancelled.error();
    conversation->status = "canceling";
  }
  return json::value(AgentConversationView(*conversation));
}

Result<json::value> RunDeleteAgentConversations(OperationContext& context,
                                                const json::object& args) {
  const auto workflow_id = OptionalString(args, "workflowId");
  json::object details;
  if (workflow_id) details["workflowId"] = *workflow_id;
  AuditEntry audit{
      "agent.conversations.delete", "user", *context.principal.user_id, std::move(details), {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.agent().DeleteAgentConversations(context.project->id, *context.principal.user_id,
                                         workflow_id);
  });
  if (!deleted) return deleted.error();
  return NoContent();
}

// A private API key reaches the conversations of its creator, within its own project.
constexpr CredentialKind kSessionOrKey =
    CredentialKind::kUserSession | CredentialKind::kPrivateApiKey;

constexpr std::string_view kNotATool =
    "The assistant calls the tools itself; offering it as a tool would chain two models.";

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
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = kSessionOrKey,
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
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kWrite,
    .credentials = kSessionOrKey,
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
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = kSessionOrKey,
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
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kReadOnly,
    .credentials = kSessionOrKey,
    .mcp_exclusion_reason = kNotATool,
    .run = RunGetAgentConversation,
};

const OperationSpec kSendAgentMessage{
    .name = "send_agent_message",
    .summary = "Ask the assistant",
    .description =
        "Sends a message for the assistant to answer, calling the project's operations "
        "with the caller's permissions. With `Accept: text/event-stream` the answer "
        "streams as Server-Sent Events (`message`, `text_delta`, `tool_call`, "
        "`tool_result`, `approval_required`, `done`, `error`); otherwise the JSON "
        "answer comes once it is complete. 409 `AGENT_002` while another answer runs "
        "in the conversation; 503 `AGENT_001` without a language model provider "
        "(nothing stored); 502 `AGENT_003` when the provider fails (the question stays "
        "stored).",
    .tag = "Agent",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations/{conversationId}/messages",
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kWrite,
    .credentials = kSessionOrKey,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "409 502 503",
    .run_async = RunSendAgentMessage,
    .open_stream = StreamAgentMessage,
};

const OperationSpec kDecideAgentToolCall{
    .name = "decide_agent_tool_call",
    .summary = "Approve or decline a proposed change",
    .description =
        "The assistant runs operations that change anything only with the user's "
        "approval: such a call is stored with `approval: pending` and the answer stops "
        "(`awaiting_approval`). Approving runs it, declining tells the model so; once no "
        "proposed call waits, the answer goes on, as JSON or as Server-Sent Events as for "
        "`send_agent_message`. Sending a new message instead declines what waits. 409 "
        "`REQ_003` when no call with this id waits.",
    .tag = "Agent",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations/{conversationId}/tool-calls/"
            "{toolCallId}/decision",
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kWrite,
    .credentials = kSessionOrKey,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "409 502 503",
    .run_async = RunDecideAgentToolCall,
    .open_stream = StreamDecideAgentToolCall,
};

const OperationSpec kCancelAgentAnswer{
    .name = "cancel_agent_answer",
    .summary = "Stop the running answer",
    .description =
        "Asks the answer running in the conversation to stop, on whichever server node "
        "runs it; it stops within about a second, keeping what it stored so far, and the "
        "conversation returns to `idle`. Without a running answer it changes nothing.",
    .tag = "Agent",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/agent/conversations/{conversationId}/cancel",
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kIdempotentWrite,
    .credentials = kSessionOrKey,
    .mcp_exclusion_reason = kNotATool,
    .run = RunCancelAgentAnswer,
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
    .permission = identity::Permission::kAgentUse,
    .effect = Effect::kDestructive,
    .credentials = kSessionOrKey,
    .success_status = 204,
    .mcp_exclusion_reason = kNotATool,
    .run = RunDeleteAgentConversations,
};

}  // namespace sightline::tools
