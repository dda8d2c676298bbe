// AI visibility's day rollups: what the reports read instead of every answer. Each answer adds
// itself to its local day's rows as it is stored (when its zone's rollups are built); a zone
// without rollups (a new project's first report, or after the reporting zone changed) gets them
// rebuilt from the answers, one local day at a time.
#include "storage/ai_visibility_repository.h"
#include "storage/sql_helpers.h"

#include <array>
#include <map>

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kAnswerSums =
    "answers = ai_day_answers.answers + excluded.answers, cited_answers = "
    "ai_day_answers.cited_answers + excluded.cited_answers, owned_cited_answers = "
    "ai_day_answers.owned_cited_answers + excluded.owned_cited_answers, citations = "
    "ai_day_answers.citations + excluded.citations, owned_citations = "
    "ai_day_answers.owned_citations + excluded.owned_citations";
constexpr std::string_view kMentionSums =
    "answers = ai_day_mentions.answers + excluded.answers, occurrences = "
    "ai_day_mentions.occurrences + excluded.occurrences, rank_sum = ai_day_mentions.rank_sum + "
    "excluded.rank_sum, recommended = ai_day_mentions.recommended + excluded.recommended, judged "
    "= ai_day_mentions.judged + excluded.judged, sentiment_sum = ai_day_mentions.sentiment_sum + "
    "excluded.sentiment_sum, sentiment_count = ai_day_mentions.sentiment_count + "
    "excluded.sentiment_count";

// The two grains: per engine and topic (prompt ''), and per prompt (engine '').
struct Grain {
  std::int64_t grain;
  std::string engine_id, prompt_id;
};
std::array<Grain, 2> GrainsOf(const AiAnswerRecord& a) {
  return {Grain{0, a.engine_id, ""}, Grain{1, "", a.prompt_id}};
}

// The answer in its two rows.
Result<void> AddAnswer(SqlSession& session, const AiAnswerRecord& a, const AiRollupDay& day) {
  static const std::string sql =
      "INSERT INTO ai_day_answers (grain, project_id, zone, day_start, engine_id, prompt_id, "
      "topic, answers, cited_answers, owned_cited_answers, citations, owned_citations) VALUES "
      "($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11) ON CONFLICT (project_id, zone, grain, "
      "day_start, engine_id, prompt_id, topic) DO UPDATE SET " + std::string(kAnswerSums);
  for (const Grain& g : GrainsOf(a)) {
    auto done = ExecuteVoid(session, sql,
                            {g.grain, a.project_id, day.zone, day.day_start, g.engine_id,
                             g.prompt_id, a.topic, Flag(a.citations > 0),
                             Flag(a.owned_citations > 0), a.citations, a.owned_citations});
    if (!done) return done;
  }
  return {};
}

Result<void> AddMention(SqlSession& session, const AiAnswerRecord& a, const AiRollupDay& day,
                        const AiMentionRecord& m) {
  static const std::string sql =
      "INSERT INTO ai_day_mentions (grain, project_id, zone, day_start, engine_id, prompt_id, "
      "brand_id, topic, answers, occurrences, rank_sum, recommended, judged, sentiment_sum, "
      "sentiment_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11, $12, $13, $14) "
      "ON CONFLICT (project_id, zone, grain, day_start, engine_id, prompt_id, topic, brand_id) DO "
      "UPDATE SET " +
      std::string(kMentionSums);
  for (const Grain& g : GrainsOf(a)) {
    auto done = ExecuteVoid(
        session, sql,
        {g.grain, a.project_id, day.zone, day.day_start, g.engine_id, g.prompt_id, m.brand_id,
         a.topic,
         m.occurrences, m.rank, Flag(m.recommended.value_or(false)), Flag(m.recommended.has_value()),
         m.sentiment.value_or(0.0), Flag(m.sentiment.has_value())});
    if (!done) return done;
  }
  return {};
}

// A page's row, and its domain's (url ''), which counts an answer once however many of the
// domain's pages it cites.
Result<void> AddCitations(SqlSession& session, const AiAnswerRecord& a, const AiRollupDay& day,
                          std::span<const AiCitationRecord> citations) {
  static const std::string sql =
      "INSERT INTO ai_day_citations (grain, project_id, zone, day_start, domain, url, path, "
      "owned, brand_id, citations, answers) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1) "
      "ON CONFLICT (project_id, zone, grain, day_start, domain, url) DO UPDATE SET citations = "
      "ai_day_citations.citations + excluded.citations, answers = ai_day_citations.answers + 1";
  std::map<std::string, std::pair<std::int64_t, const AiCitationRecord*>> domains;
  for (const AiCitationRecord& c : citations) {
    auto done = ExecuteVoid(session, sql,
                            {std::int64_t{1}, a.project_id, day.zone, day.day_start, c.domain,
                             c.url, c.path, Flag(c.owned), Nullable(c.brand_id), std::int64_t{1}});
    if (!done) return done;
    auto& [count, first] = domains[c.domain];
    if (count++ == 0) first = &c;
  }
  for (const auto& [domain, entry] : domains) {
    const AiCitationRecord& c = *entry.second;
    auto done = ExecuteVoid(session, sql,
                            {std::int64_t{0}, a.project_id, day.zone, day.day_start, domain,
                             std::string(), "", Flag(c.owned), Nullable(c.brand_id), entry.first});
    if (!done) return done;
  }
  return {};
}

}  // namespace

Result<bool> AiVisibilityRepository::HasAiRollupZone(std::string_view project_id,
                                                     std::string_view zone) {
  auto found = FindOne<bool>(session_,
                             "SELECT 1 FROM ai_rollup_zones WHERE project_id = $1 AND zone = $2",
                             {std::string(project_id), std::string(zone)},
                             [](const SqlRow&) { return true; });
  if (!found) return found.error();
  return found->has_value();
}

Result<std::optional<std::pair<std::int64_t, std::int64_t>>>
AiVisibilityRepository::AiAnsweredSpan(std::string_view project_id) {
  auto rows = session_.Query(
      "SELECT MIN(answered_at), MAX(answered_at) FROM ai_answers WHERE project_id = $1 AND "
      "status = 'done'",
      {std::string(project_id)});
  if (!rows) return rows.error();
  if (rows->empty() || rows->front().IsNull(0)) {
    return std::optional<std::pair<std::int64_t, std::int64_t>>();
  }
  return std::optional(std::pair(rows->front().Int(0), rows->front().Int(1)));
}

Result<void> AiVisibilityRepository::RebuildAiRollups(
    std::string_view project_id, std::string_view zone,
    std::span<const std::pair<std::int64_t, std::int64_t>> days) {
  const std::string project(project_id), zone_name(zone);
  for (std::string_view table : {"ai_day_answers", "ai_day_mentions", "ai_day_citations"}) {
    auto done = ExecuteVoid(session_, "DELETE FROM " + std::string(table) + " WHERE project_id = $1",
                            {project});
    if (!done) return done;
  }
  auto others = ExecuteVoid(session_,
                            "DELETE FROM ai_rollup_zones WHERE project_id = $1 AND zone <> $2",
                            {project, zone_name});
  if (!others) return others;
  // Per day: the answers and mentions at both grains, the pages and the domains.
  // %GRAIN% is 0 (per engine and topic) or 1 (per prompt); %ENGINE% and %PROMPT% the grain's
  // columns or ''.
  const std::string answers =
      "INSERT INTO ai_day_answers (grain, project_id, zone, day_start, engine_id, prompt_id, "
      "topic, answers, cited_answers, owned_cited_answers, citations, owned_citations) SELECT "
      "%GRAIN%, project_id, CAST($2 AS TEXT), CAST($3 AS BIGINT), %ENGINE%, %PROMPT%, topic, "
      "COUNT(*), SUM(CASE WHEN citations > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN owned_citations "
      "> 0 THEN 1 ELSE 0 END), SUM(citations), SUM(owned_citations) FROM ai_answers WHERE "
      "project_id = $1 AND status = 'done' AND answered_at >= $3 AND answered_at < $4 GROUP BY "
      "project_id, topic, %GROUP%";
  const std::string mentions =
      "INSERT INTO ai_day_mentions (grain, project_id, zone, day_start, engine_id, prompt_id, "
      "brand_id, topic, answers, occurrences, rank_sum, recommended, judged, sentiment_sum, "
      "sentiment_count) SELECT %GRAIN%, project_id, CAST($2 AS TEXT), CAST($3 AS BIGINT), "
      "%ENGINE%, %PROMPT%, brand_id, topic, COUNT(*), SUM(occurrences), SUM(rank), SUM(CASE WHEN "
      "recommended = 1 THEN 1 ELSE 0 END), COUNT(recommended), COALESCE(SUM(sentiment), 0), "
      "COUNT(sentiment) FROM ai_mentions WHERE project_id = $1 AND answered_at >= $3 AND "
      "answered_at < $4 GROUP BY project_id, topic, brand_id, %GROUP%";
  auto grain = [](std::string sql, bool by_prompt) {
    auto put = [&](std::string_view mark, std::string_view text) {
      sql.replace(sql.find(mark), mark.size(), text);
    };
    put("%GRAIN%", by_prompt ? "1" : "0");
    put("%ENGINE%", by_prompt ? "CAST('' AS TEXT)" : "engine_id");
    put("%PROMPT%", by_prompt ? "prompt_id" : "CAST('' AS TEXT)");
    put("%GROUP%", by_prompt ? "prompt_id" : "engine_id");
    return sql;
  };
  const std::string pages =
      "INSERT INTO ai_day_citations (grain, project_id, zone, day_start, domain, url, path, owned, "
      "brand_id, citations, answers) SELECT 1, project_id, CAST($2 AS TEXT), CAST($3 AS BIGINT), "
      "domain, url, MIN(path), "
      "MAX(owned), MAX(brand_id), COUNT(*), COUNT(*) FROM ai_citations WHERE project_id = $1 AND "
      "answered_at >= $3 AND answered_at < $4 GROUP BY project_id, domain, url";
  const std::string domains =
      "INSERT INTO ai_day_citations (grain, project_id, zone, day_start, domain, url, path, owned, "
      "brand_id, citations, answers) SELECT 0, project_id, CAST($2 AS TEXT), CAST($3 AS BIGINT), "
      "domain, '', '', MAX(owned), "
      "MAX(brand_id), COUNT(*), COUNT(DISTINCT answer_id) FROM ai_citations WHERE project_id = "
      "$1 AND answered_at >= $3 AND answered_at < $4 GROUP BY project_id, domain";
  const std::vector<std::string> statements = {grain(answers, false), grain(answers, true),
                                               grain(mentions, false), grain(mentions, true),
                                               pages, domains};
  for (const auto& [start, end] : days) {
    for (const std::string& sql : statements) {
      auto done = ExecuteVoid(session_, sql, {project, zone_name, start, end});
      if (!done) return done;
    }
  }
  return {};
}

Result<bool> AiVisibilityRepository::ClaimAiRollupZone(std::string_view project_id,
                                                       std::string_view zone, std::int64_t now) {
  // On PostgreSQL a second builder waits here for the first one's transaction, then finds the
  // row and builds nothing.
  auto changed = session_.Execute(
      "INSERT INTO ai_rollup_zones (project_id, zone, built_at) VALUES ($1, $2, $3) ON CONFLICT "
      "(project_id, zone) DO NOTHING",
      {std::string(project_id), std::string(zone), now});
  if (!changed) return changed.error();
  return *changed == 1;
}

Result<void> AiVisibilityRepository::DeleteAiBrandRollups(std::string_view project_id,
                                                          std::string_view brand_id) {
  return ExecuteVoid(session_,
                     "DELETE FROM ai_day_mentions WHERE project_id = $1 AND brand_id = $2",
                     {std::string(project_id), std::string(brand_id)});
}

Result<void> AiVisibilityRepository::AddToAiRollups(const AiAnswerRecord& answer,
                                                    const AiRollupDay& day,
                                                    std::span<const AiMentionRecord> mentions,
                                                    std::span<const AiCitationRecord> citations) {
  auto built = HasAiRollupZone(answer.project_id, day.zone);
  if (!built) return built.error();
  if (!*built) return {};  // the first report builds them, this answer included
  auto added = AddAnswer(session_, answer, day);
  if (!added) return added;
  for (const AiMentionRecord& m : mentions) {
    auto done = AddMention(session_, answer, day, m);
    if (!done) return done;
  }
  return AddCitations(session_, answer, day, citations);
}

}  // namespace sightline::storage
