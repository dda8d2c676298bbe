// A language model for the assistant's tests: it answers each turn with the next reply of a
// script, so an answer's steps (a read-only call, a proposed write, the final text) are known
// in advance. The model provider is the one external service the assistant needs; everything
// else in the loop (toolbox, dispatcher, approvals, audit) runs for real. Thread-safe.
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <utility>

#include "agent/provider.h"

namespace sightline::operations {

class ScriptedModel final : public agent::LlmProvider {
 public:
  std::string_view name() const override { return "openai"; }
  const std::string& model() const override { return model_; }

  // The reply to give after the ones already queued.
  void Queue(agent::ChatReply reply) {
    std::lock_guard lock(mutex_);
    replies_.push_back(std::move(reply));
  }

  core::Result<agent::ChatReply> Complete(const agent::ChatRequest&,
                                          const agent::TextDeltaCallback& on_text,
                                          const std::function<bool()>&) override {
    agent::ChatReply reply = Next();
    if (on_text && !reply.text.empty()) on_text(reply.text);
    return reply;
  }

  // A reply that proposes one tool call.
  static agent::ChatReply Calls(std::string id, std::string tool, std::string arguments) {
    agent::ChatReply reply;
    reply.tool_calls.push_back({std::move(id), std::move(tool), std::move(arguments)});
    reply.finish = agent::FinishReason::kToolCalls;
    reply.usage = {120, 30};
    return reply;
  }
  static agent::ChatReply Says(std::string text) {
    agent::ChatReply reply;
    reply.text = std::move(text);
    reply.usage = {200, 12};
    return reply;
  }

 private:
  agent::ChatReply Next() {
    std::lock_guard lock(mutex_);
    // An unscripted turn ends the answer rather than hanging the test.
    if (replies_.empty()) return Says("That is all I can say.");
    agent::ChatReply reply = std::move(replies_.front());
    replies_.pop_front();
    return reply;
  }

  const std::string model_ = "scripted-1";
  std::mutex mutex_;
  std::deque<agent::ChatReply> replies_;
};

}  // namespace sightline::operations
