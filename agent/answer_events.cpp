#include "agent/answer_events.h"

#include "core/json_util.h"

namespace sightline::agent {

void AnswerEvents::Push(std::string_view name, const boost::json::object& data) {
  // JSON has no raw newlines, so each event's data is one `data:` line.
  std::string encoded =
      "event: " + std::string(name) + "\ndata: " + core::ToJson(data) + "\n\n";
  std::lock_guard lock(mutex_);
  if (!closed_) queued_ += encoded;
}

void AnswerEvents::Close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

std::optional<std::string> AnswerEvents::Take() {
  std::lock_guard lock(mutex_);
  if (queued_.empty() && closed_) return std::nullopt;
  return std::exchange(queued_, std::string());
}

std::optional<std::string> AnswerStream::Poll() {
  auto events = events_->Take();
  if (!events) return std::nullopt;
  const auto now = std::chrono::steady_clock::now();
  if (!events->empty()) {
    last_sent_ = now;
  } else if (now - last_sent_ >= std::chrono::seconds(15)) {
    last_sent_ = now;
    return std::string(": keep-alive\n\n");
  }
  return events;
}

}  // namespace sightline::agent
