// Long-running tools as MCP tasks, in both eras (mcp/tasks.cpp): sealed task ids
// (mcp/task_handles.h), jobs read as tasks (mcp/task_views.h), and the whole server over a
// registry of test-only operations (a job started, read and cancelled by three operations).
#include "features/all_operations.h"
#include "mcp/task_handles.h"
#include "mcp/task_views.h"

#include "core/clock.h"
#include "identity/authenticator.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "mcp/mcp_server.h"
#include "mcp/tool_catalog.h"
#include "tests/unit/testing/schema_documents.h"
#include "tests/unit/testing/temp_store.h"
#include "tools/dispatch.h"
#include "tools/gate.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <map>
#include <mutex>

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using identity::CredentialKind;
using identity::Permission;

// ---- The test-only operations: a job table behind start, get and cancel.

struct JobTable {
  std::mutex mutex;
  std::map<std::string, json::object> jobs;
  int next = 0;
};

JobTable& Jobs() {
  static JobTable table;
  return table;
}

void SetJob(const std::string& id, std::string_view status, std::string_view error = "") {
  std::lock_guard lock(Jobs().mutex);
  json::object& job = Jobs().jobs.at(id);
  job["status"] = status;
  job["error"] = error;
  if (status == "running") job["progress"] = json::object{{"done", 3}, {"total", 10}};
  if (status != "queued" && status != "running") job["finishedAt"] = "2027-01-15T08:05:00Z";
}

core::Result<json::value> StartJob(tools::OperationContext& context, const json::object&) {
  std::lock_guard lock(Jobs().mutex);
  const std::string id = "job-" + std::to_string(++Jobs().next);
  json::object job{{"id", id},
                   {"status", "queued"},
                   {"createdAt", core::FormatRfc3339(context.clock.NowMillis())},
                   {"finishedAt", nullptr},
                   {"error", ""}};
  Jobs().jobs[id] = job;
  return json::value(std::move(job));
}

core::Result<json::value> GetJob(tools::OperationContext&, const json::object& args) {
  std::lock_guard lock(Jobs().mutex);
  const auto found = Jobs().jobs.find(std::string(args.at("jobId").as_string()));
  if (found == Jobs().jobs.end()) {
    return core::Error(core::ErrorCode::kResourceNotFound, "No such job.");
  }
  return json::value(found->second);
}

core::Result<json::value> CancelJob(tools::OperationContext&, const json::object& args) {
  std::lock_guard lock(Jobs().mutex);
  const auto found = Jobs().jobs.find(std::string(args.at("jobId").as_string()));
  if (found == Jobs().jobs.end()) {
    return core::Error(core::ErrorCode::kResourceNotFound, "No such job.");
  }
  json::object& job = found->second;
  if (job.at("status") != "queued" && job.at("status") != "running") {
    return core::Error(core::ErrorCode::kConflict, "The job has ended.");
  }
  job["status"] = "cancelled";
  return json::value(job);
}

core::Result<json::value> Echo(tools::OperationContext&, const json::object&) {
  return json::value(json::object{{"ok", true}});
}

constexpr std::string_view kNoArguments = R"({"type":"object","properties":{}})";
constexpr std::string_view kJobArguments =
    R"({"type":"object","properties":{"jobId":{"type":"string"}},"required":["jobId"]})";
constexpr std::string_view kJob = R"({"type":"object","properties":{
    "id":{"type":"string"},"status":{"type":"string"},"createdAt":{"type":"string"},
    "finishedAt":{"type":"string","nullable":true},"error":{"type":"string"}}})";

constexpr tools::LongRunning kCancellable{"get_test_job", "jobId", "cancel_test_job"};
constexpr tools::LongRunning kUncancellable{"get_test_job", "jobId", ""};

const tools::OperationSpec kOperations[] = {
    {.name = "start_test_job", .summary = "Start a test job", .tag = "Tests",
     .method = core::HttpMethod::kPost, .path = "/tests/jobs",
     .permission = Permission::kProjectManage,
     .effect = tools::Effect::kWrite, .credentials = CredentialKind::kPrivateApiKey,
     .success_status = 202, .long_running = &kCancellable, .run = StartJob},
    {.name = "start_fixed_job", .summary = "Start a job that cannot be cancelled",
     .tag = "Tests", .method = core::HttpMethod::kPost, .path = "/tests/fixed-jobs",
     .permission = Permission::kProjectManage, .effect = tools::Effect::kWrite,
     .credentials = CredentialKind::kPrivateApiKey, .success_status = 202,
     .long_running = &kUncancellable, .run = StartJob},
    {.name = "get_test_job", .summary = "Read a test job", .tag = "Tests",
     .method = core::HttpMethod::kGet, .path = "/tests/jobs/{jobId}",
     .permission = Permission::kAnalyticsView, .effect = tools::Effect::kReadOnly,
     .credentials = CredentialKind::kPrivateApiKey, .run = GetJob},
    {.name = "cancel_test_job", .summary = "Cancel a test job", .tag = "Tests",
     .method = core::HttpMethod::kPost, .path = "/tests/jobs/{jobId}/cancel",
     .permission = Permission::kProjectManage, .effect = tools::Effect::kIdempotentWrite,
     .credentials = CredentialKind::kPrivateApiKey, .run = CancelJob},
    {.name = "echo_test", .summary = "An ordinary tool", .tag = "Tests",
     .method = core::HttpMethod::kGet, .path = "/tests/echo",
     .permission = Permission::kAnalyticsView, .effect = tools::Effect::kReadOnly,
     .credentials = CredentialKind::kPrivateApiKey, .run = Echo},
};

const testutil::TestSchemaDocuments& TestSchemas() {
  static const testutil::TestSchemaDocuments documents(
      kOperations, {{"start_test_job", kNoArguments, kJob},
                    {"start_fixed_job", kNoArguments, kJob},
                    {"get_test_job", kJobArguments, kJob},
                    {"cancel_test_job", kJobArguments, kJob},
                    {"echo_test", kNoArguments,
                     R"({"type":"object","properties":{"ok":{"type":"boolean"}}})"}});
  return documents;
}

const ToolCatalog& TestCatalog() {
  static const tools::Registry registry = *tools::Registry::Build(kOperations, TestSchemas());
  static const ToolCatalog catalog(registry);
  return catalog;
}

// ---- Task ids and task views (pure).

TEST(McpTaskHandles, ASealedIdOpensOnlyWithItsKeyForItsCredential) {
  const TaskHandle handle{"start_site_crawl", "0190-abc", 1'800'000'000'000};
  const std::string id = SealTaskId("key-1", handle, "key:k1");
  const auto opened = OpenTaskId("key-1", id, "key:k1");
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->operation, "start_site_crawl");
  EXPECT_EQ(opened->job_id, "0190-abc");
  EXPECT_EQ(opened->created_at, 1'800'000'000'000);
  EXPECT_EQ(id.find("key:k1"), std::string::npos);  // the credential is not readable in the id

  EXPECT_FALSE(OpenTaskId("key-2", id, "key:k1"));      // another server's id
  EXPECT_FALSE(OpenTaskId("key-1", id, "grant:g1"));    // another credential's task
  std::string tampered = id;
  tampered[8] = tampered[8] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(OpenTaskId("key-1", tampered, "key:k1"));
  for (const char* bad : {"", "task1.", "task1..", "786512e2-9e0d-44bd", "task1.e30.x"}) {
    EXPECT_FALSE(OpenTaskId("key-1", bad, "key:k1")) << bad;
  }
}

TEST(McpTaskViews, JobStatesMapToEachErasTaskStatuses) {
  const auto state = [](std::string_view status) {
    return *JobStateOf(json::object{{"status", status}});
  };
  EXPECT_EQ(TaskStatusName(Era::kLegacy, state("queued")), "working");
  EXPECT_EQ(TaskStatusName(Era::kModern, state("running")), "working");
  EXPECT_EQ(TaskStatusName(Era::kLegacy, state("completed")), "completed");
  EXPECT_EQ(TaskStatusName(Era::kLegacy, state("failed")), "failed");
  // 2026-07-28 keeps `failed` for JSON-RPC errors: a failed job is a tool error.
  EXPECT_EQ(TaskStatusName(Era::kModern, state("failed")), "completed");
  EXPECT_EQ(TaskStatusName(Era::kModern, state("cancelled")), "cancelled");
  EXPECT_FALSE(JobStateOf(json::object{{"status", "paused"}}));
  EXPECT_FALSE(JobStateOf(json::object{{"id", "x"}}));
  EXPECT_FALSE(IsTerminal(state("running")));
  EXPECT_TRUE(IsTerminal(state("cancelled")));
}

TEST(McpTaskViews, ATaskCarriesTheJobsTimesAndTheErasFieldNames) {
  const TaskHandle handle{"start_test_job", "job-1", 1'800'000'000'000};
  const json::object job = json::parse(R"({"id":"job-1","status":"failed",
      "createdAt":"2027-01-15T08:00:00Z","startedAt":"2027-01-15T08:01:00Z",
      "finishedAt":"2027-01-15T08:09:30Z","error":"robots.txt answered 503"})").as_object();
  const json::object legacy = TaskObject(Era::kLegacy, "t-1", handle, job);
  EXPECT_EQ(legacy.at("taskId"), "t-1");
  EXPECT_EQ(legacy.at("status"), "failed");
  EXPECT_EQ(legacy.at("statusMessage"), "Failed: robots.txt answered 503");
  EXPECT_EQ(legacy.at("createdAt"), "2027-01-15T08:00:00.000Z");
  EXPECT_EQ(legacy.at("lastUpdatedAt"), "2027-01-15T08:09:30.000Z");
  EXPECT_TRUE(legacy.at("ttl").is_null());
  EXPECT_EQ(legacy.at("pollInterval"), kTaskPollIntervalMs);
  EXPECT_FALSE(legacy.contains("ttlMs"));

  const json::object modern = TaskObject(Era::kModern, "t-1", handle,
                                         json::parse(R"({"id":"job-1","status":"running",
      "progress":{"done":12,"total":40}})").as_object());
  EXPECT_EQ(modern.at("status"), "working");
  EXPECT_EQ(modern.at("statusMessage"), "Running: 12 of 40 done.");
  // No createdAt in the job: the task's own.
  EXPECT_EQ(modern.at("createdAt"), json::value(core::FormatRfc3339(1'800'000'000'000)));
  EXPECT_TRUE(modern.at("ttlMs").is_null());
  EXPECT_EQ(modern.at("pollIntervalMs"), kTaskPollIntervalMs);
  EXPECT_FALSE(modern.contains("ttl") || modern.contains("pollInterval"));
  EXPECT_TRUE(DeclaresTasks(json::parse(
      R"({"extensions":{"io.modelcontextprotocol/tasks":{}}})").as_object()));
  EXPECT_FALSE(DeclaresTasks(json::parse(R"({"tasks":{"requests":{}}})").as_object()));
}

TEST(McpTaskCatalog, LongRunningToolsAreMarkedForTasks) {
  const ToolCatalog& catalog = TestCatalog();
  EXPECT_TRUE(catalog.offers_tasks());
  EXPECT_TRUE(catalog.offers_task_cancel());
  const Tool& start = *catalog.Find("start_test_job");
  EXPECT_TRUE(start.task_support);
  EXPECT_EQ(json::serialize(start.descriptor.at("execution")), R"({"taskSupport":"optional"})");
  EXPECT_FALSE(catalog.Find("echo_test")->task_support);
  EXPECT_FALSE(catalog.Find("echo_test")->descriptor.contains("execution"));
  EXPECT_FALSE(catalog.Find("get_test_job")->task_support);
}

// The product's long-running operations keep what tasks rely on.
TEST(McpTaskCatalog, EveryLongRunningOperationNamesToolsTasksCanCall) {
  auto built = tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
  ASSERT_TRUE(built) << built.error().internal();
  const tools::Registry& registry = *built;
  const ToolCatalog catalog(registry);
  for (const tools::RegisteredOperation& op : registry.operations()) {
    const tools::LongRunning* long_running = op.spec->long_running;
    if (!long_running) continue;
    SCOPED_TRACE(std::string(op.spec->name));
    const tools::RegisteredOperation* status = registry.Find(long_running->status_operation);
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->spec->effect, tools::Effect::kReadOnly);
    EXPECT_TRUE(status->input_schema.at("properties").as_object().contains(
        long_running->id_argument));
    if (!long_running->cancel_operation.empty()) {
      const tools::RegisteredOperation* cancel = registry.Find(long_running->cancel_operation);
      ASSERT_NE(cancel, nullptr);
      EXPECT_TRUE(cancel->input_schema.at("properties").as_object().contains(
          long_running->id_argument));
    }
    if (op.spec->mcp_exclusion_reason.empty()) {
      EXPECT_TRUE(catalog.Find(op.spec->name)->task_support)
          << "its status and cancel operations must be MCP tools too";
    }
  }
}

// ---- The server, both eras.

struct Answer {
  core::HttpResponse response;
  json::object body;  // empty for streams and bodiless answers
  const json::object& result() const { return body.at("result").as_object(); }
  int64_t code() const { return body.at("error").at("code").as_int64(); }
};

class McpTasksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(temp_.ok());
    {
      std::lock_guard lock(Jobs().mutex);
      Jobs().jobs.clear();
    }
    sessions_ = std::make_unique<identity::SessionService>(temp_.store(), clock_, "secret");
    services_ = std::make_unique<tools::Services>(tools::Services{*sessions_});
    dispatcher_ = std::make_unique<tools::Dispatcher>(temp_.store(), clock_, *services_);
    keys_ = std::make_unique<identity::Authenticator>(temp_.store());
    gate_ = std::make_unique<tools::Gate>(
        tools::Gate::Parts{*dispatcher_, *keys_, *sessions_, nullptr, windows_, windows_});
    server_ = NewServer();
    key_.kind = CredentialKind::kPrivateApiKey;
    key_.credential_id = "k1";
    key_.permissions.Add(Permission::kAnalyticsView);
    key_.permissions.Add(Permission::kProjectManage);
  }

  // Another node: its own server over the same store.
  std::unique_ptr<McpServer> NewServer() {
    return std::make_unique<McpServer>(TestCatalog(), *gate_, temp_.store(), clock_,
                                       ServerIdentity{"sightline", "Sightline", "1.2.3", ""});
  }

  Answer Post(const core::HttpHeaders& headers, const json::object& message,
              const identity::Principal* who = nullptr, McpServer* server = nullptr) {
    const std::string body = json::serialize(message);
    const tools::RequestMeta meta{"req-test", "127.0.0.1", std::nullopt, nullptr,
                                  tools::Caller::kModel};
    std::optional<core::Result<core::HttpResponse>> got;
    (server ? *server : *server_)
        .HandleAsync(McpCall{core::HttpMethod::kPost, headers, body, who ? *who : key_, meta},
                     [&](core::Result<core::HttpResponse> r) { got.emplace(std::move(r)); });
    Answer answer;
    if (!got || !*got) {
      ADD_FAILURE() << "no answer, or an HTTP-level refusal";
      return answer;
    }
    answer.response = std::move(**got);
    if (!answer.response.stream && !answer.response.body.empty()) {
      answer.body = json::parse(answer.response.body).as_object();
    }
    return answer;
  }

  static core::HttpHeaders Media() {
    core::HttpHeaders headers;
    headers.Set("Content-Type", "application/json");
    headers.Set("Accept", "application/json, text/event-stream");
    return headers;
  }

  // 2025: a session opened with `version`.
  void Initialize(std::string_view version = "2025-11-25", json::object* result = nullptr) {
    json::object params{{"protocolVersion", version},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", "t"}, {"version", "1"}}}};
    Answer answer = Post(Media(), {{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
                                   {"params", std::move(params)}});
    session_ = std::string(*answer.response.headers.Get("Mcp-Session-Id"));
    version_ = version;
    if (result) *result = answer.result();
  }
  Answer Legacy(std::string_view method, json::object params,
                const identity::Principal* who = nullptr) {
    core::HttpHeaders headers = Media();
    headers.Set("Mcp-Session-Id", session_);
    headers.Set("MCP-Protocol-Version", version_);
    return Post(headers, {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method},
                          {"params", std::move(params)}}, who);
  }

  // 2026: one request, declaring the Tasks extension unless told not to.
  Answer Modern(std::string_view method, json::object params, bool declare = true,
                std::optional<std::string> name = std::nullopt, McpServer* server = nullptr) {
    json::object capabilities;
    if (declare) capabilities["extensions"] = {{kTasksExtension, json::object()}};
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", capabilities}};
    core::HttpHeaders headers = Media();
    headers.Set("MCP-Protocol-Version", "2026-07-28");
    headers.Set("Mcp-Method", std::string(method));
    if (!name) {
      if (const json::value* n = params.if_contains("name")) name = std::string(n->as_string());
      if (const json::value* t = params.if_contains("taskId")) name = std::string(t->as_string());
    }
    if (name) headers.Set("Mcp-Name", *name);
    return Post(headers, {{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", method},
                          {"params", std::move(params)}}, nullptr, server);
  }

  // The job a task runs: its id is the last job started.
  static std::string LastJob() { return "job-" + std::to_string(Jobs().next); }

  testutil::TempStore temp_;
  core::ManualClock clock_{1'800'000'000'000};
  std::unique_ptr<identity::SessionService> sessions_;
  std::unique_ptr<tools::Services> services_;
  std::unique_ptr<tools::Dispatcher> dispatcher_;
  std::unique_ptr<identity::Authenticator> keys_;
  identity::RateLimiter windows_{temp_.store(), clock_, {"per-minute", 1'000'000, 60}};
  std::unique_ptr<tools::Gate> gate_;
  std::unique_ptr<McpServer> server_;
  identity::Principal key_;
  std::string session_;
  std::string version_;
  int id_ = 0;
};

TEST_F(McpTasksTest, LegacyDeclaresTasksOnlyFor2025_11_25) {
  json::object result;
  Initialize("2025-11-25", &result);
  EXPECT_EQ(json::serialize(result.at("capabilities").at("tasks")),
            R"({"requests":{"tools":{"call":{}}},"cancel":{}})");
  const Answer listed = Legacy("tools/list", {});
  const json::array& tools = listed.result().at("tools").as_array();
  ASSERT_EQ(tools.size(), 5u);
  EXPECT_EQ(tools[0].at("execution").at("taskSupport"), "optional");
  EXPECT_FALSE(tools[4].as_object().contains("execution"));  // echo_test

  Initialize("2025-06-18", &result);
  EXPECT_FALSE(result.at("capabilities").as_object().contains("tasks"));
  // Without the capability a `task` param is ignored and tasks/* do not exist.
  const Answer plain = Legacy("tools/call", {{"name", "start_test_job"}, {"task", json::object()}});
  EXPECT_EQ(plain.result().at("structuredContent").at("status"), "queued");
  EXPECT_EQ(Legacy("tasks/get", {{"taskId", "x"}}).code(), -32601);
}

TEST_F(McpTasksTest, LegacyTaskLifecycle) {
  Initialize();
  // Without `task`, the job at once, as ever.
  const Answer direct = Legacy("tools/call", {{"name", "start_test_job"}});
  EXPECT_EQ(direct.result().at("structuredContent").at("status"), "queued");
  EXPECT_FALSE(direct.result().contains("task"));

  const Answer created =
      Legacy("tools/call", {{"name", "start_test_job"}, {"task", {{"ttl", 60000}}}});
  const json::object& task = created.result().at("task").as_object();
  const std::string task_id(task.at("taskId").as_string());
  EXPECT_EQ(task.at("status"), "working");
  EXPECT_EQ(task.at("statusMessage"), "Queued: waiting to start.");
  EXPECT_TRUE(task.at("ttl").is_null());  // the task lasts as long as its job
  EXPECT_EQ(task.at("pollInterval"), kTaskPollIntervalMs);
  EXPECT_TRUE(created.result().at("_meta").as_object().contains(kImmediateResponseMeta));
  const std::string job = LastJob();

  SetJob(job, "running");
  Answer polled = Legacy("tasks/get", {{"taskId", task_id}});
  EXPECT_EQ(polled.result().at("taskId"), json::value(task_id));
  EXPECT_EQ(polled.result().at("status"), "working");
  EXPECT_EQ(polled.result().at("statusMessage"), "Running: 3 of 10 done.");

  SetJob(job, "completed");
  polled = Legacy("tasks/get", {{"taskId", task_id}});
  EXPECT_EQ(polled.result().at("status"), "completed");
  EXPECT_EQ(polled.result().at("lastUpdatedAt"), "2027-01-15T08:05:00.000Z");
  const Answer result = Legacy("tasks/result", {{"taskId", task_id}});
  EXPECT_EQ(result.result().at("isError"), false);
  EXPECT_EQ(result.result().at("structuredContent").at("id"), json::value(job));
  EXPECT_EQ(result.result().at("_meta").at(kRelatedTaskMeta).at("taskId"), json::value(task_id));

  // Finished: cannot be cancelled. tasks/list is not offered.
  EXPECT_EQ(Legacy("tasks/cancel", {{"taskId", task_id}}).code(), -32602);
  EXPECT_EQ(Legacy("tasks/list", {}).code(), -32601);
  // A tool that cannot run as a task, asked to: "method not found", as 2025-11-25 says.
  EXPECT_EQ(Legacy("tools/call", {{"name", "echo_test"}, {"task", json::object()}}).code(),
            -32601);
}

TEST_F(McpTasksTest, LegacyFailedAndCancelledJobsAreToolErrors) {
  Initialize();
  std::string task_id(Legacy("tools/call", {{"name", "start_test_job"}, {"task", json::object()}})
                          .result().at("task").at("taskId").as_string());
  SetJob(LastJob(), "failed", "the site is unreachable");
  EXPECT_EQ(Legacy("tasks/get", {{"taskId", task_id}}).result().at("status"), "failed");
  const Answer failed = Legacy("tasks/result", {{"taskId", task_id}});
  EXPECT_EQ(failed.result().at("isError"), true);
  EXPECT_FALSE(failed.result().contains("structuredContent"));

  task_id = Legacy("tools/call", {{"name", "start_test_job"}, {"task", json::object()}})
                .result().at("task").at("taskId").as_string();
  const Answer cancelled = Legacy("tasks/cancel", {{"taskId", task_id}});
  EXPECT_EQ(cancelled.result().at("taskId"), json::value(task_id));
  EXPECT_EQ(cancelled.result().at("status"), "cancelled");
  EXPECT_EQ(Legacy("tasks/cancel", {{"taskId", task_id}}).code(), -32602);  // already ended

  task_id = Legacy("tools/call", {{"name", "start_fixed_job"}, {"task", json::object()}})
                .result().at("task").at("taskId").as_string();
  EXPECT_EQ(Legacy("tasks/cancel", {{"taskId", task_id}}).code(), -32602);  // no cancel op
}

TEST_F(McpTasksTest, LegacyTasksResultWaitsForTheJobToEnd) {
  Initialize();
  const std::string task_id(
      Legacy("tools/call", {{"name", "start_test_job"}, {"task", json::object()}})
          .result().at("task").at("taskId").as_string());
  const Answer waiting = Legacy("tasks/result", {{"taskId", task_id}});
  ASSERT_TRUE(waiting.response.stream);
  EXPECT_EQ(*waiting.response.headers.Get("Content-Type"), "text/event-stream");
  EXPECT_EQ(waiting.response.stream->Poll(), std::string());  // still queued
  SetJob(LastJob(), "completed");
  const std::optional<std::string> event = waiting.response.stream->Poll();
  ASSERT_TRUE(event);
  const std::string data = event->substr(event->find("data: ") + 6);
  const json::object message = json::parse(data).as_object();
  EXPECT_EQ(message.at("id"), id_);
  EXPECT_EQ(message.at("result").at("structuredContent").at("status"), "completed");
  EXPECT_EQ(waiting.response.stream->Poll(), std::nullopt);  // the stream ends
}

TEST_F(McpTasksTest, ATaskBelongsToItsCredentialAndIsCheckedOnEveryRequest) {
  Initialize();
  const std::string task_id(
      Legacy("tools/call", {{"name", "start_test_job"}, {"task", json::object()}})
          .result().at("task").at("taskId").as_string());
  // The same key after its creator lost a permission: refused by the dispatcher.
  identity::Principal demoted = key_;
  demoted.permissions = identity::PermissionSet();
  demoted.permissions.Add(Permission::kProjectManage);  // analytics.view gone
  const Answer refused = Legacy("tasks/get", {{"taskId", task_id}}, &demoted);
  EXPECT_EQ(refused.code(), -32602);
  EXPECT_EQ(refused.body.at("error").at("data").at("error").at("code"), "PERM_001");
  EXPECT_EQ(Legacy("tasks/get", {{"taskId", task_id + "x"}}).code(), -32602);
  // Another key of the same project (modern, so that no session is involved): no such task.
  identity::Principal other = key_;
  other.credential_id = "k2";
  const Answer foreign = [&] {
    json::object params{{"taskId", task_id}};
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities",
                        {{"extensions", {{kTasksExtension, json::object()}}}}}};
    core::HttpHeaders headers = Media();
    headers.Set("MCP-Protocol-Version", "2026-07-28");
    headers.Set("Mcp-Method", "tasks/get");
    headers.Set("Mcp-Name", task_id);
    return Post(headers, {{"jsonrpc", "2.0"}, {"id", 99}, {"method", "tasks/get"},
                          {"params", params}}, &other);
  }();
  EXPECT_EQ(foreign.code(), -32602);
  EXPECT_EQ(foreign.body.at("error").at("message"), "Task not found.");
}

TEST_F(McpTasksTest, ModernAdvertisesTheExtensionAndRunsLongToolsAsTasks) {
  const Answer discover = Modern("server/discover", {});
  const json::object& discovered = discover.result();
  EXPECT_TRUE(discovered.at("capabilities").at("extensions").as_object().contains(kTasksExtension));
  EXPECT_FALSE(discovered.at("capabilities").as_object().contains("tasks"));
  const Answer listed = Modern("tools/list", {});
  for (const json::value& tool : listed.result().at("tools").as_array()) {
    EXPECT_FALSE(tool.as_object().contains("execution")) << tool.at("name");
  }

  // Not declared: the job at once. An ordinary tool stays ordinary, `task` param or not.
  const Answer plain = Modern("tools/call", {{"name", "start_test_job"}}, /*declare=*/false);
  EXPECT_EQ(plain.result().at("resultType"), "complete");
  EXPECT_EQ(plain.result().at("structuredContent").at("status"), "queued");
  const Answer echo = Modern("tools/call", {{"name", "echo_test"}, {"task", json::object()}});
  EXPECT_EQ(echo.result().at("resultType"), "complete");

  const Answer created = Modern("tools/call", {{"name", "start_test_job"}});
  const json::object& task = created.result();
  EXPECT_EQ(task.at("resultType"), "task");
  EXPECT_FALSE(task.contains("task") || task.contains("result") || task.contains("ttl"));
  EXPECT_EQ(task.at("status"), "working");
  EXPECT_TRUE(task.at("ttlMs").is_null());
  EXPECT_EQ(task.at("pollIntervalMs"), kTaskPollIntervalMs);
  EXPECT_EQ(task.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "sightline");
  const std::string task_id(task.at("taskId").as_string());

  Answer polled = Modern("tasks/get", {{"taskId", task_id}});
  EXPECT_EQ(polled.result().at("resultType"), "complete");
  EXPECT_EQ(polled.result().at("status"), "working");
  EXPECT_FALSE(polled.result().contains("result"));
  EXPECT_EQ(Modern("tasks/update", {{"taskId", task_id}, {"inputResponses", json::object()}})
                .result().at("resultType"), "complete");

  SetJob(LastJob(), "completed");
  polled = Modern("tasks/get", {{"taskId", task_id}});
  EXPECT_EQ(polled.result().at("status"), "completed");
  const json::object& inlined = polled.result().at("result").as_object();
  EXPECT_EQ(inlined.at("resultType"), "complete");
  EXPECT_EQ(inlined.at("isError"), false);
  EXPECT_EQ(inlined.at("structuredContent").at("status"), "completed");
  EXPECT_FALSE(inlined.at("_meta").as_object().contains(kRelatedTaskMeta));

  // Cancelling a finished task is acknowledged all the same (idempotent).
  const Answer ack = Modern("tasks/cancel", {{"taskId", task_id}});
  EXPECT_EQ(json::serialize(ack.result().at("resultType")), R"("complete")");
  EXPECT_FALSE(ack.result().contains("status"));
}

TEST_F(McpTasksTest, ModernFailuresCancelsAndRefusals) {
  std::string task_id(Modern("tools/call", {{"name", "start_test_job"}}).result()
                          .at("taskId").as_string());
  SetJob(LastJob(), "failed", "robots.txt answered 503");
  const Answer failed_answer = Modern("tasks/get", {{"taskId", task_id}});
  const json::object& failed = failed_answer.result();
  EXPECT_EQ(failed.at("status"), "completed");  // a tool error, not a JSON-RPC one
  EXPECT_EQ(failed.at("statusMessage"), "Failed: robots.txt answered 503");
  EXPECT_EQ(failed.at("result").at("isError"), true);
  EXPECT_FALSE(failed.contains("error"));

  task_id = Modern("tools/call", {{"name", "start_test_job"}}).result().at("taskId").as_string();
  EXPECT_EQ(Modern("tasks/cancel", {{"taskId", task_id}}).result().size(), 2u);  // the ack
  const Answer cancelled_answer = Modern("tasks/get", {{"taskId", task_id}});
  const json::object& cancelled = cancelled_answer.result();
  EXPECT_EQ(cancelled.at("status"), "cancelled");
  EXPECT_FALSE(cancelled.contains("result"));

  // Without the extension declared on the request, no task method.
  Answer refused = Modern("tasks/get", {{"taskId", task_id}}, /*declare=*/false);
  EXPECT_EQ(refused.response.status, 400);
  EXPECT_EQ(refused.code(), -32021);
  EXPECT_EQ(json::serialize(refused.body.at("error").at("data")),
            R"({"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}})");
  // The routing header must name the task.
  refused = Modern("tasks/get", {{"taskId", task_id}}, true, std::string("another-task"));
  EXPECT_EQ(refused.response.status, 400);
  EXPECT_EQ(refused.code(), -32020);
  // Unknown tasks; 2025's tasks/result and tasks/list do not exist in this era.
  refused = Modern("tasks/get", {{"taskId", "tasks-conformance-nonexistent-12345"}});
  EXPECT_EQ(refused.code(), -32602);
  refused = Modern("tasks/result", {{"taskId", task_id}});
  EXPECT_EQ(refused.response.status, 404);
  EXPECT_EQ(refused.code(), -32601);
  EXPECT_EQ(Modern("tasks/list", {}).code(), -32601);
}

TEST_F(McpTasksTest, AnyNodeAnswersForATaskInEitherEra) {
  const std::string task_id(Modern("tools/call", {{"name", "start_test_job"}}).result()
                                .at("taskId").as_string());
  SetJob(LastJob(), "running");
  const std::unique_ptr<McpServer> other_node = NewServer();
  const Answer polled =
      Modern("tasks/get", {{"taskId", task_id}}, true, std::nullopt, other_node.get());
  EXPECT_EQ(polled.result().at("status"), "working");
  // The same id, polled by a 2025 session of the same credential.
  Initialize();
  EXPECT_EQ(Legacy("tasks/get", {{"taskId", task_id}}).result().at("status"), "working");
}

}  // namespace
}  // namespace sightline::mcp
