// The background work of AI visibility: creating the runs the projects' schedules call for, and
// answering queued answers one at a time — claim with a lease (exactly one node asks each, and a
// dead node's answers are claimed again when the lease runs out), ask the engine, extract
// mentions and citations (visibility/extraction.h), let a judge model rate them when the project
// chose one, and store it all with tokens and cost. A 429 or an unreachable provider puts the
// answer back for later (the provider's Retry-After, else exponential back-off); a run that
// reaches the project's daily token budget skips what is left of it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/clock.h"
#include "core/http_client.h"
#include "core/sealed_box.h"
#include "storage/ai_visibility_records.h"
#include "storage/store.h"
#include "visibility/answer_leases.h"

namespace sightline::agent {

struct VisibilityRunnerSettings {
  core::OutboundLimits limits;          // of one call to an engine
  std::chrono::milliseconds lease = std::chrono::minutes(10);  // how long a claimed answer is ours
  std::int64_t batch = 20;              // answers listed per look at the queue
  std::int64_t max_attempts = 5;
  std::int64_t max_backoff_ms = 30 * 60'000;
};

class VisibilityRunner {
 public:
  VisibilityRunner(storage::Store& store, const core::Clock& clock, core::HttpClient& client,
                   const core::SealedBox* keys, VisibilityRunnerSettings settings);

  // Creates the scheduled runs that are due, then answers due answers until none is left or
  // `stopping`; how many answers it handled.
  std::size_t RunRound(const std::atomic<bool>& stopping);
  // The scheduled runs created (another node may have made some first: those are not counted).
  std::size_t CreateScheduledRuns();

 private:
  // Whether it handled the answer (false: another node claimed it first).
  bool Answer(const storage::AiAnswerRecord& answer);
  void FinishRunIfDone(const std::string& run_id);

  storage::Store& store_;
  const core::Clock& clock_;
  core::HttpClient& client_;
  const core::SealedBox* keys_;  // null: engines' keys cannot be opened
  const VisibilityRunnerSettings settings_;
  visibility::AnswerLeases leases_;
};

}  // namespace sightline::agent
