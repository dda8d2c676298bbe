#include "agent/sse_decoder.h"

namespace sightline::agent {

void SseDecoder::Feed(std::string_view bytes) {
  if (!started_) {
    // A UTF-8 BOM may open the stream; the check waits for three bytes.
    pending_.append(bytes);
    if (pending_.size() < 3 && std::string_view("\xEF\xBB\xBF").starts_with(pending_)) return;
    started_ = true;
    std::string head = std::move(pending_);
    pending_.clear();
    if (head.starts_with("\xEF\xBB\xBF")) head.erase(0, 3);
    Feed(head);
    return;
  }
  for (const char c : bytes) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;  // CRLF: the line ended at the CR
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      Line(pending_);
      pending_.clear();
    } else {
      pending_.push_back(c);
    }
  }
}

void SseDecoder::Line(std::string_view line) {
  if (line.empty()) {  // a blank line dispatches the event
    if (has_data_) on_event_(event_);
    event_ = SseEvent{};
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // a comment (keep-alive)
  const auto colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (value.starts_with(' ')) value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) event_.data.push_back('\n');
    event_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    event_.name = std::string(value);
  }
}

}  // namespace sightline::agent
