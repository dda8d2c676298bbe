#include "agent/assistant.h"

#include <boost/json/parse.hpp>
#include <set>
#include <thread>

#include "agent/fence.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/logging.h"
#include "storage/account_repository.h"
#include "storage/agent_repository.h"
#include "features/assistant/views.h"

namespace sightline::agent {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using storage::AgentMessageRecord;

constexpr std::string_view kDeclinedByNewMessage =
    R"({"error":{"code":"declined","message":"The user sent a new message instead of approving this call; it was not run."}})";
constexpr std::string_view kNotRun =
    R"({"error":{"code":"not_run","message":"The answer was stopped before this call ran."}})";
constexpr std::string_view kDeclined =
    R"({"error":{"code":"declined","message":"The user declined this call; it was not run."}})";

std::string ErrorJson(const Error& error) {
  json::object body{{"code", std::string(error.info().id)}, {"message", error.message()}};
  if (!error.details().empty()) body["details"] = error.details();
  return core::ToJson(json::object{{"error", std::move(body)}});
}

// The first line of a question, cut at a word near 60 characters (UTF-8 safe).
std::string TitleFrom(std::string_view question) {
  question = question.substr(0, question.find('\n'));
  while (!question.empty() && question.front() == ' ') question.remove_prefix(1);
  constexpr std::size_t kMax = 60;
  if (question.size() <= kMax) return std::string(question);
  std::size_t cut = question.rfind(' ', kMax);
  if (cut == std::string_view::npos || cut < kMax / 2) {
    cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(question[cut]) & 0xC0) == 0x80) --cut;
  }
  return std::string(question.substr(0, cut)) + "…";
}

// A stored row's SSE event: `tool_call` and `tool_result` rows have their own, the question and
// the assistant's text are `message`.
std::string_view EventName(const AgentMessageRecord& row) {
  if (row.role == "tool_call" || row.role == "tool_result") return row.role;
  return "message";
}

bool IsErrorResult(std::string_view content) { return content.starts_with(R"({"error":)"); }

// The stored rows as the provider-neutral history: a tool call joins the assistant turn it
// belongs to; its result follows, fenced.
std::vector<ChatMessage> History(const std::vector<AgentMessageRecord>& rows,
                                 std::string_view nonce) {
  std::vector<ChatMessage> out;
  for (const AgentMessageRecord& row : rows) {
    if (row.role == "user") {
      out.push_back({ChatMessage::Role::kUser, row.content});
    } else if (row.role == "assistant") {
      out.push_back({ChatMessage::Role::kAssistant, row.content});
    } else if (row.role == "tool_call") {
      if (out.empty() || out.back().role != ChatMessage::Role::kAssistant) {
        out.push_back({ChatMessage::Role::kAssistant, ""});
      }
      out.back().tool_calls.push_back(
          {row.tool_call_id.value_or(""), row.tool_name.value_or(""), row.content});
    } else if (row.role == "tool_result") {
      ChatMessage result{ChatMessage::Role::kTool,
                         FenceToolOutput(row.tool_name.value_or(""), row.content, nonce)};
      result.tool_call_id = row.tool_call_id.value_or("");
      result.tool_name = row.tool_name.value_or("");
      result.is_error = IsErrorResult(row.content);
      out.push_back(std::move(result));
    }
  }
  return out;
}

std::string SystemPrompt(const storage::ProjectRecord& project, std::int64_t now,
                         std::string_view nonce) {
  return "You are Sightline's analytics assistant. You answer questions about one project, \"" +
         project.name +
         "\", for the signed-in user, using the tools: web analytics (visitors, "
         "pages, sources, countries, devices) and crawler analytics (which bots and AI crawlers "
         "fetch which pages, verified or spoofed). Report dates are in the project's reporting "
         "timezone, " +
         project.reporting_timezone + "; today is " + core::FormatRfc3339(now).substr(0, 10) +
         " (UTC). Answer from tool results only and never invent figures; say which period a "
         "figure covers. If a tool refuses for lack of permission, tell the user they do not "
         "have access to that data. Tools that change data run only after the user approves "
         "the call: propose one only when the user asked for that change. Be brief.\n\n" +
         FenceRule(nonce);
}

}  // namespace

struct AssistantService::Run {
  tools::AnswerRequest request;
  storage::ProjectRecord project;
  std::shared_ptr<AnswerEvents> events;  // streamed answers
  tools::ResultCallback done;            // JSON answers
  std::atomic<bool> cancel{false};
  std::chrono::steady_clock::time_point deadline;
  std::chrono::steady_clock::time_point next_store_check;
  std::string nonce;  // names the fences; the same for every turn of the conversation
  std::vector<AgentMessageRecord> added;
  std::optional<Error> failure;
  std::string stop_reason = "end";  // end, awaiting_approval, cancelled, time_limit, error
  std::string final_status = "idle";
  Usage usage;

  void Emit(std::string_view name, const json::object& data) {
    if (events) events->Push(name, data);
  }
};

AssistantService::AssistantService(std::unique_ptr<LlmProvider> provider,
                                   AssistantSettings settings, tools::Gate& gate,
                                   const tools::Registry& registry, storage::Store& store,
                                   const core::Clock& clock)
    : provider_(std::move(provider)),
      settings_(settings),
      gate_(gate),
      toolbox_(registry),
      store_(store),
      clock_(clock) {}

AssistantService::~AssistantService() { Shutdown(); }

void AssistantService::StopAnswers() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  for (auto& [id, run] : running_) run->cancel = true;
}

void AssistantService::Shutdown() {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  for (auto& [id, run] : running_) run->cancel = true;
  idle_.wait(lock, [&] { return running_.empty(); });
}

tools::AssistantStatus AssistantService::Status() const {
  if (!provider_) {
    return {false, "", "",
            "The assistant has no language model provider configured on this server, so it "
            "cannot answer. The operator sets one with --llm-provider, --llm-model and "
            "--llm-api-key (see docs/agent.md). Reports and the MCP server work without one."};
  }
  return {true, std::string(provider_->name()), provider_->model(),
          "The assistant answers with " + provider_->model() + " through the " +
              std::string(provider_->name()) + " API."};
}

Result<std::shared_ptr<AssistantService::Run>> AssistantService::Begin(
    tools::AnswerRequest request) {
  if (!provider_) {
    return Error(ErrorCode::kAgentNotConfigured,
                 "The assistant has no language model provider configured on this server.");
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || static_cast<int>(running_.size()) >= settings_.max_running) {
      return Error(ErrorCode::kUnavailable,
                   "The assistant is answering too many questions on this server; retry shortly.");
    }
  }
  auto run = std::make_shared<Run>();
  const std::int64_t now = clock_.NowMillis();
  // An answer older than its time limit (and a minute's grace) died with its node.
  const std::int64_t stale_before =
      now - std::chrono::duration_cast<std::chrono::milliseconds>(settings_.max_duration).count() -
      60'000;
  auto begun = store_.Write([&](storage::Transaction& tx) -> Result<void> {
    auto project = tx.accounts().FindProject(request.project_id);
    if (!project) return project.error();
    if (!*project) return Error(ErrorCode::kProjectNotFound, "Project not found.");
    run->project = std::move(**project);
    auto claimed = tx.agent().ClaimAgentConversation(request.conversation_id, now, stale_before);
    if (!claimed) return claimed.error();
    if (!*claimed) {
      return Error(ErrorCode::kAgentBusy,
                   "The assistant is still answering in this conversation; wait for the answer "
                   "or cancel it.");
    }
    auto rows = tx.agent().ListAgentMessages(request.conversation_id);
    if (!rows) return rows.error();
    for (const AgentMessageRecord& row : *rows) {
      if (row.approval != "pending") continue;
      if (request.content.empty()) {
        return Error(ErrorCode::kAgentBusy, "A proposed tool call still waits for a decision.");
      }
      // A new question instead of a decision declines what was proposed.
      auto declined =
          tx.agent().DecideAgentToolCall(request.conversation_id, *row.tool_call_id, "rejected");
      if (!declined) return declined.error();
      AgentMessageRecord result{request.conversation_id,
                                0,
                                core::NewUuidV7(now),
                                "tool_result",
                                std::string(kDeclinedByNewMessage),
                                row.tool_call_id,
                                row.tool_name};
      result.created_at = now;
      auto stored = tx.agent().AppendAgentMessage(std::move(result));
      if (!stored) return stored.error();
      run->added.push_back(std::move(*stored));
    }
    if (!request.content.empty()) {
      // An untitled conversation takes its first question as its title.
      if (const std::string title = TitleFrom(request.content); !title.empty()) {
        auto titled = tx.agent().TitleAgentConversation(request.conversation_id, title,
                                                        tools::kUntitledConversation);
        if (!titled) return titled.error();
      }
      AgentMessageRecord question{request.conversation_id, 0, core::NewUuidV7(now), "user",
                                  request.content};
      question.created_at = now;
      auto stored = tx.agent().AppendAgentMessage(std::move(question));
      if (!stored) return stored.error();
      run->added.push_back(std::move(*stored));
    }
    return {};
  });
  if (!begun) return begun.error();
  // Stable per conversation, so that the prompt's prefix (system prompt and history) is
  // byte-identical across turns and providers' prompt caches hit; unguessable, since it is keyed
  // by a secret of this process (another node fences with another nonce, which is as safe).
  run->nonce = core::HexEncode(core::HmacSha256(nonce_key_, request.conversation_id)).substr(0, 16);
  run->request = std::move(request);
  run->deadline = std::chrono::steady_clock::now() + settings_.max_duration;
  return run;
}

void AssistantService::Launch(std::shared_ptr<Run> run) {
  {
    std::lock_guard lock(mutex_);
    running_[run->request.conversation_id] = run;
  }
  std::thread([this, run] {
    try {
      Produce(*run);
    } catch (const std::exception& e) {
      // A bug must not take the server down from a background thread: the answer fails.
      core::Log(core::LogLevel::kError, "agent answer crashed", {{"reason", e.what()}});
      run->failure = Error::Internal(e.what());
      run->stop_reason = "error";
      Finish(*run);
    }
    std::lock_guard lock(mutex_);
    running_.erase(run->request.conversation_id);
    idle_.notify_all();
  }).detach();
}

void AssistantService::Answer(tools::AnswerRequest request, tools::ResultCallback done) {
  auto run = Begin(std::move(request));
  if (!run) return done(run.error());
  (*run)->done = std::move(done);
  Launch(std::move(*run));
}

Result<std::shared_ptr<core::ResponseStream>> AssistantService::AnswerStreaming(
    tools::AnswerRequest request) {
  auto run = Begin(std::move(request));
  if (!run) return run.error();
  auto events = std::make_shared<AnswerEvents>();
  (*run)->events = events;
  for (const AgentMessageRecord& row : (*run)->added) {
    events->Push(EventName(row), tools::AgentMessageView(row));
  }
  Launch(std::move(*run));
  return std::shared_ptr<core::ResponseStream>(std::make_shared<AnswerStream>(events));
}

Result<void> AssistantService::Cancel(const std::string& conversation_id) {
  {
    std::lock_guard lock(mutex_);
    if (auto found = running_.find(conversation_id); found != running_.end()) {
      found->second->cancel = true;
    }
  }
  // For an answer running on another node, which polls for it.
  auto asked = store_.Write(
      [&](storage::Transaction& tx) { return tx.agent().RequestAgentCancel(conversation_id); });
  if (!asked) return asked.error();
  return {};
}

bool AssistantService::Cancelled(Run& run) {
  const auto now = std::chrono::steady_clock::now();
  if (now >= run.deadline) return true;
  if (!run.cancel && now >= run.next_store_check) {
    run.next_store_check = now + std::chrono::seconds(1);
    auto conversation = store_.Read([&](storage::Transaction& tx) {
      return tx.agent().FindAgentConversation(run.request.conversation_id);
    });
    // Gone (deleted meanwhile) or asked to stop.
    if (conversation && (!*conversation || (*conversation)->status == "canceling")) {
      run.cancel = true;
    }
  }
  return run.cancel;
}

Result<AgentMessageRecord> AssistantService::Store(Run& run, AgentMessageRecord message,
                                                   std::optional<storage::AuditRecord> audit) {
  message.conversation_id = run.request.conversation_id;
  message.created_at = clock_.NowMillis();
  message.id = core::NewUuidV7(message.created_at);
  auto stored = store_.Write([&](storage::Transaction& tx) -> Result<AgentMessageRecord> {
    auto appended = tx.agent().AppendAgentMessage(std::move(message));
    if (!appended) return appended;
    if (audit) {
      auto logged = tx.accounts().InsertAudit(*audit);
      if (!logged) return logged.error();
    }
    return appended;
  });
  if (!stored) return stored;
  run.added.push_back(*stored);
  run.Emit(EventName(*stored), tools::AgentMessageView(*stored));
  return stored;
}

void AssistantService::RunToolCall(Run& run, const AgentMessageRecord& call) {
  const std::string name = call.tool_name.value_or("");
  const AgentTool* tool = toolbox_.Find(name);
  std::string content;
  std::string outcome = "ok";
  boost::system::error_code ec;
  json::value arguments = json::parse(call.content.empty() ? "{}" : call.content, ec);
  if (!tool) {
    content =
        ErrorJson(Error(ErrorCode::kResourceNotFound, "There is no tool named '" + name + "'."));
    outcome = "unknown_tool";
  } else if (ec || !arguments.is_object()) {
    content = ErrorJson(Error::Invalid("arguments", "The arguments are not a JSON object."));
    outcome = "VAL_003";
  } else {
    // The principal is bound to the conversation's organization and project (Gate::ActingIn):
    // the dispatcher writes them over whatever the model sent. The call counts in the caller's
    // window like any REST request or MCP tools/call.
    const tools::RequestMeta meta{run.request.request_id, "", std::nullopt, nullptr,
                                  tools::Caller::kModel};
    auto result =
        gate_.CallAndWait(*tool->operation, run.request.principal, arguments.as_object(), meta);
    if (result) {
      content = result->is_null() ? std::string(R"({"done":true})") : core::ToJson(*result);
    } else {
      content = ErrorJson(result.error());
      outcome = std::string(result.error().info().id);
    }
  }
  storage::AuditRecord audit;
  audit.created_at = clock_.NowMillis();
  audit.id = core::NewUuidV7(audit.created_at);
  audit.organization_id = run.request.organization_id;
  audit.project_id = run.request.project_id;
  audit.actor_user_id = run.request.principal.user_id;
  audit.credential_kind = std::string(identity::CredentialKindName(run.request.principal.kind));
  if (!run.request.principal.credential_id.empty()) {
    audit.credential_id = run.request.principal.credential_id;
  }
  audit.action = "agent.tool_call";
  audit.target_type = "agent_conversation";
  audit.target_id = run.request.conversation_id;
  audit.request_id = run.request.request_id;
  json::object details{
      {"tool", name}, {"toolCallId", call.tool_call_id.value_or("")}, {"outcome", outcome}};
  if (call.approval) details["approval"] = *call.approval;
  audit.details_json = core::ToJson(details);
  AgentMessageRecord result;
  result.role = "tool_result";
  result.content = std::move(content);
  result.tool_call_id = call.tool_call_id;
  result.tool_name = call.tool_name;
  auto stored = Store(run, std::move(result), std::move(audit));
  if (!stored) run.failure = stored.error();
}

// Tool calls still without a result: those the user decided on while the answer waited (the
// approved run now, the rejected get a result saying so) and, when the answer is stopping,
// every other one, so that the history stays well formed (each call answered).
void AssistantService::AnswerOpenCalls(Run& run, bool stopping) {
  auto rows = store_.Read([&](storage::Transaction& tx) {
    return tx.agent().ListAgentMessages(run.request.conversation_id);
  });
  if (!rows) {
    run.failure = rows.error();
    return;
  }
  std::set<std::string> answered;
  for (const AgentMessageRecord& row : *rows) {
    if (row.role == "tool_result" && row.tool_call_id) answered.insert(*row.tool_call_id);
  }
  for (const AgentMessageRecord& row : *rows) {
    if (row.role != "tool_call" || !row.tool_call_id || answered.contains(*row.tool_call_id) ||
        row.approval == "pending") {
      continue;
    }
    if (row.approval == "approved" && !stopping) {
      RunToolCall(run, row);
      if (run.failure) return;
      continue;
    }
    AgentMessageRecord result;
    result.role = "tool_result";
    result.content = std::string(row.approval == "rejected" ? kDeclined : kNotRun);
    result.tool_call_id = row.tool_call_id;
    result.tool_name = row.tool_name;
    if (auto stored = Store(run, std::move(result)); !stored) {
      run.failure = stored.error();
      return;
    }
  }
}

// The turn's request: the conversation so far and, unless it is the last turn, the tools the
// caller may use now in the conversation's project.
Result<ChatRequest> AssistantService::TurnRequest(Run& run, bool last) {
  auto permissions = gate_.dispatcher().PermissionsIn(
      run.request.principal, run.request.organization_slug, run.request.project_id);
  if (!permissions) return permissions.error();
  auto rows = store_.Read([&](storage::Transaction& tx) {
    return tx.agent().ListAgentMessages(run.request.conversation_id);
  });
  if (!rows) return rows.error();
  ChatRequest request;
  request.system = SystemPrompt(run.project, clock_.NowMillis(), run.nonce);
  request.messages = History(*rows, run.nonce);
  if (!last) {
    request.tools = toolbox_.Offer(run.request.principal, *permissions);
  } else {
    request.system += "\n\nThis is your last turn: answer now with what you have, without tools.";
  }
  request.max_tokens = settings_.max_tokens;
  request.stream = run.events != nullptr;
  return request;
}

// The model's reply, streamed to the run's events; nullopt when the run stops here (cancelled,
// out of time, or failed: the run says which).
std::optional<ChatReply> AssistantService::AskModel(Run& run, const ChatRequest& request) {
  auto reply = provider_->Complete(
      request,
      [&](std::string_view text) {
        run.Emit("text_delta", {{"text", text}});
      },
      [&] { return Cancelled(run); });
  if (reply) {
    if (reply->usage.input_tokens) {
      run.usage.input_tokens = run.usage.input_tokens.value_or(0) + *reply->usage.input_tokens;
    }
    if (reply->usage.output_tokens) {
      run.usage.output_tokens = run.usage.output_tokens.value_or(0) + *reply->usage.output_tokens;
    }
    return std::move(*reply);
  }
  if (run.cancel) {
    run.stop_reason = "cancelled";
  } else if (std::chrono::steady_clock::now() >= run.deadline) {
    run.stop_reason = "time_limit";
  } else {
    run.failure = reply.error();
  }
  return std::nullopt;
}

// Stores the reply's text (when it has some, or no calls) and its tool calls (writes pending
// approval), the turn's token usage on its first row: the stored calls.
Result<std::vector<AgentMessageRecord>> AssistantService::RecordReply(Run& run, ChatReply& reply,
                                                                      bool last) {
  std::optional<Usage> unrecorded = reply.usage;
  auto take_usage = [&](AgentMessageRecord& row) {
    if (!unrecorded) return;
    row.input_tokens = unrecorded->input_tokens;
    row.output_tokens = unrecorded->output_tokens;
    unrecorded.reset();
  };
  if (!reply.text.empty() || reply.tool_calls.empty()) {
    AgentMessageRecord text;
    text.role = "assistant";
    text.content = reply.text;
    take_usage(text);
    if (auto stored = Store(run, std::move(text)); !stored) return stored.error();
  }
  std::vector<AgentMessageRecord> calls;
  if (last) return calls;
  for (ToolCall& call : reply.tool_calls) {
    AgentMessageRecord row;
    row.role = "tool_call";
    row.content = std::move(call.arguments);
    row.tool_call_id = call.id.empty() ? "call_" + core::RandomBase62(16) : call.id;
    row.tool_name = std::move(call.name);
    const AgentTool* tool = toolbox_.Find(*row.tool_name);
    if (tool && tool->needs_approval) row.approval = "pending";
    take_usage(row);
    auto stored = Store(run, std::move(row));
    if (!stored) return stored.error();
    calls.push_back(std::move(*stored));
  }
  return calls;
}

// Runs the calls that need no approval and announces the others; whether the answer goes on.
bool AssistantService::ActOnCalls(Run& run, const std::vector<AgentMessageRecord>& calls) {
  bool waiting = false;
  for (const AgentMessageRecord& call : calls) {
    if (call.approval == "pending") {
      waiting = true;
      run.Emit("approval_required", {{"toolCallId", *call.tool_call_id},
                                     {"toolName", *call.tool_name},
                                     {"arguments", call.content}});
      continue;
    }
    if (Cancelled(run)) break;
    RunToolCall(run, call);
    if (run.failure) return false;
  }
  if (waiting) {
    run.stop_reason = "awaiting_approval";
    run.final_status = "awaiting_approval";
    return false;
  }
  return true;
}

// One model turn; whether the answer goes on to another.
bool AssistantService::Step(Run& run, int step) {
  const bool last = step + 1 >= settings_.max_steps;
  auto request = TurnRequest(run, last);
  if (!request) {
    run.failure = request.error();
    return false;
  }
  auto reply = AskModel(run, *request);
  if (!reply) return false;
  auto calls = RecordReply(run, *reply, last);
  if (!calls) {
    run.failure = calls.error();
    return false;
  }
  return !calls->empty() && ActOnCalls(run, *calls);
}

void AssistantService::Produce(Run& run) {
  AnswerOpenCalls(run, /*stopping=*/false);
  for (int step = 0; !run.failure && step < settings_.max_steps; ++step) {
    if (Cancelled(run)) {
      run.stop_reason = run.cancel ? "cancelled" : "time_limit";
      break;
    }
    if (!Step(run, step)) break;
  }
  if (run.stop_reason == "cancelled" || run.stop_reason == "time_limit" || run.failure) {
    const std::optional<Error> failure = run.failure;
    AnswerOpenCalls(run, /*stopping=*/true);
    if (failure) run.failure = failure;
  }
  Finish(run);
}

void AssistantService::Finish(Run& run) {
  if (run.failure) run.stop_reason = "error";
  const std::int64_t now = clock_.NowMillis();
  auto conversation =
      store_.Write([&](storage::Transaction& tx) -> Result<storage::AgentConversationRecord> {
        auto ended = tx.agent().SetAgentConversationStatus(run.request.conversation_id,
                                                           run.final_status, now);
        if (!ended) return ended.error();
        auto found = tx.agent().FindAgentConversation(run.request.conversation_id);
        if (!found) return found.error();
        if (!*found) return Error(ErrorCode::kResourceNotFound, "The conversation was deleted.");
        return std::move(**found);
      });
  if (run.failure) {
    core::Log(core::LogLevel::kWarn, "agent answer failed",
              {{"conversation", run.request.conversation_id},
               {"code", std::string(run.failure->info().id)},
               {"reason", run.failure->message()}});
    run.Emit("error", core::ErrorResponseBody(*run.failure, now, run.request.request_id));
  }
  const tools::AgentAnswerEnd end{conversation ? tools::AgentConversationView(*conversation)
                                               : json::object{{"id", run.request.conversation_id}},
                                  run.stop_reason, run.usage.input_tokens, run.usage.output_tokens};
  run.Emit("done", tools::AgentDoneEvent(end));
  if (run.events) run.events->Close();
  if (!run.done) return;
  if (run.failure) return run.done(*run.failure);
  if (!conversation) return run.done(conversation.error());
  run.done(json::value(tools::AgentAnswerView(end, run.added)));
}

}  // namespace sightline::agent
