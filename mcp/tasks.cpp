// Long-running tools as MCP tasks (mcp/mcp_server.h), in both eras:
// - 2026-07-28, the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a client that
//   declares it in a request's capabilities gets `resultType: "task"` from a long-running tool,
//   then polls tasks/get (the result inlined once terminal) and may send tasks/cancel and
//   tasks/update (acknowledged: these tasks never ask for input).
// - 2025-11-25, the experimental tasks: a client asks with `task` on tools/call and gets
//   `{task}`, then tasks/get, tasks/result (held open until the job ends) and tasks/cancel.
// A task is the operation's job and nothing else: its id is sealed (mcp/task_handles.h) and
// every task request calls the job's status or cancel operation through the dispatcher, with
// the caller's credential and live permissions, exactly as a tools/call of it would.
#include "mcp/mcp_server.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "core/logging.h"
#include "mcp/answers.h"
#include "mcp/task_handles.h"
#include "mcp/task_views.h"
#include "mcp/tool_results.h"
#include "storage/account_repository.h"

#include <chrono>

namespace sightline::mcp {

namespace json = boost::json;
using core::Error;
using core::HttpResponse;
using core::Result;

// What a task request needs after the HTTP request is gone (a tasks/result held open, a cancel
// after the status read): copies of who asks, and the task's operations.
struct TaskCall {
  TaskCall(const McpCall& call, Era era, const Message& message)
      : principal(call.principal),
        request_id(call.meta.request_id),
        client_ip(call.meta.client_ip),
        era(era),
        method(message.method),
        id(message.id) {
    meta.request_id = request_id;
    meta.client_ip = client_ip;
    meta.user_agent = call.meta.user_agent;
    meta.caller = call.meta.caller;
  }
  TaskCall(const TaskCall&) = delete;
  TaskCall& operator=(const TaskCall&) = delete;

  const identity::Principal principal;
  const std::string request_id;
  const std::string client_ip;
  tools::RequestMeta meta;  // views into the strings above; no headers
  const Era era;
  const std::string method;
  const json::value id;
  std::string task_id;
  TaskHandle handle;
  const tools::LongRunning* long_running = nullptr;
  const Tool* status = nullptr;
  const Tool* cancel = nullptr;  // null when the job cannot be cancelled

  json::object JobArguments() const {
    return {{long_running->id_argument, handle.job_id}};
  }
};

namespace {

// The server secret task ids are sealed with.
constexpr std::string_view kTaskKeyName = "mcp_task_key";
// The only legacy revision with tasks.
constexpr std::string_view kLegacyTasksVersion = "2025-11-25";
// A tasks/result held open says it is still there this often (polls of kTaskPollIntervalMs).
constexpr int kKeepAliveEvery = 10;

// A failed or cancelled job is the tool's error: its JSON as text, without structuredContent
// (which clients check against the tool's output schema only on success).
json::object JobResult(const Tool& status_tool, json::value job, JobState state,
                       std::int64_t now, std::string_view request_id) {
  json::object result = ToolResult(status_tool, std::move(job), now, request_id);
  if (state != JobState::kCompleted) {
    result.erase("structuredContent");
    result["isError"] = true;
  }
  return result;
}

// A refusal of the status or cancel operation, as the task request's JSON-RPC error: the task
// is unknown (404s, which is also how another project's job reads) or unavailable to this
// caller now (-32602, the API's error body as data), or the server failed (-32603).
json::object TaskError(const TaskCall& task, const Error& error, std::int64_t now) {
  if (error.code() == core::ErrorCode::kInternal) {
    core::Log(core::LogLevel::kError, "task request failed",
              {{"requestId", task.request_id},
               {"method", task.method},
               {"internal", error.internal()}});
  }
  const bool internal = error.code() == core::ErrorCode::kInternal;
  const std::string message =
      error.http_status() == 404 ? "Task not found: " + error.message() : error.message();
  return ErrorMessage(task.id, internal ? rpc::kInternalError : rpc::kInvalidParams, message,
                      core::ErrorResponseBody(error, now, task.request_id));
}

// 2025-11-25's tasks/result on a task still working: the answer waits, as the protocol
// requires, on an event stream that reads the job every poll interval until it ends.
class TaskResultStream final : public core::ResponseStream {
 public:
  using Finish = std::function<json::object(Result<json::value>)>;
  TaskResultStream(tools::Dispatcher& dispatcher, std::shared_ptr<TaskCall> task, Finish finish)
      : dispatcher_(dispatcher), task_(std::move(task)), finish_(std::move(finish)) {}
  std::chrono::milliseconds poll_interval() const override {
    return std::chrono::milliseconds(kTaskPollIntervalMs);
  }
  std::optional<std::string> Poll() override {
    if (finished_) return std::nullopt;
    Result<json::value> job = dispatcher_.Call(*task_->status->operation, task_->principal,
                                               task_->JobArguments(), task_->meta);
    const auto state = job ? JobStateOf(*job) : std::nullopt;
    if (!job || !state || IsTerminal(*state)) {
      finished_ = true;
      return SseEvent(finish_(std::move(job)));
    }
    if (++quiet_polls_ < kKeepAliveEvery) return std::string();
    quiet_polls_ = 0;
    return std::string(": the task is still working\n\n");
  }

 private:
  tools::Dispatcher& dispatcher_;
  std::shared_ptr<TaskCall> task_;
  Finish finish_;
  bool finished_ = false;
  int quiet_polls_ = 0;
};

HttpResponse TaskResultStreamAnswer(std::shared_ptr<core::ResponseStream> stream) {
  HttpResponse response;
  response.headers.Set("Content-Type", "text/event-stream");
  response.headers.Set("Cache-Control", "no-cache");
  response.headers.Set("X-Accel-Buffering", "no");
  response.stream = std::move(stream);
  return response;
}

}  // namespace

bool McpServer::TasksFor(Era era, std::string_view protocol_version,
                         const json::object& client_capabilities) const {
  if (!catalog_.offers_tasks()) return false;
  return era == Era::kModern ? DeclaresTasks(client_capabilities)
                             : protocol_version == kLegacyTasksVersion;
}

void McpServer::AddTaskCapabilities(json::object& capabilities, Era era) const {
  if (!catalog_.offers_tasks()) return;
  if (era == Era::kModern) {
    json::value& extensions = capabilities["extensions"];
    if (!extensions.is_object()) extensions = json::object();
    extensions.as_object()[kTasksExtension] = json::object();
    return;
  }
  // No `list`: a task is found by its id alone (listing would need state kept per caller).
  json::object tasks{{"requests", json::object{{"tools", json::object{{"call", json::object()}}}}}};
  if (catalog_.offers_task_cancel()) tasks["cancel"] = json::object();
  capabilities["tasks"] = std::move(tasks);
}

Result<std::string> McpServer::TaskKey() {
  std::lock_guard lock(task_key_mutex_);
  if (!task_key_.empty()) return task_key_;
  const std::string candidate = core::Base64UrlEncode(core::RandomBytes(32));
  auto key = store_.Write([&](storage::Transaction& tx) {
    return tx.accounts().GetOrCreateSecret(kTaskKeyName, candidate, clock_.NowMillis());
  });
  if (!key) return key.error();
  task_key_ = std::move(*key);
  return task_key_;
}

void McpServer::StartTask(const McpCall& call, const RequestContext& context, const Tool& tool,
                          const json::value& id, const json::object& arguments, McpDone done) {
  auto key = TaskKey();
  if (!key) {
    core::Log(core::LogLevel::kError, "task key unavailable",
              {{"requestId", call.meta.request_id}, {"internal", key.error().internal()}});
    return done(JsonAnswer(
        ErrorMessage(id, rpc::kInternalError, "Tasks are unavailable right now: try again.")));
  }
  dispatcher_.CallAsync(
      *tool.operation, call.principal, arguments, call.meta,
      [this, &tool, era = context.era, id, key = std::move(*key),
       credential = identity::CredentialName(call.principal),
       request_id = std::string(call.meta.request_id),
       done = std::move(done)](Result<json::value> result) {
        const std::int64_t now = clock_.NowMillis();
        const json::value* job_id =
            result && result->is_object() ? result->as_object().if_contains("id") : nullptr;
        if (!result || !JobStateOf(*result) || !job_id || !job_id->is_string()) {
          // Refused (no job was started), or not a job after all: the tool's own answer.
          json::object answer = ToolResult(tool, std::move(result), now, request_id);
          if (era == Era::kModern) MarkComplete(answer, server_info_);
          return done(JsonAnswer(ResultMessage(id, std::move(answer))));
        }
        const TaskHandle handle{std::string(tool.operation->spec->name),
                                std::string(job_id->as_string()), now};
        json::object task = TaskObject(era, SealTaskId(key, handle, credential), handle,
                                       result->as_object());
        json::object answer;
        if (era == Era::kModern) {
          answer = std::move(task);
          MarkComplete(answer, server_info_);
          answer["resultType"] = "task";
        } else {
          answer["task"] = std::move(task);
          answer["_meta"] = json::object{
              {kImmediateResponseMeta,
               std::string(tool.operation->spec->name) + " started job " + handle.job_id +
                   " in the background; its result comes when the task completes."}};
        }
        done(JsonAnswer(ResultMessage(id, std::move(answer))));
      });
}

bool McpServer::AnswerTask(const McpCall& call, const RequestContext& context,
                           const Message& message, McpDone& done) {
  const std::string& method = message.method;
  const bool modern = context.era == Era::kModern;
  const bool known = method == "tasks/get" || method == "tasks/cancel" ||
                     method == (modern ? "tasks/update" : "tasks/result");
  if (!catalog_.offers_tasks() || !known) return false;
  const json::value& id = message.id;
  if (!context.tasks) {
    if (!modern) return false;  // a session before 2025-11-25: no such method
    done(RpcAnswer(Refuse(
        400, id, rpc::kMissingCapability,
        "Declare the io.modelcontextprotocol/tasks extension in this request's capabilities.",
        json::object{{"requiredCapabilities",
                      json::object{{"extensions",
                                    json::object{{kTasksExtension, json::object()}}}}}})));
    return true;
  }
  const json::value* task_id = message.params.if_contains("taskId");
  if (!task_id || !task_id->is_string()) {
    done(JsonAnswer(ErrorMessage(id, rpc::kInvalidParams, method + " needs params.taskId")));
    return true;
  }
  auto key = TaskKey();
  if (!key) {
    done(JsonAnswer(ErrorMessage(id, rpc::kInternalError, "Tasks are unavailable right now.")));
    return true;
  }
  // A task of another credential reads exactly as one that does not exist.
  const auto handle =
      OpenTaskId(*key, task_id->as_string(), identity::CredentialName(call.principal));
  const Tool* start = handle ? catalog_.Find(handle->operation) : nullptr;
  if (!start || !start->task_support) {
    done(JsonAnswer(ErrorMessage(id, rpc::kInvalidParams, "Task not found.")));
    return true;
  }
  auto task = std::make_shared<TaskCall>(call, context.era, message);
  task->task_id = std::string(task_id->as_string());
  task->handle = *handle;
  task->long_running = start->operation->spec->long_running;
  task->status = catalog_.Find(task->long_running->status_operation);
  if (!task->long_running->cancel_operation.empty()) {
    task->cancel = catalog_.Find(task->long_running->cancel_operation);
  }
  // The same step-up as tools/call, for the operation this request will call.
  const Tool* called = method == "tasks/cancel" && task->cancel ? task->cancel : task->status;
  if (auto step_up = tools::Gate::StepUp(*called->operation->spec, call.principal)) {
    done(*step_up);
    return true;
  }
  AnswerOpenedTask(std::move(task), std::move(done));
  return true;
}

json::object McpServer::TaskOutcome(const TaskCall& task, Result<json::value> job) const {
  const std::int64_t now = clock_.NowMillis();
  if (!job) return TaskError(task, job.error(), now);
  const auto state = JobStateOf(*job);
  if (!state) {
    return TaskError(task, Error::Internal("the status operation answered without a job"), now);
  }
  if (task.method == "tasks/update") {  // nothing is ever asked of the client: acknowledged
    json::object ack;
    MarkComplete(ack, server_info_);
    return ResultMessage(task.id, std::move(ack));
  }
  if (task.method == "tasks/result") {
    json::object result = JobResult(*task.status, std::move(*job), *state, now, task.request_id);
    result["_meta"] = json::object{{kRelatedTaskMeta, json::object{{"taskId", task.task_id}}}};
    return ResultMessage(task.id, std::move(result));
  }
  json::object result = TaskObject(task.era, task.task_id, task.handle, job->as_object());
  if (task.era == Era::kModern) {
    // Terminal: the tool's result inlined (a cancelled task has none).
    if (IsTerminal(*state) && *state != JobState::kCancelled) {
      json::object inlined =
          JobResult(*task.status, std::move(*job), *state, now, task.request_id);
      MarkComplete(inlined, server_info_);
      result["result"] = std::move(inlined);
    }
    MarkComplete(result, server_info_);
  }
  return ResultMessage(task.id, std::move(result));
}

void McpServer::AnswerOpenedTask(std::shared_ptr<TaskCall> task, McpDone done) {
  dispatcher_.CallAsync(
      *task->status->operation, task->principal, task->JobArguments(), task->meta,
      [this, task, done = std::move(done)](Result<json::value> job) mutable {
        const auto state = job ? JobStateOf(*job) : std::nullopt;
        if (state && task->method == "tasks/cancel") {
          return CancelTask(task, std::move(*job), std::move(done));
        }
        if (state && !IsTerminal(*state) && task->method == "tasks/result") {
          auto finish = [this, task](Result<json::value> last) {
            return TaskOutcome(*task, std::move(last));
          };
          return done(TaskResultStreamAnswer(
              std::make_shared<TaskResultStream>(dispatcher_, task, std::move(finish))));
        }
        done(JsonAnswer(TaskOutcome(*task, std::move(job))));
      });
}

void McpServer::CancelTask(std::shared_ptr<TaskCall> task, json::value job, McpDone done) {
  const JobState state = *JobStateOf(job);
  const bool modern = task->era == Era::kModern;
  // 2026-07-28 acknowledges every cancel of a known task (cooperative, idempotent); 2025-11-25
  // refuses one that cannot take effect.
  auto ack = [this, task] {
    json::object result;
    MarkComplete(result, server_info_);
    return JsonAnswer(ResultMessage(task->id, std::move(result)));
  };
  auto refuse = [task](std::string message) {
    return JsonAnswer(ErrorMessage(task->id, rpc::kInvalidParams, message));
  };
  if (IsTerminal(state) || !task->cancel) {
    if (modern) return done(ack());
    return done(refuse(IsTerminal(state) ? "Cannot cancel task: already in terminal status '" +
                                               std::string(TaskStatusName(task->era, state)) +
                                               "'."
                                         : "This task cannot be cancelled."));
  }
  dispatcher_.CallAsync(
      *task->cancel->operation, task->principal, task->JobArguments(), task->meta,
      [this, task, modern, ack, refuse, job = std::move(job),
       done = std::move(done)](Result<json::value> cancelled) {
        if (!cancelled && cancelled.error().http_status() == 409) {  // it ended meanwhile
          return done(modern ? ack() : refuse("Cannot cancel task: it has already ended."));
        }
        if (!cancelled) {
          return done(JsonAnswer(TaskError(*task, cancelled.error(), clock_.NowMillis())));
        }
        if (modern) return done(ack());
        // 2025-11-25 answers with the task as the cancel operation left it.
        const json::value& now_job = JobStateOf(*cancelled) ? *cancelled : job;
        done(JsonAnswer(ResultMessage(
            task->id, TaskObject(Era::kLegacy, task->task_id, task->handle, now_job.as_object()))));
      });
}

}  // namespace sightline::mcp
