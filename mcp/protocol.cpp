#include "mcp/protocol.h"

#include <algorithm>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

core::Error Invalid(std::string message) {
  return core::Error(core::ErrorCode::kValBadRequest, std::move(message));
}

constexpr std::array<std::string_view, 8> kLogLevels = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

}  // namespace

bool IsSupportedVersion(std::string_view version) {
  return std::find(kProtocolVersions.begin(), kProtocolVersions.end(), version) !=
         kProtocolVersions.end();
}

std::string_view NegotiateVersion(std::string_view requested) {
  return IsSupportedVersion(requested) ? requested : kProtocolVersions.front();
}

core::Result<Message> ParseMessage(json::value body) {
  if (body.is_array()) {
    return Invalid("JSON-RPC batches are not accepted: send one message per POST.");
  }
  if (!body.is_object()) return Invalid("The body must be one JSON-RPC message (an object).");
  json::object& object = body.as_object();
  const json::value* version = object.if_contains("jsonrpc");
  if (!version || !version->is_string() || version->as_string() != "2.0") {
    return Invalid("The message must carry \"jsonrpc\": \"2.0\".");
  }
  Message message;
  const json::value* id = object.if_contains("id");
  if (id && !id->is_string() && !id->is_int64() && !id->is_uint64()) {
    return Invalid("A JSON-RPC id must be a string or an integer.");
  }
  if (id) message.id = *id;
  const json::value* method = object.if_contains("method");
  if (!method) {
    if (!id || (!object.contains("result") && !object.contains("error"))) {
      return Invalid("The message is neither a request, a notification nor a response.");
    }
    message.kind = Message::Kind::kResponse;
    if (json::value* result = object.if_contains("result")) {
      message.response = std::move(*result);
    } else {
      message.response = json::object{{"error", std::move(object.at("error"))}};
    }
    return message;
  }
  if (!method->is_string() || method->as_string().empty()) {
    return Invalid("\"method\" must be a non-empty string.");
  }
  message.method = std::string(method->as_string());
  message.kind = id ? Message::Kind::kRequest : Message::Kind::kNotification;
  if (json::value* params = object.if_contains("params")) {
    if (!params->is_object()) return Invalid("\"params\" must be an object.");
    message.params = std::move(params->as_object());
  }
  return message;
}

json::object ResultMessage(const json::value& id, json::value result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json::object ErrorMessage(const json::value& id, int code, std::string_view message,
                          json::value data) {
  json::object error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = std::move(data);
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json::object NotificationMessage(std::string_view method, json::object params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

std::optional<int> LogLevelRank(std::string_view level) {
  const auto found = std::find(kLogLevels.begin(), kLogLevels.end(), level);
  if (found == kLogLevels.end()) return std::nullopt;
  return static_cast<int>(found - kLogLevels.begin());
}

}  // namespace sightline::mcp
