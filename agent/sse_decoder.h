// Incremental decoder of a text/event-stream (the WHATWG Server-Sent Events rules): bytes go
// in as they arrive, split anywhere; complete events come out. Handles LF, CR and CRLF line
// ends, multi-line `data:`, `event:` names, comments and a leading BOM. Not thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace sightline::agent {

struct SseEvent {
  std::string name = "message";  // `event:`; "message" when absent
  std::string data;              // the `data:` lines joined with "\n"
};

class SseDecoder {
 public:
  explicit SseDecoder(std::function<void(const SseEvent&)> on_event)
      : on_event_(std::move(on_event)) {}
  void Feed(std::string_view bytes);

 private:
  void Line(std::string_view line);

  std::function<void(const SseEvent&)> on_event_;
  std::string pending_;  // an unfinished line
  bool after_cr_ = false;
  bool started_ = false;
  SseEvent event_;
  bool has_data_ = false;
};

}  // namespace sightline::agent
