#include "mcp/mcp_server.h"

#include "tools/access.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "core/logging.h"
#include "mcp/protocol.h"
#include "storage/oauth_repository.h"

#include <boost/json/parse.hpp>

#include <mutex>
#include <unordered_map>

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::HttpResponse;
using core::Result;
using tools::kBoundOrganizationArgument;
using tools::kBoundProjectArgument;

// A session idle this long is gone (404): the client starts again with `initialize`.
constexpr std::int64_t kSessionIdleMs = 30LL * 24 * 3600 * 1000;
// How stale last_used_at may get before a request writes it again (one write per hour, not
// one per request).
constexpr std::int64_t kTouchEveryMs = 3600LL * 1000;
constexpr std::size_t kToolsPageSize = 50;
constexpr std::size_t kClientInfoMaxChars = 200;
constexpr std::string_view kSessionHeader = "Mcp-Session-Id";

HttpResponse JsonAnswer(const json::object& message) {
  HttpResponse response;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  response.body = core::ToJson(message);
  return response;
}

HttpResponse Accepted() {
  HttpResponse response;
  response.status = 202;
  return response;
}

// Whether an Accept header admits `type` (exactly, as "major/*", or as "*/*").
bool Admits(std::string_view accept, std::string_view type) {
  const std::string_view major = type.substr(0, type.find('/') + 1);
  while (!accept.empty()) {
    const std::size_t comma = accept.find(',');
    const std::string_view range = core::MediaTypeOf(accept.substr(0, comma));
    if (core::EqualsIgnoreCase(range, type) || range == "*/*" ||
        (range.size() == major.size() + 1 && range.ends_with('*') &&
         core::EqualsIgnoreCase(range.substr(0, major.size()), major))) {
      return true;
    }
    if (comma == std::string_view::npos) break;
    accept.remove_prefix(comma + 1);
  }
  return false;
}

Result<void> CheckProtocolVersionHeader(const core::HttpHeaders& headers) {
  const auto version = headers.Get("MCP-Protocol-Version");
  if (!version || IsSupportedVersion(*version)) return {};
  json::array supported;
  for (std::string_view v : kProtocolVersions) supported.emplace_back(v);
  return Error(ErrorCode::kMcpUnsupportedVersion,
               "MCP-Protocol-Version " + std::string(*version) + " is not supported.",
               json::object{{"supported", std::move(supported)}, {"requested", *version}});
}

std::optional<std::string> ShortString(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->as_string().subview().substr(0, kClientInfoMaxChars));
}

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

json::object ProgressNotification(const json::value& token, int progress,
                                  std::string_view message) {
  return NotificationMessage("notifications/progress", {{"progressToken", token},
                                                        {"progress", progress},
                                                        {"total", 1},
                                                        {"message", message}});
}

std::string SseEvent(const json::object& message) {
  return "event: message\ndata: " + core::ToJson(message) + "\n\n";
}

}  // namespace

// One tools/call on its way: its answer once the operation finishes, or the fact that the
// client cancelled it first.
struct CallState {
  std::mutex mutex;
  std::optional<json::object> answer;
  bool cancelled = false;
};

// Calls that may still be cancelled (`notifications/cancelled`), by session and request id.
// A cancellation reaching another node than the call's finds nothing here, and the call
// completes: cancelling is a SHOULD of the protocol, best effort.
class McpServer::InFlight {
 public:
  static std::string Key(std::string_view session_hash, const json::value& id) {
    return std::string(session_hash) + "|" + core::ToJson(id);
  }
  void Add(const std::string& key, const std::shared_ptr<CallState>& state) {
    std::lock_guard lock(mutex_);
    calls_[key] = state;
  }
  void Remove(const std::string& key) {
    std::lock_guard lock(mutex_);
    calls_.erase(key);
  }
  void Cancel(const std::string& key) {
    std::shared_ptr<CallState> state;
    {
      std::lock_guard lock(mutex_);
      auto found = calls_.find(key);
      if (found == calls_.end()) return;
      state = found->second.lock();
    }
    if (!state) return;
    std::lock_guard lock(state->mutex);
    state->cancelled = true;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::weak_ptr<CallState>> calls_;
};

struct McpServer::Session {
  std::string id_hash;
  storage::McpSessionRecord record;
};

namespace {

// The SSE answer to a tools/call that asked for progress: progress 0 at once, then, when the
// operation has answered, progress 1 and the response; a cancelled call ends without one.
class ToolCallStream final : public core::ResponseStream {
 public:
  ToolCallStream(std::shared_ptr<CallState> state, json::value token, std::string tool,
                 bool log_info)
      : state_(std::move(state)), token_(std::move(token)), tool_(std::move(tool)),
        log_info_(log_info) {}
  std::chrono::milliseconds poll_interval() const override { return std::chrono::milliseconds(5); }
  std::optional<std::string> Poll() override {
    if (step_ == 0) {
      ++step_;
      std::string events = SseEvent(ProgressNotification(token_, 0, "Running " + tool_));
      if (log_info_) {
        events += SseEvent(NotificationMessage(
            "notifications/message",
            {{"level", "info"}, {"logger", "sightline"}, {"data", "Calling " + tool_}}));
      }
      return events;
    }
    if (step_ == 2) return std::nullopt;
    std::lock_guard lock(state_->mutex);
    if (state_->cancelled) return std::nullopt;
    if (!state_->answer) return std::string();
    ++step_;
    return SseEvent(ProgressNotification(token_, 1, "Done")) + SseEvent(*state_->answer);
  }

 private:
  std::shared_ptr<CallState> state_;
  json::value token_;
  std::string tool_;
  bool log_info_;
  int step_ = 0;
};

}  // namespace

McpServer::McpServer(const ToolCatalog& catalog, tools::Dispatcher& dispatcher,
                     storage::Store& store, const core::Clock& clock, ServerIdentity identity,
                     const McpExtension* extension)
    : catalog_(catalog),
      extension_(extension),
      dispatcher_(dispatcher),
      store_(store),
      clock_(clock),
      identity_(std::move(identity)),
      in_flight_(std::make_unique<InFlight>()) {
  if (extension_) {
    for (const json::value& tool : extension_->Tools()) {
      extension_tools_.push_back(tool.as_object());
    }
  }
}

McpServer::~McpServer() = default;

void McpServer::HandleAsync(const McpCall& call, McpDone done) {
  switch (call.method) {
    case core::HttpMethod::kPost:
      return HandlePost(call, std::move(done));
    case core::HttpMethod::kDelete:
      return done(HandleDelete(call));
    case core::HttpMethod::kGet: {
      // No server-initiated stream: every message this server sends answers a POST.
      const auto accept = call.headers.Get("Accept");
      if (!accept || !Admits(*accept, "text/event-stream")) {
        return done(Error(ErrorCode::kNotAcceptable,
                          "GET /mcp opens an event stream: send Accept: text/event-stream."));
      }
      return done(Error(ErrorCode::kMethodNotAllowed,
                        "This server sends no messages outside the answers to POST requests."));
    }
    default:
      return done(Error(ErrorCode::kMethodNotAllowed, "Use POST, GET or DELETE on /mcp."));
  }
}

Result<McpServer::Session> McpServer::FindSession(const McpCall& call) {
  const auto id = call.headers.Get(kSessionHeader);
  if (!id || id->empty()) {
    return Error(ErrorCode::kMcpSessionRequired,
                 "Send the Mcp-Session-Id from the initialize response.");
  }
  Session session{core::Sha256Hex(*id), {}};
  auto found = store_.Read(
      [&](storage::Transaction& tx) { return tx.oauth().FindMcpSession(session.id_hash); });
  if (!found) return found.error();
  const std::int64_t now = clock_.NowMillis();
  if (!*found || (*found)->ended_at || (*found)->credential != identity::CredentialName(call.principal) ||
      (*found)->last_used_at + kSessionIdleMs < now) {
    return Error(ErrorCode::kMcpSessionNotFound,
                 "No such MCP session (ended, expired or unknown): initialize a new one.");
  }
  session.record = std::move(**found);
  if (session.record.last_used_at + kTouchEveryMs < now) {
    auto touched = store_.Write([&](storage::Transaction& tx) {
      return tx.oauth().UpdateMcpSession(session.id_hash, now, session.record.log_level);
    });
    if (!touched) return touched.error();
  }
  return session;
}

Result<HttpResponse> McpServer::HandleDelete(const McpCall& call) {
  auto version = CheckProtocolVersionHeader(call.headers);
  if (!version) return version.error();
  auto session = FindSession(call);
  if (!session) return session.error();
  auto ended = store_.Write([&](storage::Transaction& tx) {
    return tx.oauth().EndMcpSession(session->id_hash, clock_.NowMillis());
  });
  if (!ended) return ended.error();
  HttpResponse response;
  response.status = 204;
  return response;
}

void McpServer::HandlePost(const McpCall& call, McpDone done) {
  const auto content_type = call.headers.Get("Content-Type");
  if (!content_type ||
      !core::EqualsIgnoreCase(core::MediaTypeOf(*content_type), "application/json")) {
    return done(Error(ErrorCode::kValUnsupportedMediaType,
                      "POST /mcp takes one JSON-RPC message as application/json."));
  }
  const auto accept = call.headers.Get("Accept");
  if (!accept || !Admits(*accept, "application/json") || !Admits(*accept, "text/event-stream")) {
    return done(Error(ErrorCode::kNotAcceptable,
                      "Send Accept: application/json, text/event-stream: answers come as either."));
  }
  boost::system::error_code parse_error;
  const json::value body = json::parse(call.body, parse_error);
  if (parse_error) {
    return done(Error(ErrorCode::kValMalformedJson, "The body is not valid JSON."));
  }
  auto message = ParseMessage(body);
  if (!message) return done(message.error());
  if (message->kind == Message::Kind::kRequest && message->method == "initialize") {
    return done(Initialize(call, message->id, message->params));
  }
  auto version = CheckProtocolVersionHeader(call.headers);
  if (!version) return done(version.error());
  auto session = FindSession(call);
  if (!session) return done(session.error());
  if (message->kind == Message::Kind::kResponse) {
    // A client's answer to a request of ours (sampling, elicitation): to the call waiting for it.
    if (extension_) extension_->Answer(session->id_hash, message->id, std::move(message->response));
    return done(Accepted());
  }
  if (message->kind != Message::Kind::kRequest) {
    if (message->method == "notifications/cancelled") {
      if (const json::value* request_id = message->params.if_contains("requestId")) {
        in_flight_->Cancel(InFlight::Key(session->id_hash, *request_id));
      }
    }
    return done(Accepted());  // notifications and responses get no answer
  }
  const json::value& id = message->id;
  const std::string& method = message->method;
  if (method == "ping") return done(JsonAnswer(ResultMessage(id, json::object())));
  if (method == "tools/list") {
    return done(JsonAnswer(ListTools(call, id, message->params)));
  }
  if (method == "tools/call") return CallTool(call, *session, id, message->params, std::move(done));
  if (method == "logging/setLevel") {
    const json::value* level = message->params.if_contains("level");
    if (!level || !level->is_string() || !LogLevelRank(level->as_string())) {
      return done(JsonAnswer(InvalidParams(id, "level must be a syslog level name")));
    }
    auto stored = store_.Write([&](storage::Transaction& tx) {
      return tx.oauth().UpdateMcpSession(session->id_hash, clock_.NowMillis(),
                                   std::string(level->as_string()));
    });
    if (!stored) return done(stored.error());
    return done(JsonAnswer(ResultMessage(id, json::object())));
  }
  if (extension_) {
    if (auto answer = extension_->Handle(method, id, message->params)) {
      return done(JsonAnswer(*answer));
    }
  }
  done(JsonAnswer(ErrorMessage(id, rpc::kMethodNotFound, "Method not found: " + method)));
}

Result<HttpResponse> McpServer::Initialize(const McpCall& call, const json::value& id,
                                           const json::object& params) {
  const json::value* requested = params.if_contains("protocolVersion");
  if (!requested || !requested->is_string()) {
    return JsonAnswer(InvalidParams(id, "initialize needs params.protocolVersion"));
  }
  const std::string session_id = core::HexEncode(core::RandomBytes(32));
  const std::int64_t now = clock_.NowMillis();
  storage::McpSessionRecord record;
  record.id_hash = core::Sha256Hex(session_id);
  record.credential = identity::CredentialName(call.principal);
  record.protocol_version = std::string(NegotiateVersion(requested->as_string()));
  if (const json::value* client = params.if_contains("clientInfo"); client && client->is_object()) {
    record.client_name = ShortString(client->as_object(), "name");
    record.client_version = ShortString(client->as_object(), "version");
  }
  record.created_at = now;
  record.last_used_at = now;
  // Clients that never send DELETE (most) leave sessions behind: each new session of a
  // credential clears that credential's expired and ended ones.
  auto inserted = store_.Write([&](storage::Transaction& tx) -> Result<void> {
    auto cleared = tx.oauth().DeleteStaleMcpSessions(record.credential, now - kSessionIdleMs);
    if (!cleared) return cleared.error();
    return tx.oauth().InsertMcpSession(record);
  });
  if (!inserted) return inserted.error();

  json::object result;
  result["protocolVersion"] = record.protocol_version;
  json::object capabilities{{"tools", json::object{{"listChanged", false}}},
                            {"logging", json::object()}};
  if (extension_) {
    for (const auto& [name, value] : extension_->Capabilities()) capabilities[name] = value;
  }
  result["capabilities"] = std::move(capabilities);
  result["serverInfo"] = json::object{
      {"name", identity_.name}, {"title", identity_.title}, {"version", identity_.version}};
  if (!identity_.instructions.empty()) result["instructions"] = identity_.instructions;
  HttpResponse response = JsonAnswer(ResultMessage(id, std::move(result)));
  response.headers.Set(kSessionHeader, session_id);
  return response;
}

json::object McpServer::ListTools(const McpCall& call, const json::value& id,
                                 const json::object& params) const {
  std::size_t offset = 0;
  if (const json::value* cursor = params.if_contains("cursor")) {
    const auto decoded = DecodeCursor(*cursor);
    if (!decoded) return InvalidParams(id, "Invalid cursor");
    offset = *decoded;
  }
  json::array page;
  std::size_t visible = 0;
  bool more = false;
  std::vector<const json::object*> listed;
  const identity::PermissionSet held = tools::EffectivePermissions(call.principal, std::nullopt);
  for (const Tool& tool : catalog_.tools()) {
    if (tools::MayCall(*tool.operation->spec, call.principal, held, tools::Caller::kModel)) {
      listed.push_back(&tool.descriptor);
    }
  }
  for (const json::object& tool : extension_tools_) listed.push_back(&tool);
  for (const json::object* descriptor : listed) {
    if (visible++ < offset) continue;
    if (page.size() == kToolsPageSize) {
      more = true;
      break;
    }
    page.push_back(*descriptor);
  }
  json::object result{{"tools", std::move(page)}};
  if (more) result["nextCursor"] = EncodeCursor(offset + kToolsPageSize);
  return ResultMessage(id, std::move(result));
}

namespace {

json::object ToolResult(const Tool& tool, const Result<json::value>& result, std::int64_t now,
                        std::string_view request_id) {
  json::object answer;
  if (!result) {
    if (result.error().code() == ErrorCode::kInternal) {
      core::Log(core::LogLevel::kError, "tool call failed",
                {{"requestId", request_id},
                 {"tool", tool.operation->spec->name},
                 {"internal", result.error().internal()}});
    }
    const json::object body = core::ErrorResponseBody(result.error(), now, request_id);
    answer["content"] = json::array{json::object{{"type", "text"}, {"text", core::ToJson(body)}}};
    answer["isError"] = true;
    return answer;
  }
  const json::value& value = *result;
  answer["content"] = json::array{
      json::object{{"type", "text"}, {"text", value.is_null() ? "{}" : core::ToJson(value)}}};
  if (tool.has_output_schema && value.is_object()) answer["structuredContent"] = value;
  answer["isError"] = false;
  return answer;
}

Error InsufficientScope(const identity::Principal& principal, identity::Permission needed) {
  std::string scope;
  for (const std::string_view name : principal.permissions.Names()) scope += std::string(name) + " ";
  scope += identity::PermissionName(needed);
  json::object details;
  details["requiredScope"] = scope;
  return Error(ErrorCode::kOAuthInsufficientScope,
               "This connection's consent does not include '" +
                   std::string(identity::PermissionName(needed)) + "'.",
               std::move(details));
}

}  // namespace

void McpServer::CallTool(const McpCall& call, const Session& session, const json::value& id,
                         const json::object& params, McpDone done) {
  const json::value* name = params.if_contains("name");
  if (!name || !name->is_string()) {
    return done(JsonAnswer(InvalidParams(id, "tools/call needs params.name")));
  }
  if (extension_ && extension_->HasTool(name->as_string())) {
    return done(CallExtension(session, id, name->as_string(), params));
  }
  const Tool* tool = catalog_.Find(name->as_string());
  if (!tool) {
    return done(JsonAnswer(
        InvalidParams(id, "Unknown tool: " + std::string(name->as_string()))));
  }
  json::object given;
  if (const json::value* arguments = params.if_contains("arguments")) {
    if (!arguments->is_object() && !arguments->is_null()) {
      return done(JsonAnswer(InvalidParams(id, "arguments must be an object")));
    }
    if (arguments->is_object()) given = arguments->as_object();
  }
  const std::string request_id(call.meta.request_id);
  // A consent lacking the tool's permission, where consenting again could give it, is a
  // step-up challenge (403 insufficient_scope naming the scope to ask for), not a tool error.
  // Every other refusal comes from the dispatcher, as a tool result.
  const tools::OperationSpec& spec = *tool->operation->spec;
  const auto held = tools::EffectivePermissions(call.principal, std::nullopt);
  if (call.principal.kind == identity::CredentialKind::kMcpToken &&
      tools::CheckCredential(spec, call.principal, tools::Caller::kModel) &&
      !tools::CheckPermission(spec, held) &&
      call.principal.consentable.Has(spec.permission)) {
    return done(InsufficientScope(call.principal, spec.permission));
  }
  auto state = std::make_shared<CallState>();
  const std::string key = InFlight::Key(session.id_hash, id);
  in_flight_->Add(key, state);
  const json::value* meta = params.if_contains("_meta");
  const json::value* token =
      meta && meta->is_object() ? meta->as_object().if_contains("progressToken") : nullptr;
  const bool streamed = token && (token->is_string() || token->is_int64() || token->is_uint64());
  if (streamed) {
    const bool log_info = *LogLevelRank(session.record.log_level) <= *LogLevelRank("info");
    HttpResponse response;
    response.headers.Set("Content-Type", "text/event-stream");
    response.headers.Set("Cache-Control", "no-cache");
    response.headers.Set("X-Accel-Buffering", "no");
    response.stream = std::make_shared<ToolCallStream>(state, *token,
                                                       std::string(name->as_string()), log_info);
    done(std::move(response));
  }
  dispatcher_.CallAsync(
      *tool->operation, call.principal, given, call.meta,
      [this, tool, state, key, id, streamed, request_id,
       done = streamed ? McpDone() : std::move(done)](Result<json::value> result) {
        json::object answer =
            ResultMessage(id, ToolResult(*tool, result, clock_.NowMillis(), request_id));
        in_flight_->Remove(key);
        if (!streamed) return done(JsonAnswer(answer));
        std::lock_guard lock(state->mutex);
        state->answer = std::move(answer);
      });
}

HttpResponse McpServer::CallExtension(const Session& session, const json::value& id,
                                      std::string_view name, const json::object& params) {
  ExtensionCall call{std::string(name), {}, id, nullptr, session.record.log_level,
                     session.id_hash};
  if (const json::value* arguments = params.if_contains("arguments");
      arguments && arguments->is_object()) {
    call.arguments = arguments->as_object();
  }
  const json::value* meta = params.if_contains("_meta");
  if (const json::value* token =
          meta && meta->is_object() ? meta->as_object().if_contains("progressToken") : nullptr) {
    call.progress_token = *token;
  }
  return extension_->CallTool(std::move(call));
}

}  // namespace sightline::mcp
