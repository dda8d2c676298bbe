#include "visibility/runs.h"

#include "core/crypto.h"
#include "jobs/job_status.h"
#include "reports/calendar.h"
#include "storage/ai_visibility_repository.h"

namespace sightline::visibility {
namespace {

using core::Result;

core::Error BudgetReached(std::string_view budget, std::int64_t limit, std::int64_t used) {
  core::Error error(core::ErrorCode::kAiBudgetReached,
                    "The project's daily AI-visibility budget of " + std::string(budget) +
                        " is spent.");
  error.mutable_details()["budget"] = budget;
  error.mutable_details()["limit"] = limit;
  error.mutable_details()["used"] = used;
  return error;
}

}  // namespace

Result<storage::AiRunRecord> CreateRun(storage::Transaction& tx, const RunRequest& request) {
  auto repository = tx.ai_visibility();
  auto settings = repository.GetAiSettings(request.project_id);
  if (!settings) return settings.error();
  const std::int64_t since = request.now - kBudgetWindowMs;
  auto runs = repository.CountAiRunsSince(request.project_id, since);
  if (!runs) return runs.error();
  if (*runs >= settings->max_runs_per_day) {
    return BudgetReached("runs", settings->max_runs_per_day, *runs);
  }
  auto tokens = repository.CountAiTokensSince(request.project_id, since);
  if (!tokens) return tokens.error();
  if (*tokens >= settings->max_tokens_per_day) {
    return BudgetReached("tokens", settings->max_tokens_per_day, *tokens);
  }
  auto prompts = repository.ListAiPrompts(request.project_id);
  if (!prompts) return prompts.error();
  auto engines = repository.ListAiEngines(request.project_id);
  if (!engines) return engines.error();

  const std::string status(jobs::StatusName(jobs::JobKind::kAiRun, jobs::JobStatus::kQueued));
  storage::AiRunRecord run{
      core::NewUuidV7(request.now), request.project_id, request.trigger, request.slot, status,
      request.created_by,           request.now,        std::nullopt};
  const std::int64_t repetitions = request.repetitions.value_or(settings->repetitions);
  std::vector<storage::AiAnswerRecord> answers;
  for (const storage::AiPromptRecord& prompt : *prompts) {
    if (!prompt.active || (request.prompt_id && *request.prompt_id != prompt.id)) continue;
    for (const storage::AiEngineRecord& engine : *engines) {
      if (!engine.active || (request.engine_id && *request.engine_id != engine.id)) continue;
      for (std::int64_t rep = 1; rep <= repetitions; ++rep) {
        storage::AiAnswerRecord answer;
        answer.id = core::NewUuidV7(request.now);
        answer.run_id = run.id;
        answer.project_id = request.project_id;
        answer.prompt_id = prompt.id;
        answer.engine_id = engine.id;
        answer.repetition = rep;
        answer.topic = prompt.topic;
        answer.next_attempt_at = request.now;
        answer.created_at = request.now;
        answers.push_back(std::move(answer));
      }
    }
  }
  if (answers.empty()) {
    return core::Error(core::ErrorCode::kAiNothingToRun,
                       "There is no active prompt and active engine to run.");
  }
  auto inserted = repository.InsertAiRun(run);
  if (!inserted) return inserted.error();
  auto queued = repository.InsertAiAnswers(answers);
  if (!queued) return queued.error();
  return run;
}

Result<std::optional<std::string>> ScheduleSlot(const std::string& schedule,
                                                const std::string& zone, std::int64_t now) {
  if (schedule != "daily" && schedule != "weekly") return std::optional<std::string>();
  auto reporting = reports::ReportingZone::Find(zone);
  if (!reporting) return reporting.error();
  const reports::LocalDay day = reporting->DayOf(now);
  if (schedule == "daily") return std::optional<std::string>("day:" + reports::FormatDate(day));
  // LocalDay 0 (1970-01-01) was a Thursday: Monday is 3 days before.
  const reports::LocalDay monday = day - ((day + 3) % 7 + 7) % 7;
  return std::optional<std::string>("week:" + reports::FormatDate(monday));
}

}  // namespace sightline::visibility
