// AI-visibility runs and their answers: start one on demand (the schedule starts the others),
// follow its progress, cancel it, and read the evidence: each answer with its mentions and
// citations.
#include <map>

#include "jobs/job_status.h"
#include "storage/ai_visibility_repository.h"
#include "features/ai_visibility/common.h"
#include "features/ai_visibility/operations.h"
#include "features/ai_visibility/views.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "visibility/runs.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;
using identity::Permission;

using ai_visibility::kCallers;
using ai_visibility::ProjectId;

Result<json::value> RunView(storage::Transaction& tx, const storage::AiRunRecord& run) {
  auto progress = tx.ai_visibility().GetAiRunProgress(run.id);
  if (!progress) return progress.error();
  return json::value(AiRunView(run, *progress));
}

Result<json::value> RunStartAiVisibilityRun(OperationContext& context, const json::object& args) {
  visibility::RunRequest request{ProjectId(context), "manual", std::nullopt,
                                 context.principal.user_id, context.clock.NowMillis(),
                                 OptionalString(args, "promptId"), OptionalString(args, "engineId"),
                                 std::nullopt};
  if (args.contains("repetitions")) request.repetitions = IntegerOr(args, "repetitions", 1);
  AuditEntry audit{"ai_visibility.run", "ai_run", "", {}};
  json::value view;
  auto started = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto run = visibility::CreateRun(tx, request);
    if (!run) return run.error();
    audit.target_id = run->id;
    auto shown = RunView(tx, *run);
    if (!shown) return shown.error();
    view = std::move(*shown);
    audit.details = {{"answers", view.at("progress").at("total")}};
    return {};
  });
  if (!started) return started.error();
  return view;
}

constexpr std::string_view kRunList = "list_ai_visibility_runs";
constexpr std::string_view kAnswerList = "list_ai_answers";

// Version 1's `offset` still works, alone or after a cursor.
Result<json::value> RunListAiVisibilityRuns(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kRunList, kTimeIdShape, 20);
  if (!request) return request.error();
  std::optional<std::pair<std::int64_t, std::string>> before;
  if (request->after) before = TimeIdOf(*request->after);
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto runs = tx.ai_visibility().ListAiRuns(ProjectId(context),
                                              static_cast<std::int64_t>(request->limit) + 1,
                                              IntegerOr(args, "offset", 0), before);
    if (!runs) return runs.error();
    const auto last = TrimToPage(*runs, request->limit, [](const storage::AiRunRecord& run) {
      return TimeIdKey(run.created_at, run.id);
    });
    json::array out;
    for (const auto& run : *runs) {
      auto view = RunView(tx, run);
      if (!view) return view.error();
      out.push_back(std::move(*view));
    }
    json::object page{{"runs", std::move(out)}};
    WriteNextCursor(page, kRunList, last);
    return json::value(std::move(page));
  });
}

Result<json::value> RunGetAiVisibilityRun(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto run = tx.ai_visibility().FindAiRun(ProjectId(context), RequiredString(args, "runId"));
    if (!run) return run.error();
    if (!*run) return NotFound("run");
    return RunView(tx, **run);
  });
}

Result<json::value> RunCancelAiVisibilityRun(OperationContext& context, const json::object& args) {
  const std::string run_id = RequiredString(args, "runId");
  AuditEntry audit{"ai_visibility.cancel", "ai_run", run_id, {}};
  json::value view;
  auto cancelled = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto run = tx.ai_visibility().FindAiRun(ProjectId(context), run_id);
    if (!run) return run.error();
    if (!*run) return NotFound("run");
    // A finished run stays as it finished; answers already being asked still arrive.
    if (!(*run)->finished_at) {
      auto skipped = tx.ai_visibility().SkipPendingAiAnswers(run_id, "cancelled");
      if (!skipped) return skipped.error();
      (*run)->status = jobs::StatusName(jobs::JobKind::kAiRun, jobs::JobStatus::kCancelled);
      (*run)->finished_at = context.clock.NowMillis();
      auto set = tx.ai_visibility().SetAiRunStatus(run_id, (*run)->status, (*run)->finished_at);
      if (!set) return set;
    }
    auto shown = RunView(tx, **run);
    if (!shown) return shown.error();
    view = std::move(*shown);
    return {};
  });
  if (!cancelled) return cancelled.error();
  return view;
}

// The answers with their mentions and citations, read in one go.
Result<json::array> AnswersWithEvidence(storage::Transaction& tx,
                                        const std::vector<storage::AiAnswerRecord>& answers,
                                        bool raw) {
  std::vector<std::string> ids;
  for (const auto& answer : answers) ids.push_back(answer.id);
  auto mentions = tx.ai_visibility().ListAiMentions(ids);
  if (!mentions) return mentions.error();
  auto citations = tx.ai_visibility().ListAiCitations(ids);
  if (!citations) return citations.error();
  std::map<std::string, json::array> mentions_of, citations_of;
  for (const auto& m : *mentions) mentions_of[m.answer_id].push_back(AiMentionView(m));
  for (const auto& c : *citations) citations_of[c.answer_id].push_back(AiCitationView(c));
  json::array out;
  for (const auto& answer : answers) {
    json::object view = AiAnswerView(answer);
    view["mentions"] = std::move(mentions_of[answer.id]);
    view["citations"] = std::move(citations_of[answer.id]);
    if (raw) view["rawResponse"] = answer.raw_response;
    out.push_back(std::move(view));
  }
  return out;
}

Result<json::value> RunListAiAnswers(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kAnswerList, kTimeIdShape, 20);
  if (!request) return request.error();
  storage::AiVisibilityRepository::AnswerFilter filter{
      OptionalString(args, "runId").value_or(""), OptionalString(args, "promptId").value_or(""),
      OptionalString(args, "engineId").value_or(""), OptionalString(args, "brandId").value_or(""),
      static_cast<std::int64_t>(request->limit) + 1, IntegerOr(args, "offset", 0)};
  if (request->after) filter.before = TimeIdOf(*request->after);
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto answers = tx.ai_visibility().ListAiAnswers(ProjectId(context), filter);
    if (!answers) return answers.error();
    const auto last =
        TrimToPage(*answers, request->limit, [](const storage::AiAnswerRecord& answer) {
          return TimeIdKey(answer.created_at, answer.id);
        });
    auto out = AnswersWithEvidence(tx, *answers, false);
    if (!out) return out.error();
    json::object page{{"answers", std::move(*out)}};
    WriteNextCursor(page, kAnswerList, last);
    return json::value(std::move(page));
  });
}

Result<json::value> RunGetAiAnswer(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto answer = tx.ai_visibility().FindAiAnswer(ProjectId(context),
                                                  RequiredString(args, "answerId"));
    if (!answer) return answer.error();
    if (!*answer) return NotFound("answer");
    auto out = AnswersWithEvidence(tx, {**answer}, true);
    if (!out) return out.error();
    return std::move(out->front());
  });
}


}  // namespace

const OperationSpec kStartAiVisibilityRun{
    .name = "start_ai_visibility_run",
    .summary = "Start an AI-visibility run",
    .description = "Queues every active prompt × active engine × repetition (or one prompt or "
                   "engine) for the background runner and answers at once with the run (202); "
                   "poll `get_ai_visibility_run` for progress. 409 AIV_001 with nothing to run, "
                   "429 AIV_002 when the project's daily budget is spent.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/runs",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 202,
    .error_statuses = "409 429",
    .run = RunStartAiVisibilityRun,
};

const OperationSpec kListAiVisibilityRuns{
    .name = "list_ai_visibility_runs",
    .summary = "List AI-visibility runs",
    .description = "Newest first, each with its progress, tokens and cost; page with `cursor` "
                   "(the previous page's `nextCursor`).",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/runs",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAiVisibilityRuns,
};

const OperationSpec kGetAiVisibilityRun{
    .name = "get_ai_visibility_run",
    .summary = "An AI-visibility run's progress",
    .description = "Status (queued, running, completed, failed, cancelled, budget_exhausted) "
                   "and its answers by state, with tokens and cost so far.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/runs/{runId}",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibilityRun,
};

const OperationSpec kCancelAiVisibilityRun{
    .name = "cancel_ai_visibility_run",
    .summary = "Cancel an AI-visibility run",
    .description = "Skips the answers not yet asked; answers being asked still arrive. A "
                   "finished run is answered as it is.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/runs/{runId}/cancel",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .run = RunCancelAiVisibilityRun,
};

const OperationSpec kListAiAnswers{
    .name = "list_ai_answers",
    .summary = "Answers with their evidence",
    .description = "The engines' answers, newest first, each with the brands it names (rank, "
                   "sentence, judged recommendation and sentiment) and the pages it cites; "
                   "optionally of one run, prompt or engine, or naming one brand.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/answers",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAiAnswers,
};

const OperationSpec kGetAiAnswer{
    .name = "get_ai_answer",
    .summary = "One answer with its raw response",
    .description = "The answer, its mentions and citations, and the provider's raw response "
                   "as received.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/answers/{answerId}",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiAnswer,
};

}  // namespace sightline::tools
