// The states of background work (site-audit crawls, AI-visibility runs and their answers), typed,
// and the one mapping between them and the words stored in each kind's status column and shown
// by the API. The words stay what they were (an answer that succeeded is `done`, one not yet
// asked `pending`), so nothing stored or reported changes; code compares JobStatus values, never
// the words. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string_view>

namespace sightline::jobs {

// Which background work a status belongs to: each kind has its own words and its own subset of
// the statuses below.
enum class JobKind {
  kCrawl,     // audit_crawls: queued, running, completed, failed, cancelled
  kAiRun,     // ai_runs: the crawl's five and budget_exhausted
  kAiAnswer,  // ai_answers: pending, running, done, failed, skipped
};

enum class JobStatus {
  kQueued,           // waiting to be claimed
  kRunning,          // claimed by a node under a lease
  kCompleted,        // finished its work
  kFailed,           // ended by an error
  kCancelled,        // ended because someone asked
  kSkipped,          // never started: its run was cancelled or ran out of budget
  kBudgetExhausted,  // ended early: the project's daily token budget was reached
};

// The word stored and reported for `status` of `kind`.
// REQUIRES: `kind` has `status` (a crawl is never skipped); throws std::logic_error otherwise.
std::string_view StatusName(JobKind kind, JobStatus status);

// The status a stored or reported word of `kind` stands for; nullopt for a word `kind` does not
// use.
std::optional<JobStatus> ParseStatus(JobKind kind, std::string_view name);

// Whether `name`, a stored or reported word of `kind`, stands for `status`.
inline bool HasStatus(JobKind kind, std::string_view name, JobStatus status) {
  return ParseStatus(kind, name) == status;
}

// Whether the work has ended (nothing will change it any more).
bool IsFinished(JobStatus status);

}  // namespace sightline::jobs
