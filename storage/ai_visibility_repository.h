// AI visibility: brands, prompts, engines and settings of a project; runs and their answers
// (queued work that nodes claim with a lease); the mentions and citations of each answer; and the
// aggregates the reports read. Reached from a Transaction (`tx.ai_visibility()`); lives for one
// transaction and is used by one thread. Lookups return nullopt for "not there"; a unique-key
// clash is ErrorCode::kConflict.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "storage/ai_visibility_records.h"
#include "storage/keyset.h"

namespace sightline::storage {

class SqlSession;

class AiVisibilityRepository {
 public:
  explicit AiVisibilityRepository(SqlSession& session) : session_(session) {}

  // Brands, prompts and engines (storage/ai_visibility_repository.cpp). Lists are in creation
  // order; Find* answer only within the project.
  // Oldest first (created_at, then id); one page with `page`.
  core::Result<std::vector<AiBrandRecord>> ListAiBrands(std::string_view project_id,
                                                        const KeysetPage& page = {});
  core::Result<std::optional<AiBrandRecord>> FindAiBrand(std::string_view project_id,
                                                         std::string_view brand_id);
  core::Result<void> InsertAiBrand(const AiBrandRecord& brand);
  core::Result<void> UpdateAiBrand(const AiBrandRecord& brand);
  // With its mentions (the reports forget it); whether it existed.
  core::Result<bool> DeleteAiBrand(std::string_view project_id, std::string_view brand_id);

  core::Result<std::vector<AiPromptRecord>> ListAiPrompts(std::string_view project_id);
  // One page of the prompts in creation order (created_at, then id), only `topic`'s when given.
  core::Result<std::vector<AiPromptRecord>> ListAiPromptsPage(
      std::string_view project_id, const std::optional<std::string>& topic,
      const KeysetPage& page);
  core::Result<std::optional<AiPromptRecord>> FindAiPrompt(std::string_view project_id,
                                                           std::string_view prompt_id);
  core::Result<void> InsertAiPrompts(std::span<const AiPromptRecord> prompts);
  core::Result<void> UpdateAiPrompt(const AiPromptRecord& prompt);
  // Its answers stay (the runs' evidence) but no new run asks it.
  core::Result<bool> DeleteAiPrompt(std::string_view project_id, std::string_view prompt_id);

  // Oldest first (created_at, then id); one page with `page`.
  core::Result<std::vector<AiEngineRecord>> ListAiEngines(std::string_view project_id,
                                                          const KeysetPage& page = {});
  core::Result<std::optional<AiEngineRecord>> FindAiEngine(std::string_view project_id,
                                                           std::string_view engine_id);
  core::Result<void> InsertAiEngine(const AiEngineRecord& engine);
  core::Result<void> UpdateAiEngine(const AiEngineRecord& engine);
  core::Result<bool> DeleteAiEngine(std::string_view project_id, std::string_view engine_id);

  // The project's settings; the defaults (AiSettingsRecord{}) when never saved.
  core::Result<AiSettingsRecord> GetAiSettings(std::string_view project_id);
  core::Result<void> SaveAiSettings(const AiSettingsRecord& settings);
  // Every project whose schedule is daily or weekly.
  core::Result<std::vector<AiSettingsRecord>> ListScheduledAiSettings();

  // Runs and answers (storage/ai_visibility_repository_runs.cpp).
  // kConflict when a scheduled run of the same slot exists (another node made it first).
  core::Result<void> InsertAiRun(const AiRunRecord& run);
  core::Result<void> InsertAiAnswers(std::span<const AiAnswerRecord> answers);
  core::Result<std::optional<AiRunRecord>> FindAiRun(std::string_view project_id,
                                                     std::string_view run_id);
  core::Result<std::optional<AiRunRecord>> FindAiRunById(std::string_view run_id);
  // Whether the project's scheduled run of `slot` exists (made by this node or another).
  core::Result<bool> HasAiRunForSlot(std::string_view project_id, std::string_view slot);
  // Newest first; `before` (created_at, id) is the keyset of the previous page's last run.
  core::Result<std::vector<AiRunRecord>> ListAiRuns(
      std::string_view project_id, std::int64_t limit, std::int64_t offset,
      const std::optional<std::pair<std::int64_t, std::string>>& before = std::nullopt);
  core::Result<AiRunProgress> GetAiRunProgress(std::string_view run_id);
  core::Result<void> SetAiRunStatus(std::string_view run_id, std::string_view status,
                                    std::optional<std::int64_t> finished_at);
  // Runs created since `since` (the daily run budget) and tokens answered since then.
  core::Result<std::int64_t> CountAiRunsSince(std::string_view project_id, std::int64_t since);
  core::Result<std::int64_t> CountAiTokensSince(std::string_view project_id, std::int64_t since);
  // Marks the run's answers that have not started `skipped` (cancel, budget); how many.
  core::Result<std::int64_t> SkipPendingAiAnswers(std::string_view run_id,
                                                  std::string_view reason);

  // Up to `limit` answers due at `now`: pending ones whose time has come, and running ones
  // whose lease ran out (their node died).
  core::Result<std::vector<AiAnswerRecord>> ListDueAiAnswers(std::int64_t now,
                                                             std::int64_t limit);
  // Takes the answer until `lease_until` unless another node took it first; whether it did.
  core::Result<bool> ClaimAiAnswer(std::string_view answer_id, std::int64_t now,
                                   std::int64_t lease_until);
  // Moves a running answer's lease from `held` to `lease_until` (jobs::LeaseStore::Renew); false
  // when another node claimed it since or it is no longer running.
  core::Result<bool> RenewAiAnswerLease(std::string_view answer_id, std::int64_t held,
                                        std::int64_t lease_until);
  // Gives a held lease up (lease_until 0: due at once, still running); whether it was held.
  core::Result<bool> ReleaseAiAnswerLease(std::string_view answer_id, std::int64_t held);
  // The three ends of a running answer whose lease this node holds (`held`, the lease_until its
  // claim wrote). Each writes nothing and answers false when the answer is no longer running
  // under that lease: a node that stalled past it must not store an answer twice.
  // Stores the answer (status done) with its mentions and citations, and adds them to the day
  // rollups of `day` when that zone's rollups are built.
  core::Result<bool> FinishAiAnswer(const AiAnswerRecord& answer, std::int64_t held,
                                    std::span<const AiMentionRecord> mentions,
                                    std::span<const AiCitationRecord> citations,
                                    const std::optional<AiRollupDay>& day = std::nullopt);
  // Back to pending until `next_attempt_at` (a 429 or a failure worth retrying).
  core::Result<bool> RetryAiAnswer(std::string_view answer_id, std::int64_t held,
                                   std::int64_t next_attempt_at, std::string_view error_code,
                                   std::string_view message);
  core::Result<bool> FailAiAnswer(std::string_view answer_id, std::int64_t held,
                                  std::string_view error_code, std::string_view message,
                                  std::int64_t now);

  // Evidence: answers of the project, newest first, optionally of one run, prompt, engine, or
  // mentioning one brand.
  struct AnswerFilter {
    std::string run_id, prompt_id, engine_id, brand_id;
    std::int64_t limit = 50, offset = 0;
    std::optional<std::pair<std::int64_t, std::string>> before;  // keyset: (created_at, id)
  };
  core::Result<std::vector<AiAnswerRecord>> ListAiAnswers(std::string_view project_id,
                                                          const AnswerFilter& filter);
  core::Result<std::optional<AiAnswerRecord>> FindAiAnswer(std::string_view project_id,
                                                           std::string_view answer_id);
  // The project's done answers answered in [start_ms, end_ms): id, engine, prompt, topic and
  // when (what a query reads of them; the other fields empty).
  core::Result<std::vector<AiAnswerRecord>> ListAiAnswersAnsweredIn(std::string_view project_id,
                                                                    std::int64_t start_ms,
                                                                    std::int64_t end_ms);
  core::Result<std::vector<AiMentionRecord>> ListAiMentions(std::span<const std::string> answer_ids);
  core::Result<std::vector<AiCitationRecord>> ListAiCitations(
      std::span<const std::string> answer_ids);

  // Day rollups (storage/ai_visibility_repository_rollups.cpp).
  core::Result<bool> HasAiRollupZone(std::string_view project_id, std::string_view zone);
  // The first and last instants an answer of the project was answered; nullopt without any.
  core::Result<std::optional<std::pair<std::int64_t, std::int64_t>>> AiAnsweredSpan(
      std::string_view project_id);
  // Records `zone` as the project's built zone unless it is already (another builder's); whether
  // this call did, and so must build them (RebuildAiRollups) in the same transaction.
  core::Result<bool> ClaimAiRollupZone(std::string_view project_id, std::string_view zone,
                                       std::int64_t now);
  // Replaces every rollup of the project (and the other zones' records) with `zone`'s, built
  // from the answers of `days` (consecutive local days as [start, end) windows).
  core::Result<void> RebuildAiRollups(std::string_view project_id, std::string_view zone,
                                      std::span<const std::pair<std::int64_t, std::int64_t>> days);
  // Adds a stored answer to `day`'s rollups when that zone's are built (FinishAiAnswer does).
  core::Result<void> AddToAiRollups(const AiAnswerRecord& answer, const AiRollupDay& day,
                                    std::span<const AiMentionRecord> mentions,
                                    std::span<const AiCitationRecord> citations);
  // Forgets a deleted brand's mentions in the rollups.
  core::Result<void> DeleteAiBrandRollups(std::string_view project_id, std::string_view brand_id);

  // Report aggregates (storage/ai_visibility_repository_reports.cpp) over the answers done in
  // the query's window, grouped by its group_by.
  core::Result<std::vector<AiAnswerTotals>> AiAnswerTotalsOf(const AiReportQuery& query);
  core::Result<std::vector<AiMentionTotals>> AiMentionTotalsOf(const AiReportQuery& query);
  // The most cited domains (or pages, with `by_page`), at most `limit`; only those of `only`
  // when given.
  core::Result<std::vector<AiCitedSource>> AiCitedSourcesOf(
      const AiReportQuery& query, bool by_page, std::int64_t limit,
      const std::vector<std::string>* only = nullptr);
  // The loop report: owned pages cited, AI-crawler fetches and AI-assistant visits, per path,
  // and the same per quarter hour for the timeline.
  core::Result<std::vector<AiPageCitations>> AiOwnedPageCitations(const AiReportQuery& query);
  core::Result<std::vector<AiQuarterCount>> AiOwnedCitationQuarters(const AiReportQuery& query,
                                                                     std::string_view path);
  core::Result<std::vector<AiCrawlerFetches>> AiCrawlerFetchesOf(std::string_view project_id,
                                                                 std::int64_t start_ms,
                                                                 std::int64_t end_ms);
  core::Result<std::vector<AiQuarterCount>> AiCrawlerQuarters(std::string_view project_id,
                                                              std::int64_t start_ms,
                                                              std::int64_t end_ms,
                                                              std::string_view path);
  core::Result<std::vector<AiAssistantVisits>> AiAssistantVisitsOf(std::string_view project_id,
                                                                   std::string_view zone,
                                                                   std::int64_t start_ms,
                                                                   std::int64_t end_ms);
  core::Result<std::vector<AiQuarterCount>> AiAssistantVisitQuarters(
      std::string_view project_id, std::string_view zone, std::int64_t start_ms,
      std::int64_t end_ms, std::string_view path);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
