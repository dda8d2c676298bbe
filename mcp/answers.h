// How the MCP server's JSON-RPC messages travel over HTTP: one JSON body, 202 for what needs no
// answer, or a stream of Server-Sent Events for a tool call that reports progress or logs while
// it runs. Shared by both eras.
#pragma once

#include "core/http_types.h"
#include "mcp/era.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::mcp {

core::HttpResponse JsonAnswer(const boost::json::object& message, int status = 200);
core::HttpResponse RpcAnswer(const RpcRefusal& refusal);
core::HttpResponse Accepted();

// Whether an Accept header admits `type` (exactly, as "major/*", or as "*/*").
bool Admits(std::string_view accept, std::string_view type);

// What is wrong with a POST's media types, for either era to render its own way: 415 (the body
// is not application/json) or 406 (the answer could not be JSON or an event stream).
struct MediaFault {
  int status;
  std::string_view message;
};
std::optional<MediaFault> CheckPostMedia(const core::HttpHeaders& headers);

std::string SseEvent(const boost::json::object& message);

// One tools/call on its way: its answer once the operation finishes, or the fact that the
// client cancelled it first.
struct CallState {
  std::mutex mutex;
  std::optional<boost::json::object> answer;
  bool cancelled = false;
};

// The event-stream answer to a tools/call: progress 0 (with a progress token) and the info log
// (when the caller's level lets it through) at once, then, when the operation has answered,
// progress 1 and the response. A cancelled call ends without one; a client that closes the
// stream gets nothing more.
core::HttpResponse ToolCallStreamAnswer(std::shared_ptr<CallState> state,
                                        boost::json::value progress_token, std::string tool,
                                        bool log_info);

}  // namespace sightline::mcp
