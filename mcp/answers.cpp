#include "mcp/answers.h"

#include "core/json_util.h"
#include "mcp/protocol.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;

json::object ProgressNotification(const json::value& token, int progress,
                                  std::string_view message) {
  return NotificationMessage("notifications/progress", {{"progressToken", token},
                                                        {"progress", progress},
                                                        {"total", 1},
                                                        {"message", message}});
}

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
      std::string events;
      if (!token_.is_null()) events += SseEvent(ProgressNotification(token_, 0, "Running " + tool_));
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
    std::string events;
    if (!token_.is_null()) events += SseEvent(ProgressNotification(token_, 1, "Done"));
    return events + SseEvent(*state_->answer);
  }

 private:
  std::shared_ptr<CallState> state_;
  json::value token_;
  std::string tool_;
  bool log_info_;
  int step_ = 0;
};

}  // namespace

core::HttpResponse JsonAnswer(const json::object& message, int status) {
  core::HttpResponse response;
  response.status = status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  response.body = core::ToJson(message);
  return response;
}

core::HttpResponse RpcAnswer(const RpcRefusal& refusal) {
  return JsonAnswer(refusal.message, refusal.status);
}

core::HttpResponse Accepted() {
  core::HttpResponse response;
  response.status = 202;
  return response;
}

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

std::optional<MediaFault> CheckPostMedia(const core::HttpHeaders& headers) {
  const auto content_type = headers.Get("Content-Type");
  if (!content_type ||
      !core::EqualsIgnoreCase(core::MediaTypeOf(*content_type), "application/json")) {
    return MediaFault{415, "POST /mcp takes one JSON-RPC message as application/json."};
  }
  const auto accept = headers.Get("Accept");
  if (!accept || !Admits(*accept, "application/json") || !Admits(*accept, "text/event-stream")) {
    return MediaFault{406,
                      "Send Accept: application/json, text/event-stream: answers come as either."};
  }
  return std::nullopt;
}

std::string SseEvent(const json::object& message) {
  return "event: message\ndata: " + core::ToJson(message) + "\n\n";
}

core::HttpResponse ToolCallStreamAnswer(std::shared_ptr<CallState> state,
                                        json::value progress_token, std::string tool,
                                        bool log_info) {
  core::HttpResponse response;
  response.headers.Set("Content-Type", "text/event-stream");
  response.headers.Set("Cache-Control", "no-cache");
  response.headers.Set("X-Accel-Buffering", "no");
  response.stream = std::make_shared<ToolCallStream>(std::move(state), std::move(progress_token),
                                                     std::move(tool), log_info);
  return response;
}

}  // namespace sightline::mcp
