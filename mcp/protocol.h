// JSON-RPC 2.0 framing and the MCP protocol revisions this server speaks. Pure functions.
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::mcp {

// Newest first. `initialize` echoes a requested revision from this list, else offers the first.
inline constexpr std::array<std::string_view, 3> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                      "2025-03-26"};
// What a request without `MCP-Protocol-Version` is taken to speak (the transport spec's rule).
inline constexpr std::string_view kAssumedProtocolVersion = "2025-03-26";

bool IsSupportedVersion(std::string_view version);
std::string_view NegotiateVersion(std::string_view requested);

// JSON-RPC error codes (the MCP schema's table).
namespace rpc {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// 2025-11-25's "resource not found"; 2026-07-28 (SEP-2164) says kInvalidParams instead.
inline constexpr int kLegacyResourceNotFound = -32002;
}  // namespace rpc

struct Message {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kRequest;
  boost::json::value id;  // requests and responses: a string or an integer
  std::string method;     // requests and notifications
  boost::json::object params;
  boost::json::value response;  // responses: the `result`, or {"error": …}
};

// Reads one JSON-RPC message, moving its parts out of `body`; the error (for a 400) says what
// is wrong with it.
core::Result<Message> ParseMessage(boost::json::value body);

boost::json::object ResultMessage(const boost::json::value& id, boost::json::value result);
boost::json::object ErrorMessage(const boost::json::value& id, int code, std::string_view message,
                                 boost::json::value data = nullptr);
boost::json::object NotificationMessage(std::string_view method, boost::json::object params);

// Syslog levels as `logging/setLevel` names them, least severe first; nullopt for other names.
std::optional<int> LogLevelRank(std::string_view level);

}  // namespace sightline::mcp
