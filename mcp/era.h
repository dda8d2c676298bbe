// The two eras of MCP served on one endpoint, told apart per request:
// - legacy (2025-11-25 back to 2025-03-26): an `initialize` handshake and an `Mcp-Session-Id`;
// - modern (2026-07-28): stateless; every request carries its protocol version and the client's
//   capabilities in `params._meta`, and names its method (and tool, prompt or resource) in
//   headers.
// The era is decided from the body first, as the SDK v2 clients expect, before any session or
// version-header check: a dual-era client that gets a legacy refusal to a modern request
// concludes the server is legacy and downgrades. Pure functions.
#pragma once

#include "core/http_types.h"
#include "mcp/protocol.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::mcp {

enum class Era { kLegacy, kModern };

// The modern revisions served, newest first: what `server/discover` lists.
inline constexpr std::array<std::string_view, 1> kModernProtocolVersions = {"2026-07-28"};
// The first modern revision: a version at or after it (dates compare as strings) is modern.
inline constexpr std::string_view kFirstModernVersion = "2026-07-28";

// The `_meta` keys of the modern envelope.
namespace meta_key {
inline constexpr std::string_view kProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kClientCapabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kServerInfo = "io.modelcontextprotocol/serverInfo";
}  // namespace meta_key

// JSON-RPC codes the 2026-07-28 revision adds.
namespace rpc {
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kMissingCapability = -32021;
inline constexpr int kUnsupportedVersion = -32022;
}  // namespace rpc

// A modern request's refusal: a JSON-RPC error message with the HTTP status it travels with.
struct RpcRefusal {
  int status = 400;
  boost::json::object message;
};

// What one POST is: its era, or a refusal that no era's rules would accept.
struct Classified {
  Era era = Era::kLegacy;
  std::optional<RpcRefusal> refusal;
};

bool IsModernVersion(std::string_view version);

// Classifies a POST body (already parsed as JSON) with its headers.
Classified ClassifyPost(const boost::json::value& body, const core::HttpHeaders& headers);

// What a modern request declared about itself in `_meta`.
struct ModernEnvelope {
  std::string protocol_version;
  boost::json::object client_capabilities;
  std::string log_level;  // `logLevel`, a syslog level name; empty: send no logs
};

struct CheckedEnvelope {
  ModernEnvelope envelope;
  std::optional<RpcRefusal> refusal;
};

// Checks a modern request (or notification) against the 2026-07-28 rules: the `_meta` keys,
// the version served, `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`.
CheckedEnvelope CheckModernRequest(const Message& message, const core::HttpHeaders& headers);

// `Mcp-Name`'s value with the `=?base64?…?=` form decoded; nullopt when it is malformed.
std::optional<std::string> DecodeHeaderValue(std::string_view value);

// Marks a modern result complete (`resultType`) and names the server in its `_meta`.
void MarkComplete(boost::json::object& result, const boost::json::object& server_info);
// How long a client may reuse a result (discover, lists, reads) and with whom it may share it:
// "public" (anyone) or "private" (this credential only).
void MarkCacheable(boost::json::object& result, std::int64_t ttl_ms, std::string_view scope);

// JSON-RPC error with its HTTP status.
RpcRefusal Refuse(int status, const boost::json::value& id, int code, std::string_view message,
                  boost::json::value data = nullptr);

}  // namespace sightline::mcp
