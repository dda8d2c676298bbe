// The MCP server behind `{base}/mcp` (Streamable HTTP), both eras on one endpoint, told apart
// per request (mcp/era.h):
// - 2026-07-28 (modern): stateless; server/discover, tools/list, tools/call, each carrying its
//   version and the client's capabilities; any node answers any request.
// - 2025-11-25 back to 2025-03-26 (legacy): sessions (initialize, ping, tools/list, tools/call,
//   logging/setLevel). Sessions live in the store, so any node can serve any request of a
//   session; a session belongs to the credential that opened it and is found by no other.
// Answers come as JSON or, when the client asked for progress or logs, as Server-Sent Events.
// Long-running tools may run as tasks (mcp/tasks.cpp): the Tasks extension in 2026-07-28, the
// experimental tasks of 2025-11-25; a task is its job, read through the dispatcher each time.
//
// It never authenticates: the caller (api/) has checked the credential and the Origin, and
// passes the principal in. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/http_types.h"
#include "core/result.h"
#include "identity/principal.h"
#include "mcp/era.h"
#include "mcp/extension.h"
#include "mcp/protocol.h"
#include "mcp/tool_catalog.h"
#include "storage/store.h"
#include "tools/dispatch.h"
#include "tools/gate.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace sightline::mcp {

class CancellableCalls;
struct TaskCall;  // one request about a task, kept while it runs (mcp/tasks.cpp)

struct ServerIdentity {
  std::string name = "sightline";
  std::string title = "Sightline";
  std::string version;
  std::string instructions;  // sent in the InitializeResult and server/discover
};

struct McpCall {
  core::HttpMethod method;
  const core::HttpHeaders& headers;
  std::string_view body;
  // Principal::read_only when the grant or the connection asked for read-only tools.
  const identity::Principal& principal;
  const tools::RequestMeta& meta;
  // Where a `tools/call` leaves the window the gate counted it in, for the HTTP answer's
  // rate-limit headers; written before `done` is called. May be null.
  std::optional<tools::Window>* counted = nullptr;
};

// A refusal at the HTTP level (wrong media types, unknown session, …) comes back as an Error for
// the caller to render as an ErrorResponse; every JSON-RPC answer, errors included, as a response.
using McpDone = std::function<void(core::Result<core::HttpResponse>)>;

class McpServer {
 public:
  // `extension` adds what it offers to the server's (the conformance suite's fixtures, in the
  // test-only fixture server); null for none.
  McpServer(const ToolCatalog& catalog, tools::Gate& gate, storage::Store& store,
            const core::Clock& clock, ServerIdentity identity,
            const McpExtension* extension = nullptr);
  ~McpServer();

  void HandleAsync(const McpCall& call, McpDone done);

 private:
  struct Session;
  // How one request is served: its era and what that era lends it.
  struct RequestContext {
    Era era = Era::kLegacy;
    std::string session_hash;      // legacy: the session; modern: empty
    std::string log_level;     // the syslog level logs go out at; empty: none
    boost::json::object client_capabilities;  // modern: declared in _meta
    // Tasks are offered and this client takes them: modern, it declared the extension in this
    // request; legacy, its session negotiated 2025-11-25 (the only revision with tasks).
    bool tasks = false;
  };
  void HandlePost(const McpCall& call, McpDone done);
  void HandleLegacy(const McpCall& call, boost::json::value body, McpDone done);
  void HandleModern(const McpCall& call, boost::json::value body, McpDone done);
  void AnswerLegacy(const McpCall& call, const Session& session, const Message& message,
                    McpDone done);
  void AnswerModern(const McpCall& call, const RequestContext& context, const Message& message,
                    McpDone done);
  core::Result<core::HttpResponse> HandleDelete(const McpCall& call);
  core::Result<Session> FindSession(const McpCall& call);
  core::Result<core::HttpResponse> Initialize(const McpCall& call, const boost::json::value& id,
                                              const boost::json::object& params);
  boost::json::object Discover() const;
  boost::json::object ServerCapabilities(Era era) const;
  // resources/list and resources/read: the MCP Apps views (mcp/app_views.h), then the
  // extension's resources; nullopt for other methods.
  std::optional<boost::json::object> AnswerResources(std::string_view method,
                                                     const boost::json::value& id,
                                                     const boost::json::object& params,
                                                     const ExtensionRequest& request) const;
  boost::json::object ListTools(const McpCall& call, const boost::json::value& id,
                               const boost::json::object& params,
                               Era era = Era::kLegacy) const;
  void CallTool(const McpCall& call, const RequestContext& context, const boost::json::value& id,
                const boost::json::object& params, McpDone done);
  // The task methods (mcp/tasks.cpp).
  bool TasksFor(Era era, std::string_view protocol_version,
                const boost::json::object& client_capabilities) const;
  void AddTaskCapabilities(boost::json::object& capabilities, Era era) const;
  // Runs a long-running tool and answers with the task for its job.
  void StartTask(const McpCall& call, const RequestContext& context, const Tool& tool,
                 const boost::json::value& id, const boost::json::object& arguments,
                 McpDone done);
  // tasks/get, tasks/cancel, and tasks/result (legacy) or tasks/update (modern): true when
  // `message` is one of them and this era offers it (then `done` has been called).
  bool AnswerTask(const McpCall& call, const RequestContext& context, const Message& message,
                  McpDone& done);
  void AnswerOpenedTask(std::shared_ptr<TaskCall> task, McpDone done);
  // The JSON-RPC answer to a task request, given what the job's status operation answered.
  boost::json::object TaskOutcome(const TaskCall& task,
                                  core::Result<boost::json::value> job) const;
  void CancelTask(std::shared_ptr<TaskCall> task, boost::json::value job, McpDone done);
  // The secret task ids are sealed with, shared by every node (read once, then kept).
  core::Result<std::string> TaskKey();
  core::HttpResponse CallExtension(const McpCall& call, const RequestContext& context,
                                   const boost::json::value& id, std::string_view name,
                                   const boost::json::object& params);

  const ToolCatalog& catalog_;
  const McpExtension* extension_;
  std::vector<boost::json::object> extension_tools_;
  tools::Gate& gate_;
  tools::Dispatcher& dispatcher_;  // the gate's: for the calls a task makes once counted
  storage::Store& store_;
  const core::Clock& clock_;
  ServerIdentity identity_;
  boost::json::object server_info_;  // `_meta` serverInfo of modern results: name and version
  std::unique_ptr<CancellableCalls> in_flight_;
  std::mutex task_key_mutex_;
  std::string task_key_;  // empty until first needed
};

}  // namespace sightline::mcp
