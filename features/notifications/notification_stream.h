// The live notification feed as Server-Sent Events. It polls the store (once a second) for
// notifications after the last one sent, so a notification raised on any node reaches a
// subscriber connected to any other node; between notifications it sends a keep-alive comment
// every 15 seconds. Another node may commit a notification stamped slightly earlier than one
// already sent, so each poll re-reads the last few seconds and skips what it sent. Each event's id is a cursor (tools/paging),
// so a reconnecting EventSource resumes with Last-Event-ID. Not thread-safe: one transport coroutine polls it.
#pragma once

#include "core/http_types.h"
#include "storage/store.h"

#include <chrono>
#include <deque>
#include <string>
#include <utility>

namespace sightline::tools {

class NotificationStream final : public core::ResponseStream {
 public:
  NotificationStream(storage::Store& store, std::string project_id,
                     std::pair<std::int64_t, std::string> after);

  std::chrono::milliseconds poll_interval() const override { return std::chrono::seconds(1); }
  std::optional<std::string> Poll() override;

  // Event ids are tools/paging cursors of this list: a Last-Event-ID that is not one is
  // refused like any cursor, and the stream starts from now.
  static constexpr std::string_view kCursorList = "notification_stream";

 private:
  storage::Store& store_;
  const std::string project_id_;
  const std::pair<std::int64_t, std::string> start_;  // nothing at or before it is sent
  std::pair<std::int64_t, std::string> after_;
  std::deque<std::pair<std::int64_t, std::string>> sent_;  // within the overlap window
  int quiet_polls_ = 0;
};

}  // namespace sightline::tools
