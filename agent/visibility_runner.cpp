#include "agent/visibility_runner.h"

#include <algorithm>
#include <cmath>

#include "agent/visibility_engine.h"
#include "core/logging.h"
#include "jobs/job_status.h"
#include "jobs/lease.h"
#include "storage/account_repository.h"
#include "storage/ai_visibility_repository.h"
#include "visibility/extraction.h"
#include "visibility/runs.h"
#include "visibility/visibility_reports.h"

namespace sightline::agent {
namespace {

using core::Result;
using storage::AiAnswerRecord;

// Everything one answer needs, read in one transaction.
struct AnswerInputs {
  storage::AiPromptRecord prompt;
  storage::AiEngineRecord engine;
  std::vector<storage::AiBrandRecord> brands;
  storage::AiSettingsRecord settings;
  std::optional<storage::AiEngineRecord> judge;
  std::int64_t tokens_used = 0;  // in the budget's window
  std::string zone;              // the project's reporting zone: its day rollups
};

Result<std::optional<AnswerInputs>> ReadInputs(storage::Transaction& tx, const AiAnswerRecord& a,
                                               std::int64_t now) {
  auto repository = tx.ai_visibility();
  auto prompt = repository.FindAiPrompt(a.project_id, a.prompt_id);
  if (!prompt) return prompt.error();
  auto engine = repository.FindAiEngine(a.project_id, a.engine_id);
  if (!engine) return engine.error();
  if (!*prompt || !*engine) return std::optional<AnswerInputs>();
  auto brands = repository.ListAiBrands(a.project_id);
  if (!brands) return brands.error();
  auto settings = repository.GetAiSettings(a.project_id);
  if (!settings) return settings.error();
  auto project = tx.accounts().FindProject(a.project_id);
  if (!project) return project.error();
  if (!*project) return std::optional<AnswerInputs>();
  AnswerInputs inputs{std::move(**prompt), std::move(**engine), std::move(*brands),
                      std::move(*settings), std::nullopt, 0, (*project)->reporting_timezone};
  if (inputs.settings.judge_engine_id) {
    auto judge = repository.FindAiEngine(a.project_id, *inputs.settings.judge_engine_id);
    if (!judge) return judge.error();
    inputs.judge = std::move(*judge);
  }
  auto tokens = repository.CountAiTokensSince(a.project_id, now - visibility::kBudgetWindowMs);
  if (!tokens) return tokens.error();
  inputs.tokens_used = *tokens;
  return std::optional<AnswerInputs>(std::move(inputs));
}

std::int64_t CostMicros(const storage::AiEngineRecord& engine, const Usage& usage) {
  // A price per million tokens in dollars is a price per token in millionths of a dollar.
  return std::llround(static_cast<double>(usage.input_tokens.value_or(0)) * engine.input_price +
                      static_cast<double>(usage.output_tokens.value_or(0)) * engine.output_price);
}

// Whether a failed call is worth asking again later: rate limits, overload, server errors and
// failed connections; not a refused key or a bad request.
bool WorthRetrying(const core::Error& error) {
  const auto& details = error.details();
  const boost::json::value* status = details.if_contains("providerStatus");
  if (!status || !status->is_int64()) return true;  // no answer at all
  const std::int64_t code = status->as_int64();
  return code == 408 || code == 429 || code >= 500;
}

}  // namespace

VisibilityRunner::VisibilityRunner(storage::Store& store, const core::Clock& clock,
                                   core::HttpClient& client, const core::SealedBox* keys,
                                   VisibilityRunnerSettings settings)
    : store_(store),
      clock_(clock),
      client_(client),
      keys_(keys),
      settings_(settings),
      leases_(store) {}

std::size_t VisibilityRunner::RunRound(const std::atomic<bool>& stopping) {
  CreateScheduledRuns();
  std::size_t handled = 0;
  while (!stopping) {
    const std::int64_t now = clock_.NowMillis();
    auto due = store_.ReadOne([&](storage::Transaction& tx) {
      return tx.ai_visibility().ListDueAiAnswers(now, settings_.batch);
    });
    if (!due || due->empty()) break;
    std::size_t handled_now = 0;
    for (const AiAnswerRecord& answer : *due) {
      if (stopping) break;
      if (Answer(answer)) ++handled_now;
    }
    handled += handled_now;
    if (handled_now == 0) break;  // every one was taken by other nodes
  }
  return handled;
}

std::size_t VisibilityRunner::CreateScheduledRuns() {
  auto scheduled = store_.ReadOne(
      [](storage::Transaction& tx) { return tx.ai_visibility().ListScheduledAiSettings(); });
  if (!scheduled) return 0;
  std::size_t created = 0;
  const std::int64_t now = clock_.NowMillis();
  for (const storage::AiSettingsRecord& settings : *scheduled) {
    auto run = store_.Write([&](storage::Transaction& tx) -> Result<bool> {
      auto project = tx.accounts().FindProject(settings.project_id);
      if (!project) return project.error();
      if (!*project) return false;
      auto slot = visibility::ScheduleSlot(settings.schedule, (*project)->reporting_timezone, now);
      if (!slot) return slot.error();
      if (!*slot) return false;
      // Made already (by this node or another): nothing to build. The slot's unique key still
      // decides between nodes that both get past this.
      auto made_before = tx.ai_visibility().HasAiRunForSlot(settings.project_id, **slot);
      if (!made_before) return made_before.error();
      if (*made_before) return false;
      auto made = visibility::CreateRun(
          tx, {settings.project_id, "schedule", *slot, std::nullopt, now, {}, {}, {}});
      if (!made) return made.error();
      return true;
    });
    if (run && *run) {
      ++created;
      core::Log(core::LogLevel::kInfo, "ai visibility: scheduled run created",
                {{"projectId", settings.project_id}});
    } else if (!run && run.error().code() != core::ErrorCode::kConflict &&
               run.error().code() != core::ErrorCode::kAiBudgetReached &&
               run.error().code() != core::ErrorCode::kAiNothingToRun) {
      core::Log(core::LogLevel::kWarn, "ai visibility: scheduled run not created",
                {{"projectId", settings.project_id}, {"error", run.error().message()}});
    }
  }
  return created;
}

bool VisibilityRunner::Answer(const AiAnswerRecord& queued) {
  const std::int64_t now = clock_.NowMillis();
  // The lease is set to outlast an answer's calls (each bounded by settings_.limits), so it is
  // not renewed: retrying, failing or storing the answer ends it.
  auto claimed = jobs::HeldLease::Claim(leases_, jobs::Lease(settings_.lease), clock_, queued.id);
  if (!claimed || !*claimed) return false;
  // Every end below is written only while the lease is still this node's (`held`): one that
  // stalled past it leaves the answer to the node that claimed it since.
  const std::int64_t held = (*claimed)->until();
  auto finish = [&](Result<bool> stored) {
    if (!stored) {
      // Asked again later rather than left claimed until its lease runs out.
      core::Log(core::LogLevel::kWarn, "ai visibility: answer not stored",
                {{"answerId", queued.id}, {"error", stored.error().message()}});
      (void)store_.WriteOne([&](storage::Transaction& tx) {
        return tx.ai_visibility().RetryAiAnswer(queued.id, held, clock_.NowMillis() + 60'000,
                                                stored.error().info().id,
                                                stored.error().message());
      });
    } else if (!*stored) {
      core::Log(core::LogLevel::kInfo, "ai visibility: answer taken over by another node",
                {{"answerId", queued.id}});
    }
    FinishRunIfDone(queued.run_id);
    return true;
  };
  auto fail = [&](std::string_view code, const std::string& message) {
    return finish(store_.WriteOne([&](storage::Transaction& tx) {
      return tx.ai_visibility().FailAiAnswer(queued.id, held, code, message, clock_.NowMillis());
    }));
  };
  auto inputs = store_.Read([&](storage::Transaction& tx) { return ReadInputs(tx, queued, now); });
  if (!inputs) return fail("SYS_003", inputs.error().message());
  if (!*inputs) return fail("REQ_004", "The prompt, the engine or the project was deleted.");
  AnswerInputs& in = **inputs;
  if (in.tokens_used >= in.settings.max_tokens_per_day) {
    return finish(store_.Write([&](storage::Transaction& tx) -> Result<bool> {
      auto repository = tx.ai_visibility();
      auto back = repository.RetryAiAnswer(queued.id, held, now, "", "");
      if (!back || !*back) return back;
      auto skipped = repository.SkipPendingAiAnswers(queued.run_id, "AIV_002");
      if (!skipped) return skipped.error();
      auto ended = repository.SetAiRunStatus(
          queued.run_id, jobs::StatusName(jobs::JobKind::kAiRun, jobs::JobStatus::kBudgetExhausted),
          clock_.NowMillis());
      if (!ended) return ended.error();
      return true;
    }));
  }
  auto key_of = [&](const storage::AiEngineRecord& engine) -> std::optional<std::string> {
    if (!engine.api_key) return std::string();
    if (!keys_) return std::nullopt;
    return keys_->Open(*engine.api_key, engine.id);
  };
  const auto api_key = key_of(in.engine);
  if (!api_key) {
    return fail("AIV_003", "The engine's API key was sealed with another encryption key.");
  }
  auto provider = EngineProvider(in.engine, *api_key, settings_.limits, client_);
  if (!provider) return fail("VAL_003", "Unknown provider " + in.engine.provider + ".");
  auto reply = provider->Complete(QuestionFor(in.engine, in.prompt), {}, {});
  if (!reply) {
    const core::Error& error = reply.error();
    if (WorthRetrying(error) && queued.attempts + 1 < settings_.max_attempts) {
      std::int64_t delay = std::min<std::int64_t>(
          settings_.max_backoff_ms, 5'000LL << std::min<std::int64_t>(queued.attempts, 12));
      if (const auto* after = error.details().if_contains("retryAfterSeconds")) {
        delay = std::min<std::int64_t>(settings_.max_backoff_ms,
                                       std::llround(after->to_number<double>() * 1000));
      }
      return finish(store_.WriteOne([&](storage::Transaction& tx) {
        return tx.ai_visibility().RetryAiAnswer(queued.id, held, clock_.NowMillis() + delay,
                                                error.info().id, error.message());
      }));
    }
    return fail(error.info().id, error.message());
  }

  AiAnswerRecord answer = queued;
  answer.answered_at = clock_.NowMillis();
  answer.answer = reply->text;
  answer.raw_response = reply->raw;
  answer.model = in.engine.model;
  std::vector<visibility::ProvidedCitation> provided;
  for (const SourceCitation& c : reply->citations) provided.push_back({c.url, c.title});
  auto mentions = visibility::ExtractMentions(answer.answer, in.brands);
  auto citations = visibility::ExtractCitations(answer.answer, provided, in.brands);
  Usage usage = reply->usage;
  std::int64_t cost = CostMicros(in.engine, usage);
  if (in.judge && !mentions.empty()) {
    const auto judge_key = key_of(*in.judge);
    auto judge = judge_key ? EngineProvider(*in.judge, *judge_key, settings_.limits, client_)
                           : nullptr;
    Usage judge_usage;
    if (judge && Judge(*judge, answer.answer, in.brands, mentions, judge_usage)) {
      answer.judge_model = JudgeName(*in.judge);
    }
    cost += CostMicros(*in.judge, judge_usage);
    usage.input_tokens = usage.input_tokens.value_or(0) + judge_usage.input_tokens.value_or(0);
    usage.output_tokens = usage.output_tokens.value_or(0) + judge_usage.output_tokens.value_or(0);
  }
  answer.input_tokens = usage.input_tokens.value_or(0);
  answer.output_tokens = usage.output_tokens.value_or(0);
  answer.cost_micros = cost;
  for (const storage::AiCitationRecord& c : citations) {
    ++answer.citations;
    if (c.owned) ++answer.owned_citations;
  }
  std::optional<storage::AiRollupDay> day;
  if (auto zone = reports::ReportingZone::Find(in.zone)) {
    day = visibility::RollupDayOf(*zone, *answer.answered_at);
  }
  return finish(store_.Write([&](storage::Transaction& tx) {
    return tx.ai_visibility().FinishAiAnswer(answer, held, mentions, citations, day);
  }));
}

void VisibilityRunner::FinishRunIfDone(const std::string& run_id) {
  auto done = store_.Write([&](storage::Transaction& tx) -> Result<void> {
    auto repository = tx.ai_visibility();
    auto progress = repository.GetAiRunProgress(run_id);
    if (!progress) return progress.error();
    if (progress->pending > 0 || progress->running > 0) return {};
    auto run = tx.ai_visibility().FindAiRunById(run_id);
    if (!run) return run.error();
    if (!*run || (*run)->finished_at) return {};
    const jobs::JobStatus status = progress->done > 0 || progress->failed == 0
                                       ? jobs::JobStatus::kCompleted
                                       : jobs::JobStatus::kFailed;
    return repository.SetAiRunStatus(run_id, jobs::StatusName(jobs::JobKind::kAiRun, status),
                                     clock_.NowMillis());
  });
  if (!done) {
    core::Log(core::LogLevel::kWarn, "ai visibility: run not finished",
              {{"runId", run_id}, {"error", done.error().message()}});
  }
}

}  // namespace sightline::agent
