// The 2026-07-28 era of mcp/mcp_server.h: one stateless request per POST, checked against its
// envelope (mcp/era.h), answered with results marked complete and, for discover and lists,
// how long they may be reused.
#include "mcp/mcp_server.h"

#include "core/text.h"
#include "mcp/answers.h"

#include <algorithm>
#include <array>
#include <span>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// server/discover depends on nothing but this build: anyone may share it for an hour.
constexpr std::int64_t kDiscoverTtlMs = 3600LL * 1000;
// tools/list depends on the credential's consent and its user's live role: a client keeps it
// for itself, a minute at most (every call is still checked live).
constexpr std::int64_t kToolsTtlMs = 60LL * 1000;
constexpr std::string_view kPublicScope = "public";
constexpr std::string_view kPrivateScope = "private";

// The extension's methods whose complete results may be cached (the fixtures are static).
constexpr std::array<std::string_view, 4> kCacheableExtensionMethods = {
    "prompts/list", "resources/list", "resources/templates/list", "resources/read"};
constexpr std::int64_t kExtensionTtlMs = 3600LL * 1000;

// The legacy handshake and session methods, which a modern request cannot name.
constexpr std::array<std::string_view, 5> kLegacyOnlyMethods = {
    "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"};

bool IsOneOf(std::string_view method, std::span<const std::string_view> methods) {
  return std::find(methods.begin(), methods.end(), method) != methods.end();
}

// The HTTP status a modern JSON-RPC answer travels with: an unknown method is a 404.
int StatusOf(const json::object& message) {
  const json::value* error = message.if_contains("error");
  if (!error || !error->is_object()) return 200;
  const json::value* code = error->as_object().if_contains("code");
  return code && code->is_int64() && code->as_int64() == rpc::kMethodNotFound ? 404 : 200;
}

// Marks the result of `message` (when it has one) complete, and cacheable when `ttl_ms` is set.
void MarkResult(json::object& message, const json::object& server_info,
                std::optional<std::int64_t> ttl_ms = std::nullopt,
                std::string_view scope = kPublicScope) {
  json::value* result = message.if_contains("result");
  if (!result || !result->is_object()) return;
  if (!result->as_object().contains("resultType")) {
    MarkComplete(result->as_object(), server_info);
  }
  if (ttl_ms && result->as_object().at("resultType") == "complete") {
    MarkCacheable(result->as_object(), *ttl_ms, scope);
  }
}

std::optional<RpcRefusal> CheckModernMedia(const core::HttpHeaders& headers,
                                           const json::value& id) {
  const auto fault = CheckPostMedia(headers);
  if (!fault) return std::nullopt;
  return Refuse(fault->status, id, rpc::kInvalidRequest, fault->message);
}

}  // namespace

void McpServer::HandleModern(const McpCall& call, json::value body, McpDone done) {
  auto message = ParseMessage(std::move(body));
  if (!message) {
    return done(RpcAnswer(Refuse(400, nullptr, rpc::kInvalidRequest, message.error().message())));
  }
  if (auto refusal = CheckModernMedia(call.headers, message->id)) return done(RpcAnswer(*refusal));
  if (message->kind == Message::Kind::kResponse) {
    return done(RpcAnswer(Refuse(400, message->id, rpc::kInvalidRequest,
                                 "A 2026-07-28 server sends no requests, so it takes no "
                                 "responses.")));
  }
  const CheckedEnvelope checked = CheckModernRequest(*message, call.headers);
  if (checked.refusal) return done(RpcAnswer(*checked.refusal));
  if (message->kind == Message::Kind::kNotification) return done(Accepted());
  const RequestContext context{
      Era::kModern, {}, checked.envelope.log_level, checked.envelope.client_capabilities,
      TasksFor(Era::kModern, checked.envelope.protocol_version,
               checked.envelope.client_capabilities)};
  AnswerModern(call, context, *message, std::move(done));
}

void McpServer::AnswerModern(const McpCall& call, const RequestContext& context,
                             const Message& message, McpDone done) {
  const json::value& id = message.id;
  const std::string& method = message.method;
  if (method == "server/discover") {
    json::object answer = ResultMessage(id, Discover());
    MarkResult(answer, server_info_, kDiscoverTtlMs, kPublicScope);
    return done(JsonAnswer(answer));
  }
  if (method == "tools/list") {
    json::object answer = ListTools(call, id, message.params, Era::kModern);
    MarkResult(answer, server_info_, kToolsTtlMs, kPrivateScope);
    return done(JsonAnswer(answer, StatusOf(answer)));
  }
  if (method == "tools/call") return CallTool(call, context, id, message.params, std::move(done));
  if (AnswerTask(call, context, message, done)) return;
  const ExtensionRequest request{Era::kModern,
                                 context.log_level,
                                 {},
                                 identity::CredentialName(call.principal),
                                 context.client_capabilities,
                                 server_info_};
  // The views depend on this build alone: anyone may share them for an hour.
  if (auto answer = AnswerResources(method, id, message.params, request)) {
    MarkResult(*answer, server_info_, kExtensionTtlMs, kPublicScope);
    return done(JsonAnswer(*answer, StatusOf(*answer)));
  }
  if (extension_ && !IsOneOf(method, kLegacyOnlyMethods)) {
    if (auto answer = extension_->Handle(method, id, message.params, request)) {
      const bool cacheable = IsOneOf(method, kCacheableExtensionMethods);
      MarkResult(*answer, server_info_,
                 cacheable ? std::optional<std::int64_t>(kExtensionTtlMs) : std::nullopt);
      return done(JsonAnswer(*answer, StatusOf(*answer)));
    }
  }
  // Includes subscriptions/listen: no list here ever changes, so there is nothing to listen to.
  done(RpcAnswer(Refuse(404, id, rpc::kMethodNotFound, "Method not found: " + method)));
}

json::object McpServer::Discover() const {
  json::array versions;
  for (std::string_view version : kModernProtocolVersions) versions.emplace_back(version);
  json::object result{{"supportedVersions", std::move(versions)},
                      {"capabilities", ServerCapabilities(Era::kModern)}};
  if (!identity_.instructions.empty()) result["instructions"] = identity_.instructions;
  return result;
}

}  // namespace sightline::mcp
