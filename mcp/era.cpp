#include "mcp/era.h"

#include "core/crypto.h"
#include "core/text.h"

#include <algorithm>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

constexpr std::string_view kVersionHeader = "MCP-Protocol-Version";
constexpr std::string_view kMethodHeader = "Mcp-Method";
constexpr std::string_view kNameHeader = "Mcp-Name";

const json::object* MetaOf(const json::object& message) {
  const json::value* params = message.if_contains("params");
  if (!params || !params->is_object()) return nullptr;
  const json::value* meta = params->as_object().if_contains("_meta");
  return meta && meta->is_object() ? &meta->as_object() : nullptr;
}

// The protocol version a message claims in its `_meta`: what makes it modern.
bool HasClaim(const json::value& message) {
  if (!message.is_object()) return false;
  const json::object* meta = MetaOf(message.as_object());
  return meta && meta->contains(meta_key::kProtocolVersion);
}

json::value IdOf(const json::value& message) {
  if (!message.is_object()) return nullptr;
  const json::value* id = message.as_object().if_contains("id");
  return id ? *id : json::value(nullptr);
}

bool IsSupportedModernVersion(std::string_view version) {
  return std::find(kModernProtocolVersions.begin(), kModernProtocolVersions.end(), version) !=
         kModernProtocolVersions.end();
}

json::object UnsupportedVersionData(std::string_view requested) {
  json::array supported;
  for (std::string_view version : kModernProtocolVersions) supported.emplace_back(version);
  return {{"supported", std::move(supported)}, {"requested", requested}};
}

// The name a request's `Mcp-Name` must carry, or nullopt when its method takes none.
std::optional<std::string> NameOf(const Message& message) {
  std::string_view member;
  if (message.method == "tools/call" || message.method == "prompts/get") {
    member = "name";
  } else if (message.method == "resources/read") {
    member = "uri";
  } else if (message.method == "tasks/get" || message.method == "tasks/update" ||
             message.method == "tasks/cancel") {
    member = "taskId";  // SEP-2663's routing header
  } else {
    return std::nullopt;
  }
  const json::value* value = message.params.if_contains(member);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::optional<RpcRefusal> CheckHeaders(const Message& message, const core::HttpHeaders& headers,
                                       std::string_view version) {
  const auto header_version = headers.Get(kVersionHeader);
  if (!header_version || *header_version != version) {
    return Refuse(400, message.id, rpc::kHeaderMismatch,
                  "The MCP-Protocol-Version header must equal the protocol version in _meta (" +
                      std::string(version) + ").");
  }
  if (message.kind != Message::Kind::kRequest) return std::nullopt;
  const auto method = headers.Get(kMethodHeader);
  if (!method || *method != message.method) {
    return Refuse(400, message.id, rpc::kHeaderMismatch,
                  "The Mcp-Method header must equal the request's method (" + message.method +
                      ").");
  }
  const auto expected_name = NameOf(message);
  if (!expected_name) return std::nullopt;
  const auto given = headers.Get(kNameHeader);
  const auto decoded = given ? DecodeHeaderValue(*given) : std::nullopt;
  if (!decoded || *decoded != *expected_name) {
    const std::string_view member = message.method == "resources/read" ? "params.uri"
                                     : message.method.starts_with("tasks/") ? "params.taskId"
                                                                            : "params.name";
    return Refuse(400, message.id, rpc::kHeaderMismatch,
                  "The Mcp-Name header must equal the request's " + std::string(member) + ".");
  }
  return std::nullopt;
}

}  // namespace

bool IsModernVersion(std::string_view version) {
  return version.size() == kFirstModernVersion.size() && version >= kFirstModernVersion;
}

void MarkComplete(json::object& result, const json::object& server_info) {
  result["resultType"] = "complete";
  json::value& meta = result["_meta"];
  if (!meta.is_object()) meta = json::object();
  meta.as_object()[meta_key::kServerInfo] = server_info;
}

void MarkCacheable(json::object& result, std::int64_t ttl_ms, std::string_view scope) {
  result["ttlMs"] = ttl_ms;
  result["cacheScope"] = scope;
}

RpcRefusal Refuse(int status, const json::value& id, int code, std::string_view message,
                  json::value data) {
  return {status, ErrorMessage(id, code, message, std::move(data))};
}

Classified ClassifyPost(const json::value& body, const core::HttpHeaders& headers) {
  const auto header = headers.Get(kVersionHeader);
  const bool modern_header = header && IsModernVersion(*header);
  if (body.is_array()) {
    const json::array& batch = body.as_array();
    if (std::any_of(batch.begin(), batch.end(), HasClaim) || modern_header) {
      return {Era::kModern, Refuse(400, nullptr, rpc::kInvalidRequest,
                                   "JSON-RPC batches are not part of MCP 2026-07-28: send one "
                                   "message per POST.")};
    }
    return {Era::kLegacy, std::nullopt};  // the legacy path refuses batches in its own way
  }
  if (HasClaim(body)) return {Era::kModern, std::nullopt};
  const json::object* message = body.is_object() ? &body.as_object() : nullptr;
  const json::value* method = message ? message->if_contains("method") : nullptr;
  if (method && method->is_string() && method->as_string() == "initialize") {
    if (!modern_header) return {Era::kLegacy, std::nullopt};
    return {Era::kModern,
            Refuse(400, IdOf(body), rpc::kHeaderMismatch,
                   "initialize is the 2025 handshake, but MCP-Protocol-Version names " +
                       std::string(*header) + ": send no initialize at 2026-07-28.")};
  }
  if (!modern_header) return {Era::kLegacy, std::nullopt};
  if (!message || !method) {
    return {Era::kModern, Refuse(400, IdOf(body), rpc::kInvalidRequest,
                                 "A 2026-07-28 POST carries one JSON-RPC request or "
                                 "notification.")};
  }
  if (!message->contains("id")) return {Era::kModern, std::nullopt};  // a notification
  return {Era::kModern,
          Refuse(400, IdOf(body), rpc::kInvalidParams,
                 "A 2026-07-28 request carries params._meta with \"" +
                     std::string(meta_key::kProtocolVersion) + "\" and \"" +
                     std::string(meta_key::kClientCapabilities) + "\".")};
}

CheckedEnvelope CheckModernRequest(const Message& message, const core::HttpHeaders& headers) {
  CheckedEnvelope checked;
  const json::value* meta_value = message.params.if_contains("_meta");
  const json::object* meta =
      meta_value && meta_value->is_object() ? &meta_value->as_object() : nullptr;
  const json::value* version = meta ? meta->if_contains(meta_key::kProtocolVersion) : nullptr;
  const json::value* capabilities =
      meta ? meta->if_contains(meta_key::kClientCapabilities) : nullptr;
  if (!version || !version->is_string() || version->as_string().empty()) {
    checked.refusal = Refuse(400, message.id, rpc::kInvalidParams,
                             "_meta[\"" + std::string(meta_key::kProtocolVersion) +
                                 "\"] must be a protocol version string.");
    return checked;
  }
  if (!capabilities || !capabilities->is_object()) {
    checked.refusal = Refuse(400, message.id, rpc::kInvalidParams,
                             "_meta[\"" + std::string(meta_key::kClientCapabilities) +
                                 "\"] must be an object (empty when the client declares none).");
    return checked;
  }
  // The headers first: a request whose header and body disagree is malformed, whichever
  // version it names.
  const std::string_view requested = version->as_string();
  if ((checked.refusal = CheckHeaders(message, headers, requested))) return checked;
  if (!IsSupportedModernVersion(requested)) {
    checked.refusal =
        Refuse(400, message.id, rpc::kUnsupportedVersion,
               "Protocol version " + std::string(requested) + " is not served in this form.",
               UnsupportedVersionData(requested));
    return checked;
  }
  checked.envelope.protocol_version = std::string(requested);
  checked.envelope.client_capabilities = capabilities->as_object();
  if (const json::value* level = meta->if_contains(meta_key::kLogLevel)) {
    if (level->is_string() && LogLevelRank(level->as_string())) {
      checked.envelope.log_level = std::string(level->as_string());
    } else {
      checked.refusal = Refuse(400, message.id, rpc::kInvalidParams,
                               "_meta[\"" + std::string(meta_key::kLogLevel) +
                                   "\"] must be a syslog level name.");
    }
  }
  return checked;
}

std::optional<std::string> DecodeHeaderValue(std::string_view value) {
  constexpr std::string_view kPrefix = "=?base64?";
  constexpr std::string_view kSuffix = "?=";
  if (!value.starts_with(kPrefix)) return std::string(value);
  if (!value.ends_with(kSuffix) || value.size() < kPrefix.size() + kSuffix.size()) {
    return std::nullopt;
  }
  const std::string_view encoded =
      value.substr(kPrefix.size(), value.size() - kPrefix.size() - kSuffix.size());
  return core::Base64Decode(encoded);
}

}  // namespace sightline::mcp
