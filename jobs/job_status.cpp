#include "jobs/job_status.h"

#include <array>
#include <span>
#include <stdexcept>
#include <string>

namespace sightline::jobs {
namespace {

struct StatusWord {
  JobStatus status;
  std::string_view name;
};

constexpr std::array kCrawlWords = {
    StatusWord{JobStatus::kQueued, "queued"},       StatusWord{JobStatus::kRunning, "running"},
    StatusWord{JobStatus::kCompleted, "completed"}, StatusWord{JobStatus::kFailed, "failed"},
    StatusWord{JobStatus::kCancelled, "cancelled"},
};

constexpr std::array kAiRunWords = {
    StatusWord{JobStatus::kQueued, "queued"},
    StatusWord{JobStatus::kRunning, "running"},
    StatusWord{JobStatus::kCompleted, "completed"},
    StatusWord{JobStatus::kFailed, "failed"},
    StatusWord{JobStatus::kCancelled, "cancelled"},
    StatusWord{JobStatus::kBudgetExhausted, "budget_exhausted"},
};

// An answer's words predate the others' and are part of the API (ai-visibility.md).
constexpr std::array kAiAnswerWords = {
    StatusWord{JobStatus::kQueued, "pending"},  StatusWord{JobStatus::kRunning, "running"},
    StatusWord{JobStatus::kCompleted, "done"},  StatusWord{JobStatus::kFailed, "failed"},
    StatusWord{JobStatus::kSkipped, "skipped"},
};

std::span<const StatusWord> WordsOf(JobKind kind) {
  switch (kind) {
    case JobKind::kCrawl:
      return kCrawlWords;
    case JobKind::kAiRun:
      return kAiRunWords;
    case JobKind::kAiAnswer:
      return kAiAnswerWords;
  }
  throw std::logic_error("unknown job kind");
}

}  // namespace

std::string_view StatusName(JobKind kind, JobStatus status) {
  for (const StatusWord& word : WordsOf(kind)) {
    if (word.status == status) return word.name;
  }
  throw std::logic_error("job status " + std::to_string(static_cast<int>(status)) +
                         " is not one of kind " + std::to_string(static_cast<int>(kind)));
}

std::optional<JobStatus> ParseStatus(JobKind kind, std::string_view name) {
  for (const StatusWord& word : WordsOf(kind)) {
    if (word.name == name) return word.status;
  }
  return std::nullopt;
}

bool IsFinished(JobStatus status) {
  return status != JobStatus::kQueued && status != JobStatus::kRunning;
}

}  // namespace sightline::jobs
