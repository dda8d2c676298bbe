// What the agent operations ask of the assistant. The assistant (agent/) sits above the tools
// layer, since it calls operations through the dispatcher; it implements this interface and
// is attached to the dispatcher at start-up, so the operations reach it without depending on
// it. Implementations are thread-safe.
#pragma once

#include <boost/json/value.hpp>
#include <memory>
#include <string>

#include "core/http_types.h"
#include "core/result.h"
#include "identity/principal.h"
#include "tools/operation.h"

namespace sightline::tools {

struct AssistantStatus {
  bool configured = false;
  std::string provider;  // empty when not configured
  std::string model;
  std::string message;  // for the user
};

// One answer to produce: to a new message, or after decisions on proposed tool calls.
struct AnswerRequest {
  std::string conversation_id;
  std::string content;  // the user's new message; empty when resuming after decisions
  identity::Principal principal;
  std::string organization_id;
  std::string organization_slug;
  std::string project_id;
  std::string request_id;
};

class Assistant {
 public:
  virtual ~Assistant() = default;
  virtual AssistantStatus Status() const = 0;
  // Starts the answer (409 AGENT_002 while another runs in the conversation) and calls `done`
  // with the conversation and the messages the answer added, once it is complete.
  virtual void Answer(AnswerRequest request, ResultCallback done) = 0;
  // The same, answered as Server-Sent Events while it is produced.
  virtual core::Result<std::shared_ptr<core::ResponseStream>> AnswerStreaming(
      AnswerRequest request) = 0;
  // Asks the running answer in the conversation, on whichever node runs it, to stop.
  virtual core::Result<void> Cancel(const std::string& conversation_id) = 0;
};

}  // namespace sightline::tools
