// tools/list and tools/call (mcp/mcp_server.h), the same in both eras but for how the answer is
// marked: the registry's tools, filtered and run by the one access rule (tools/access.h). A
// long-running tool called as a task goes on in mcp/tasks.cpp.
#include "mcp/mcp_server.h"

#include "core/crypto.h"
#include "mcp/answers.h"
#include "mcp/cancellable_calls.h"
#include "mcp/tool_results.h"
#include "tools/access.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using core::HttpResponse;
using core::Result;

constexpr std::size_t kToolsPageSize = 50;

json::object InvalidParams(const json::value& id, std::string_view message) {
  return ErrorMessage(id, rpc::kInvalidParams, message);
}

// Tools-list cursors are opaque to clients: the base64url of "offset:N".
std::string EncodeCursor(std::size_t offset) {
  return core::Base64UrlEncode("offset:" + std::to_string(offset));
}

std::optional<std::size_t> DecodeCursor(const json::value& cursor) {
  if (!cursor.is_string()) return std::nullopt;
  const auto text = core::Base64UrlDecode(cursor.as_string());
  if (!text || !text->starts_with("offset:") || text->size() > 16) return std::nullopt;
  std::size_t offset = 0;
  for (char c : text->substr(7)) {
    if (c < '0' || c > '9') return std::nullopt;
    offset = offset * 10 + static_cast<std::size_t>(c - '0');
  }
  return offset;
}

const json::value* ProgressToken(const json::object& params) {
  const json::value* meta = params.if_contains("_meta");
  const json::value* token =
      meta && meta->is_object() ? meta->as_object().if_contains("progressToken") : nullptr;
  if (token && (token->is_string() || token->is_int64() || token->is_uint64())) return token;
  return nullptr;
}

bool LogsInfo(std::string_view level) {
  const auto rank = LogLevelRank(level);
  return rank && *rank <= *LogLevelRank("info");
}

}  // namespace

json::object McpServer::ListTools(const McpCall& call, const json::value& id,
                                  const json::object& params, Era era) const {
  std::size_t offset = 0;
  if (const json::value* cursor = params.if_contains("cursor")) {
    const auto decoded = DecodeCursor(*cursor);
    if (!decoded) return InvalidParams(id, "Invalid cursor");
    offset = *decoded;
  }
  // The registry's order, then the extension's: the same for every request of a credential.
  std::vector<const json::object*> listed;
  // 2026-07-28 tools have no `execution`: a task-capable tool is told apart by its answer alone.
  std::vector<json::object> without_execution;
  without_execution.reserve(catalog_.tools().size());
  const identity::PermissionSet held = tools::EffectivePermissions(call.principal, std::nullopt);
  for (const Tool& tool : catalog_.tools()) {
    if (!tools::MayCall(*tool.operation->spec, call.principal, held, tools::Caller::kModel)) {
      continue;
    }
    if (era == Era::kModern && tool.descriptor.contains("execution")) {
      json::object& copy = without_execution.emplace_back(tool.descriptor);
      copy.erase("execution");
      listed.push_back(&copy);
    } else {
      listed.push_back(&tool.descriptor);
    }
  }
  for (const json::object& tool : extension_tools_) listed.push_back(&tool);
  json::array page;
  for (std::size_t i = offset; i < listed.size() && page.size() < kToolsPageSize; ++i) {
    page.push_back(*listed[i]);
  }
  json::object result{{"tools", std::move(page)}};
  if (offset + kToolsPageSize < listed.size()) {
    result["nextCursor"] = EncodeCursor(offset + kToolsPageSize);
  }
  return ResultMessage(id, std::move(result));
}

void McpServer::CallTool(const McpCall& call, const RequestContext& context,
                         const json::value& id, const json::object& params, McpDone done) {
  const json::value* name = params.if_contains("name");
  if (!name || !name->is_string()) {
    return done(JsonAnswer(InvalidParams(id, "tools/call needs params.name")));
  }
  if (extension_ && extension_->HasTool(name->as_string())) {
    return done(CallExtension(call, context, id, name->as_string(), params));
  }
  const Tool* tool = catalog_.Find(name->as_string());
  if (!tool) {
    return done(JsonAnswer(InvalidParams(id, "Unknown tool: " + std::string(name->as_string()))));
  }
  json::object given;
  if (const json::value* arguments = params.if_contains("arguments")) {
    if (!arguments->is_object() && !arguments->is_null()) {
      return done(JsonAnswer(InvalidParams(id, "arguments must be an object")));
    }
    if (arguments->is_object()) given = arguments->as_object();
  }
  // One operation call in the credential's window, as a REST request or an assistant's tool
  // call would be: a used-up window is the same 429 AUTH_014 with Retry-After.
  auto counted = gate_.Count(*tool->operation->spec, call.principal, call.meta.client_ip);
  if (!counted) return done(counted.error());
  if (call.counted) *call.counted = *counted;
  if (*counted && !(*counted)->decision.allowed) {
    return done(tools::RateLimited((*counted)->decision));
  }
  // A consent lacking the tool's permission, where consenting again could give it, is a
  // step-up challenge (403 insufficient_scope naming the scope to ask for), not a tool error.
  // Every other refusal comes from the dispatcher, as a tool result.
  if (auto step_up = tools::Gate::StepUp(*tool->operation->spec, call.principal)) {
    return done(*step_up);
  }
  const bool modern = context.era == Era::kModern;
  if (context.tasks) {
    // Modern: the server decides, and runs every long-running tool as a task for a client that
    // declared the extension (a legacy `task` param is ignored). Legacy: the client asks with
    // `task`; a tool that cannot run as one is "method not found" (2025-11-25 tool-level rule).
    const json::value* task = params.if_contains("task");
    const bool asked = modern ? tool->task_support : task && task->is_object();
    if (asked && tool->task_support) {
      return StartTask(call, context, *tool, id, given, std::move(done));
    }
    if (asked) {
      return done(JsonAnswer(ErrorMessage(
          id, rpc::kMethodNotFound,
          "Tool " + std::string(name->as_string()) + " does not run as a task.")));
    }
  }
  auto state = std::make_shared<CallState>();
  std::string key;
  if (!modern) {
    key = CancellableCalls::Key(context.session_hash, id);
    in_flight_->Add(key, state);
  }
  const json::value* token = ProgressToken(params);
  const bool log_info = LogsInfo(context.log_level);
  // A modern client asks for logs per request and reads them on the call's stream only.
  const bool streamed = token || (modern && log_info);
  if (streamed) {
    done(ToolCallStreamAnswer(state, token ? *token : json::value(nullptr),
                              std::string(name->as_string()), log_info));
  }
  dispatcher_.CallAsync(
      *tool->operation, call.principal, given, call.meta,
      [this, tool, state, key, id, streamed, modern, request_id = std::string(call.meta.request_id),
       done = streamed ? McpDone() : std::move(done)](Result<json::value> result) {
        json::object answer =
            ToolResult(*tool, std::move(result), clock_.NowMillis(), request_id);
        if (modern) MarkComplete(answer, server_info_);
        json::object message = ResultMessage(id, std::move(answer));
        if (!key.empty()) in_flight_->Remove(key);
        if (!streamed) return done(JsonAnswer(message));
        std::lock_guard lock(state->mutex);
        state->answer = std::move(message);
      });
}

HttpResponse McpServer::CallExtension(const McpCall& call, const RequestContext& context,
                                      const json::value& id, std::string_view name,
                                      const json::object& params) {
  ExtensionCall extension_call{std::string(name), {}, id, nullptr, params,
                               ExtensionRequest{context.era, context.log_level,
                                                context.session_hash,
                                                identity::CredentialName(call.principal),
                                                context.client_capabilities, server_info_}};
  if (const json::value* arguments = params.if_contains("arguments");
      arguments && arguments->is_object()) {
    extension_call.arguments = arguments->as_object();
  }
  if (const json::value* token = ProgressToken(params)) extension_call.progress_token = *token;
  return extension_->CallTool(std::move(extension_call));
}

}  // namespace sightline::mcp
