// The events of one answer as it is produced, from the thread running it to the client's
// Server-Sent Events stream: `message` (a stored row: the question, the assistant's text, a
// tool call, a tool result), `text_delta` (text as the model writes it), `approval_required`
// (a proposed write waiting for the user), `done` (the conversation and why the answer
// stopped) and `error` (an ErrorResponse). Between events a keep-alive comment goes every
// 15 s. A client that goes away loses only the stream: the answer is still produced and
// stored. Thread-safe.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <mutex>
#include <string>

#include "core/http_types.h"

namespace sightline::agent {

class AnswerEvents {
 public:
  void Push(std::string_view name, const boost::json::object& data);
  void Close();
  // The encoded events queued since the last call ("" when none); nullopt once closed and
  // drained.
  std::optional<std::string> Take();

 private:
  std::mutex mutex_;
  std::string queued_;
  bool closed_ = false;
};

class AnswerStream final : public core::ResponseStream {
 public:
  explicit AnswerStream(std::shared_ptr<AnswerEvents> events) : events_(std::move(events)) {}
  std::chrono::milliseconds poll_interval() const override { return std::chrono::milliseconds(25); }
  std::optional<std::string> Poll() override;

 private:
  std::shared_ptr<AnswerEvents> events_;
  std::chrono::steady_clock::time_point last_sent_ = std::chrono::steady_clock::now();
};

}  // namespace sightline::agent
