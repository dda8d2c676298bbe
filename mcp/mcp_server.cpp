#include "mcp/mcp_server.h"

#include "tools/access.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "mcp/answers.h"
#include "mcp/cancellable_calls.h"
#include "storage/oauth_repository.h"

#include <boost/json/parse.hpp>

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::HttpResponse;
using core::Result;

// A session idle this long is gone (404): the client starts again with `initialize`.
constexpr std::int64_t kSessionIdleMs = 30LL * 24 * 3600 * 1000;
// How stale last_used_at may get before a request writes it again (one write per hour, not
// one per request).
constexpr std::int64_t kTouchEveryMs = 3600LL * 1000;
constexpr std::size_t kClientInfoMaxChars = 200;
constexpr std::string_view kSessionHeader = "Mcp-Session-Id";

// A GET or DELETE that says it speaks 2026-07-28, where neither exists.
bool ModernHeader(const core::HttpHeaders& headers) {
  const auto version = headers.Get("MCP-Protocol-Version");
  return version && IsModernVersion(*version);
}

HttpResponse ModernMethodNotAllowed() {
  HttpResponse response = RpcAnswer(
      Refuse(405, nullptr, rpc::kInvalidRequest,
             "MCP 2026-07-28 is served by POST alone: no event stream, no session to end."));
  response.headers.Set("Allow", "POST");
  return response;
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

Result<void> CheckLegacyMedia(const core::HttpHeaders& headers) {
  const auto fault = CheckPostMedia(headers);
  if (!fault) return {};
  return Error(fault->status == 415 ? ErrorCode::kValUnsupportedMediaType
                                    : ErrorCode::kNotAcceptable,
               std::string(fault->message));
}

std::optional<std::string> ShortString(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->as_string().subview().substr(0, kClientInfoMaxChars));
}

json::object InvalidParams(const json::value& id, std::string_view message) {
  return ErrorMessage(id, rpc::kInvalidParams, message);
}

}  // namespace

struct McpServer::Session {
  std::string id_hash;
  storage::McpSessionRecord record;
};

McpServer::McpServer(const ToolCatalog& catalog, tools::Gate& gate, storage::Store& store,
                     const core::Clock& clock, ServerIdentity identity,
                     const McpExtension* extension)
    : catalog_(catalog),
      extension_(extension),
      gate_(gate),
      dispatcher_(gate.dispatcher()),
      store_(store),
      clock_(clock),
      identity_(std::move(identity)),
      server_info_{{"name", identity_.name}, {"version", identity_.version}},
      in_flight_(std::make_unique<CancellableCalls>()) {
  if (extension_) {
    for (const json::value& tool : extension_->Tools()) {
      extension_tools_.push_back(tool.as_object());
    }
  }
}

McpServer::~McpServer() = default;

void McpServer::HandleAsync(const McpCall& call, McpDone done) {
  if (call.method != core::HttpMethod::kPost && ModernHeader(call.headers)) {
    return done(ModernMethodNotAllowed());
  }
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

// The era is decided before anything else looks at the request: each era refuses in its own
// words (a REST ErrorResponse for legacy clients, a JSON-RPC error for modern ones).
void McpServer::HandlePost(const McpCall& call, McpDone done) {
  boost::system::error_code parse_error;
  json::value body = json::parse(call.body, parse_error);
  if (parse_error) {
    if (ModernHeader(call.headers)) {
      return done(RpcAnswer(Refuse(400, nullptr, rpc::kParseError, "The body is not valid JSON.")));
    }
    if (auto media = CheckLegacyMedia(call.headers); !media) return done(media.error());
    return done(Error(ErrorCode::kValMalformedJson, "The body is not valid JSON."));
  }
  const Classified classified = ClassifyPost(body, call.headers);
  if (classified.refusal) return done(RpcAnswer(*classified.refusal));
  if (classified.era == Era::kModern) return HandleModern(call, std::move(body), std::move(done));
  HandleLegacy(call, std::move(body), std::move(done));
}

void McpServer::HandleLegacy(const McpCall& call, json::value body, McpDone done) {
  if (auto media = CheckLegacyMedia(call.headers); !media) return done(media.error());
  auto message = ParseMessage(std::move(body));
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
        in_flight_->Cancel(CancellableCalls::Key(session->id_hash, *request_id));
      }
    }
    return done(Accepted());  // notifications and responses get no answer
  }
  AnswerLegacy(call, *session, *message, std::move(done));
}

void McpServer::AnswerLegacy(const McpCall& call, const Session& session, const Message& message,
                             McpDone done) {
  const RequestContext context{
      Era::kLegacy, session.id_hash, session.record.log_level, {},
      TasksFor(Era::kLegacy, session.record.protocol_version, json::object())};
  const json::value& id = message.id;
  const std::string& method = message.method;
  if (method == "ping") return done(JsonAnswer(ResultMessage(id, json::object())));
  if (method == "tools/list") return done(JsonAnswer(ListTools(call, id, message.params)));
  if (method == "tools/call") return CallTool(call, context, id, message.params, std::move(done));
  if (AnswerTask(call, context, message, done)) return;
  if (method == "logging/setLevel") {
    const json::value* level = message.params.if_contains("level");
    if (!level || !level->is_string() || !LogLevelRank(level->as_string())) {
      return done(JsonAnswer(InvalidParams(id, "level must be a syslog level name")));
    }
    auto stored = store_.Write([&](storage::Transaction& tx) {
      return tx.oauth().UpdateMcpSession(session.id_hash, clock_.NowMillis(),
                                         std::string(level->as_string()));
    });
    if (!stored) return done(stored.error());
    return done(JsonAnswer(ResultMessage(id, json::object())));
  }
  const ExtensionRequest request{Era::kLegacy, session.record.log_level, session.id_hash,
                                 identity::CredentialName(call.principal), {}, {}};
  if (auto answer = AnswerResources(method, id, message.params, request)) {
    return done(JsonAnswer(*answer));
  }
  if (extension_) {
    if (auto answer = extension_->Handle(method, id, message.params, request)) {
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
  result["capabilities"] = ServerCapabilities(Era::kLegacy);
  if (TasksFor(Era::kLegacy, record.protocol_version, json::object())) {
    AddTaskCapabilities(result["capabilities"].as_object(), Era::kLegacy);
  }
  result["serverInfo"] = json::object{
      {"name", identity_.name}, {"title", identity_.title}, {"version", identity_.version}};
  if (!identity_.instructions.empty()) result["instructions"] = identity_.instructions;
  HttpResponse response = JsonAnswer(ResultMessage(id, std::move(result)));
  response.headers.Set(kSessionHeader, session_id);
  return response;
}

json::object McpServer::ServerCapabilities(Era era) const {
  json::object capabilities{{"tools", json::object{{"listChanged", false}}},
                            {"logging", json::object()}};
  if (!catalog_.views().empty()) {
    capabilities["resources"] = json::object{{"listChanged", false}};
    capabilities["extensions"] = json::object{
        {kAppsExtension, json::object{{"mimeTypes", json::array{kAppMimeType}}}}};
  }
  if (extension_) {
    for (const auto& [name, value] : extension_->Capabilities(era)) capabilities[name] = value;
  }
  // 2025-11-25's tasks capability depends on the revision a session negotiates: Initialize adds it.
  if (era == Era::kModern) AddTaskCapabilities(capabilities, era);
  return capabilities;
}

}  // namespace sightline::mcp
