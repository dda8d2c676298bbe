// The agent assistant: answers a user's question in a conversation by letting a language model
// call the project's operations through the dispatcher, with the user's live permissions.
//
// An answer runs on its own thread: the conversation is claimed (status "running"; a second
// message gets 409 AGENT_002, on any node, since the claim is a conditional update in the
// store), the question is stored, then up to `max_steps` model turns: each turn's text and tool
// calls are stored as rows, read-only calls run at once (fenced as untrusted data for the next
// turn, and audited with the user as actor), and calls that would change anything wait for the
// user's decision (status "awaiting_approval"). The last allowed turn offers no tools, so the
// model must answer with what it has. A stop can be asked from any node (status "canceling",
// polled every second); `max_duration` bounds an answer. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>

#include "agent/answer_events.h"
#include "agent/provider.h"
#include "agent/toolbox.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "storage/account_records.h"
#include "storage/store.h"
#include "tools/assistant.h"
#include "tools/dispatch.h"
#include "tools/gate.h"

namespace sightline::storage {
struct AgentMessageRecord;
}

namespace sightline::agent {

struct AssistantSettings {
  int max_steps = 8;                       // model turns per answer
  std::chrono::seconds max_duration{180};  // per answer
  int max_running = 16;                    // answers at once on this node
  int max_tokens = 2048;                   // per model turn
};

class AssistantService final : public tools::Assistant {
 public:
  // `provider` null: not configured (the status says so; answers are 503 AGENT_001).
  AssistantService(std::unique_ptr<LlmProvider> provider, AssistantSettings settings,
                   tools::Gate& gate, const tools::Registry& registry,
                   storage::Store& store, const core::Clock& clock);
  // Shutdown(), if not done yet.
  ~AssistantService() override;
  // Stops the running answers and waits for them (their callbacks included); later answers are
  // refused. Called before the HTTP layer their callbacks reach is torn down.
  void Shutdown();
  // Asks every running answer to stop, without waiting (the server is shutting down).
  void StopAnswers();

  tools::AssistantStatus Status() const override;
  void Answer(tools::AnswerRequest request, tools::ResultCallback done) override;
  core::Result<std::shared_ptr<core::ResponseStream>> AnswerStreaming(
      tools::AnswerRequest request) override;
  core::Result<void> Cancel(const std::string& conversation_id) override;

 private:
  struct Run;
  core::Result<std::shared_ptr<Run>> Begin(tools::AnswerRequest request);
  void Launch(std::shared_ptr<Run> run);
  void Produce(Run& run);
  bool Step(Run& run, int step);
  core::Result<ChatRequest> TurnRequest(Run& run, bool last);
  std::optional<ChatReply> AskModel(Run& run, const ChatRequest& request);
  core::Result<std::vector<storage::AgentMessageRecord>> RecordReply(Run& run, ChatReply& reply,
                                                                     bool last);
  bool ActOnCalls(Run& run, const std::vector<storage::AgentMessageRecord>& calls);
  void AnswerOpenCalls(Run& run, bool stopping);
  void RunToolCall(Run& run, const storage::AgentMessageRecord& call);
  bool Cancelled(Run& run);
  void Finish(Run& run);
  core::Result<storage::AgentMessageRecord> Store(Run& run, storage::AgentMessageRecord message,
                                                  std::optional<storage::AuditRecord> audit = {});

  std::unique_ptr<LlmProvider> provider_;
  const AssistantSettings settings_;
  tools::Gate& gate_;  // every tool call is counted and checked as any other caller's
  const Toolbox toolbox_;
  storage::Store& store_;
  const core::Clock& clock_;
  const std::string nonce_key_ = core::RandomBytes(32);

  std::mutex mutex_;
  std::condition_variable idle_;
  std::map<std::string, std::shared_ptr<Run>> running_;  // by conversation id
  bool stopping_ = false;
};

}  // namespace sightline::agent
