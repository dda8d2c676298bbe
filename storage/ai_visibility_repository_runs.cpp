// AI visibility's runs: the answers queued per prompt × engine × repetition, claimed by one node
// at a time with a lease (a node that dies leaves its answers to be claimed again once the lease
// runs out), and what each answer found.
#include "storage/ai_visibility_repository.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kRunColumns =
    "id, project_id, trigger, slot, status, created_by, created_at, finished_at";
constexpr std::string_view kAnswerColumns =
    "id, run_id, project_id, prompt_id, engine_id, repetition, topic, status, attempts, "
    "next_attempt_at, lease_until, created_at, answered_at, answer, raw_response, model, "
    "input_tokens, output_tokens, cost_micros, error_code, error_message, judge_model, citations, "
    "owned_citations";
// The answer's columns a mention or citation repeats for the reports.
constexpr std::string_view kMentionColumns =
    "answer_id, brand_id, project_id, answered_at, engine_id, prompt_id, topic, rank, "
    "first_offset, occurrences, snippet, recommended, sentiment";
constexpr std::string_view kCitationColumns =
    "answer_id, position, project_id, answered_at, engine_id, prompt_id, topic, url, domain, path, "
    "title, origin, owned, brand_id";

AiRunRecord MapRun(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.OptText(3), r.Text(4), r.OptText(5), r.Int(6),
          r.OptInt(7)};
}

AiAnswerRecord MapAnswer(const SqlRow& r) {
  AiAnswerRecord a;
  a.id = r.Text(0);
  a.run_id = r.Text(1);
  a.project_id = r.Text(2);
  a.prompt_id = r.Text(3);
  a.engine_id = r.Text(4);
  a.repetition = r.Int(5);
  a.topic = r.Text(6);
  a.status = r.Text(7);
  a.attempts = r.Int(8);
  a.next_attempt_at = r.Int(9);
  a.lease_until = r.Int(10);
  a.created_at = r.Int(11);
  a.answered_at = r.OptInt(12);
  a.answer = r.Text(13);
  a.raw_response = r.Text(14);
  a.model = r.Text(15);
  a.input_tokens = r.Int(16);
  a.output_tokens = r.Int(17);
  a.cost_micros = r.Int(18);
  a.error_code = r.Text(19);
  a.error_message = r.Text(20);
  a.judge_model = r.Text(21);
  a.citations = r.Int(22);
  a.owned_citations = r.Int(23);
  return a;
}

std::vector<SqlValue> AnswerValues(const AiAnswerRecord& a) {
  return {a.id,           a.run_id,        a.project_id,   a.prompt_id,     a.engine_id,
          a.repetition,   a.topic,         a.status,       a.attempts,      a.next_attempt_at,
          a.lease_until,  a.created_at,    Nullable(a.answered_at), a.answer, a.raw_response,
          a.model,        a.input_tokens,  a.output_tokens, a.cost_micros,  a.error_code,
          a.error_message, a.judge_model,  a.citations,    a.owned_citations};
}

std::optional<std::int64_t> OptFlag(const std::optional<bool>& value) {
  if (!value) return std::nullopt;
  return *value ? 1 : 0;
}

AiMentionRecord MapMention(const SqlRow& r) {
  std::optional<bool> recommended;
  if (!r.IsNull(3)) recommended = r.Bool(3);
  return {r.Text(0), r.Text(1), r.Int(2), r.Int(4), r.Int(5), r.Text(6), recommended,
          OptDouble(r, 7)};
}

AiCitationRecord MapCitation(const SqlRow& r) {
  return {r.Text(0), r.Int(1), r.Text(2), r.Text(3), r.Text(4),
          r.Text(5), r.Text(6), r.Bool(7), r.OptText(8)};
}

}  // namespace

Result<void> AiVisibilityRepository::InsertAiRun(const AiRunRecord& run) {
  static const std::string sql = InsertStatement("ai_runs", kRunColumns);
  return ExecuteVoid(session_, sql,
                     {run.id, run.project_id, run.trigger, Nullable(run.slot), run.status,
                      Nullable(run.created_by), run.created_at, Nullable(run.finished_at)});
}

Result<void> AiVisibilityRepository::InsertAiAnswers(std::span<const AiAnswerRecord> answers) {
  return InsertRows(session_, "ai_answers", kAnswerColumns, answers, AnswerValues);
}

Result<std::optional<AiRunRecord>> AiVisibilityRepository::FindAiRun(std::string_view project_id,
                                                                     std::string_view run_id) {
  static const std::string sql =
      Select(kRunColumns, "FROM ai_runs WHERE project_id = $1 AND id = $2");
  return FindOne<AiRunRecord>(session_, sql, {std::string(project_id), std::string(run_id)},
                              MapRun);
}

Result<std::optional<AiRunRecord>> AiVisibilityRepository::FindAiRunById(std::string_view run_id) {
  static const std::string sql = Select(kRunColumns, "FROM ai_runs WHERE id = $1");
  return FindOne<AiRunRecord>(session_, sql, {std::string(run_id)}, MapRun);
}

Result<bool> AiVisibilityRepository::HasAiRunForSlot(std::string_view project_id,
                                                    std::string_view slot) {
  auto found = FindOne<bool>(session_, "SELECT 1 FROM ai_runs WHERE project_id = $1 AND slot = $2",
                             {std::string(project_id), std::string(slot)},
                             [](const SqlRow&) { return true; });
  if (!found) return found.error();
  return found->has_value();
}

Result<std::vector<AiRunRecord>> AiVisibilityRepository::ListAiRuns(
    std::string_view project_id, std::int64_t limit, std::int64_t offset,
    const std::optional<std::pair<std::int64_t, std::string>>& before) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kRunColumns) + " FROM ai_runs WHERE project_id = " +
             sql.Next(std::string(project_id));
  if (before) {
    sql.text += " AND (created_at, id) < (" + sql.Next(before->first) + ", " +
                sql.Next(before->second) + ")";
  }
  sql.text += " ORDER BY created_at DESC, id DESC LIMIT " + sql.Next(limit) + " OFFSET " +
              sql.Next(offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiRunRecord> runs;
  for (const SqlRow& row : *rows) runs.push_back(MapRun(row));
  return runs;
}

Result<AiRunProgress> AiVisibilityRepository::GetAiRunProgress(std::string_view run_id) {
  auto rows = session_.Query(
      "SELECT status, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(cost_micros) FROM "
      "ai_answers WHERE run_id = $1 GROUP BY status",
      {std::string(run_id)});
  if (!rows) return rows.error();
  AiRunProgress progress;
  for (const SqlRow& row : *rows) {
    const std::string status = row.Text(0);
    const std::int64_t count = row.Int(1);
    progress.total += count;
    if (status == "pending") progress.pending += count;
    if (status == "running") progress.running += count;
    if (status == "done") progress.done += count;
    if (status == "failed") progress.failed += count;
    if (status == "skipped") progress.skipped += count;
    progress.input_tokens += row.Int(2);
    progress.output_tokens += row.Int(3);
    progress.cost_micros += row.Int(4);
  }
  return progress;
}

Result<void> AiVisibilityRepository::SetAiRunStatus(std::string_view run_id,
                                                    std::string_view status,
                                                    std::optional<std::int64_t> finished_at) {
  return ExecuteVoid(session_, "UPDATE ai_runs SET status = $2, finished_at = $3 WHERE id = $1",
                     {std::string(run_id), std::string(status), Nullable(finished_at)});
}

Result<std::int64_t> AiVisibilityRepository::CountAiRunsSince(std::string_view project_id,
                                                             std::int64_t since) {
  auto count = FindOne<std::int64_t>(
      session_, "SELECT COUNT(*) FROM ai_runs WHERE project_id = $1 AND created_at >= $2",
      {std::string(project_id), since}, [](const SqlRow& r) { return r.Int(0); });
  if (!count) return count.error();
  return count->value_or(0);
}

Result<std::int64_t> AiVisibilityRepository::CountAiTokensSince(std::string_view project_id,
                                                               std::int64_t since) {
  auto count = FindOne<std::int64_t>(
      session_,
      "SELECT COALESCE(SUM(input_tokens + output_tokens), 0) FROM ai_answers WHERE project_id = "
      "$1 AND answered_at >= $2",
      {std::string(project_id), since}, [](const SqlRow& r) { return r.Int(0); });
  if (!count) return count.error();
  return count->value_or(0);
}

Result<std::int64_t> AiVisibilityRepository::SkipPendingAiAnswers(std::string_view run_id,
                                                                 std::string_view reason) {
  auto changed = session_.Execute(
      "UPDATE ai_answers SET status = 'skipped', error_code = $2, error_message = $2 WHERE "
      "run_id = $1 AND status = 'pending'",
      {std::string(run_id), std::string(reason)});
  if (!changed) return changed.error();
  return static_cast<std::int64_t>(*changed);
}

Result<std::vector<AiAnswerRecord>> AiVisibilityRepository::ListDueAiAnswers(std::int64_t now,
                                                                             std::int64_t limit) {
  static const std::string sql = Select(
      kAnswerColumns,
      "FROM ai_answers WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = "
      "'running' AND lease_until < $1) ORDER BY next_attempt_at, id LIMIT $2");
  return FindAll<AiAnswerRecord>(session_, sql, {now, limit}, MapAnswer);
}

Result<bool> AiVisibilityRepository::ClaimAiAnswer(std::string_view answer_id, std::int64_t now,
                                                   std::int64_t lease_until) {
  // The condition is checked again on the row itself, so of two nodes only one changes it.
  auto changed = session_.Execute(
      "UPDATE ai_answers SET status = 'running', lease_until = $3, attempts = attempts + 1 "
      "WHERE id = $1 AND ((status = 'pending' AND next_attempt_at <= $2) OR (status = 'running' "
      "AND lease_until < $2))",
      {std::string(answer_id), now, lease_until});
  if (!changed) return changed.error();
  if (*changed != 1) return false;
  auto run = ExecuteVoid(session_,
                         "UPDATE ai_runs SET status = 'running' WHERE status = 'queued' AND id = "
                         "(SELECT run_id FROM ai_answers WHERE id = $1)",
                         {std::string(answer_id)});
  if (!run) return run.error();
  return true;
}

Result<bool> AiVisibilityRepository::RenewAiAnswerLease(std::string_view answer_id,
                                                        std::int64_t held,
                                                        std::int64_t lease_until) {
  return ExecuteChanged(session_,
                        "UPDATE ai_answers SET lease_until = $3 WHERE id = $1 AND status = "
                        "'running' AND lease_until = $2",
                        {std::string(answer_id), held, lease_until});
}

Result<bool> AiVisibilityRepository::ReleaseAiAnswerLease(std::string_view answer_id,
                                                          std::int64_t held) {
  return ExecuteChanged(session_,
                        "UPDATE ai_answers SET lease_until = 0 WHERE id = $1 AND status = "
                        "'running' AND lease_until = $2",
                        {std::string(answer_id), held});
}

Result<bool> AiVisibilityRepository::FinishAiAnswer(const AiAnswerRecord& a, std::int64_t held,
                                                    std::span<const AiMentionRecord> mentions,
                                                    std::span<const AiCitationRecord> citations,
                                                    const std::optional<AiRollupDay>& day) {
  auto updated = ExecuteChanged(
      session_,
      "UPDATE ai_answers SET status = 'done', answered_at = $2, answer = $3, raw_response = $4, "
      "model = $5, input_tokens = $6, output_tokens = $7, cost_micros = $8, judge_model = $9, "
      "citations = $10, owned_citations = $11, error_code = '', error_message = '', "
      "lease_until = 0 WHERE id = $1 AND status = 'running' AND lease_until = $12",
      {a.id, Nullable(a.answered_at), a.answer, a.raw_response, a.model, a.input_tokens,
       a.output_tokens, a.cost_micros, a.judge_model, a.citations, a.owned_citations, held});
  if (!updated || !*updated) return updated;
  const std::int64_t at = a.answered_at.value_or(0);
  auto inserted = InsertRows(session_, "ai_mentions", kMentionColumns, mentions,
                             [&](const AiMentionRecord& m) -> std::vector<SqlValue> {
    return {a.id,     m.brand_id,       a.project_id,    at,        a.engine_id,
            a.prompt_id, a.topic,       m.rank,          m.first_offset, m.occurrences,
            m.snippet, Nullable(OptFlag(m.recommended)), Opt(m.sentiment)};
  });
  if (!inserted) return inserted.error();
  auto cited = InsertRows(session_, "ai_citations", kCitationColumns, citations,
                    [&](const AiCitationRecord& c) -> std::vector<SqlValue> {
    return {a.id,   c.position, a.project_id, at,       a.engine_id,  a.prompt_id, a.topic,
            c.url,  c.domain,   c.path,       c.title,  c.origin,     Flag(c.owned),
            Nullable(c.brand_id)};
  });
  if (!cited) return cited.error();
  if (day) {
    if (auto added = AddToAiRollups(a, *day, mentions, citations); !added) return added.error();
  }
  return true;
}

Result<bool> AiVisibilityRepository::RetryAiAnswer(std::string_view answer_id, std::int64_t held,
                                                   std::int64_t next_attempt_at,
                                                   std::string_view error_code,
                                                   std::string_view message) {
  return ExecuteChanged(session_,
                        "UPDATE ai_answers SET status = 'pending', next_attempt_at = $2, "
                        "lease_until = 0, error_code = $3, error_message = $4 WHERE id = $1 AND "
                        "status = 'running' AND lease_until = $5",
                        {std::string(answer_id), next_attempt_at, std::string(error_code),
                         std::string(message), held});
}

Result<bool> AiVisibilityRepository::FailAiAnswer(std::string_view answer_id, std::int64_t held,
                                                  std::string_view error_code,
                                                  std::string_view message, std::int64_t now) {
  return ExecuteChanged(session_,
                        "UPDATE ai_answers SET status = 'failed', lease_until = 0, error_code = $2, "
                        "error_message = $3, answered_at = $4 WHERE id = $1 AND status = "
                        "'running' AND lease_until = $5",
                        {std::string(answer_id), std::string(error_code), std::string(message),
                         now, held});
}

Result<std::vector<AiAnswerRecord>> AiVisibilityRepository::ListAiAnswers(
    std::string_view project_id, const AnswerFilter& filter) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kAnswerColumns) + " FROM ai_answers WHERE project_id = " +
             sql.Next(std::string(project_id));
  if (!filter.run_id.empty()) sql.text += " AND run_id = " + sql.Next(filter.run_id);
  if (!filter.prompt_id.empty()) sql.text += " AND prompt_id = " + sql.Next(filter.prompt_id);
  if (!filter.engine_id.empty()) sql.text += " AND engine_id = " + sql.Next(filter.engine_id);
  if (!filter.brand_id.empty()) {
    sql.text += " AND id IN (SELECT answer_id FROM ai_mentions WHERE brand_id = " +
                sql.Next(filter.brand_id) + ")";
  }
  if (filter.before) {
    sql.text += " AND (created_at, id) < (" + sql.Next(filter.before->first) + ", " +
                sql.Next(filter.before->second) + ")";
  }
  sql.text += " ORDER BY created_at DESC, id DESC LIMIT " + sql.Next(filter.limit) +
              " OFFSET " + sql.Next(filter.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiAnswerRecord> answers;
  for (const SqlRow& row : *rows) answers.push_back(MapAnswer(row));
  return answers;
}

Result<std::optional<AiAnswerRecord>> AiVisibilityRepository::FindAiAnswer(
    std::string_view project_id, std::string_view answer_id) {
  static const std::string sql =
      Select(kAnswerColumns, "FROM ai_answers WHERE project_id = $1 AND id = $2");
  return FindOne<AiAnswerRecord>(session_, sql,
                                 {std::string(project_id), std::string(answer_id)}, MapAnswer);
}

Result<std::vector<AiAnswerRecord>> AiVisibilityRepository::ListAiAnswersAnsweredIn(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms) {
  return FindAll<AiAnswerRecord>(
      session_,
      "SELECT id, engine_id, prompt_id, topic, answered_at FROM ai_answers WHERE project_id = $1 "
      "AND status = 'done' AND answered_at >= $2 AND answered_at < $3",
      {std::string(project_id), start_ms, end_ms}, [](const SqlRow& r) {
        AiAnswerRecord answer;
        answer.id = r.Text(0);
        answer.engine_id = r.Text(1);
        answer.prompt_id = r.Text(2);
        answer.topic = r.Text(3);
        answer.answered_at = r.Int(4);
        answer.status = "done";
        return answer;
      });
}

Result<std::vector<AiMentionRecord>> AiVisibilityRepository::ListAiMentions(
    std::span<const std::string> answer_ids) {
  SqlBuilder sql;
  sql.text = "SELECT answer_id, brand_id, rank, recommended, first_offset, occurrences, snippet, "
             "sentiment FROM ai_mentions WHERE " +
             sql.In("answer_id", std::vector<std::string>(answer_ids.begin(), answer_ids.end())) +
             " ORDER BY answer_id, rank";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiMentionRecord> mentions;
  for (const SqlRow& row : *rows) mentions.push_back(MapMention(row));
  return mentions;
}

Result<std::vector<AiCitationRecord>> AiVisibilityRepository::ListAiCitations(
    std::span<const std::string> answer_ids) {
  SqlBuilder sql;
  sql.text = "SELECT answer_id, position, url, domain, path, title, origin, owned, brand_id FROM "
             "ai_citations WHERE " +
             sql.In("answer_id", std::vector<std::string>(answer_ids.begin(), answer_ids.end())) +
             " ORDER BY answer_id, position";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiCitationRecord> citations;
  for (const SqlRow& row : *rows) citations.push_back(MapCitation(row));
  return citations;
}

}  // namespace sightline::storage
