// The aggregates AI-visibility reports read: answers, mentions and citations of a window, and
// for the loop report the owned pages' citations beside the AI crawlers' fetches of them and the
// visits arriving from AI assistants.
#include "storage/ai_visibility_repository.h"
#include "storage/sql_helpers.h"
#include "storage/visit_blocks.h"

#include <map>
#include <unordered_map>

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::int64_t kQuarterMs = 900'000;

// The grouping column of a report query; a constant for no grouping.
std::string GroupColumn(const AiReportQuery& query) {
  if (query.group_by == "engine") return "engine_id";
  if (query.group_by == "topic") return "topic";
  if (query.group_by == "prompt") return "prompt_id";
  return "''";
}

// " GROUP BY …" over the query's group and `more` (PostgreSQL refuses a constant there).
std::string GroupBy(const AiReportQuery& query, std::string_view more = {}) {
  std::vector<std::string> columns;
  if (GroupColumn(query) != "''") columns.push_back(GroupColumn(query));
  if (!more.empty()) columns.emplace_back(more);
  std::string text;
  for (const std::string& column : columns) text += (text.empty() ? " GROUP BY " : ", ") + column;
  return text;
}

// "project_id = $1 AND answered_at >= $2 AND answered_at < $3" and the query's filters.
std::string WindowConditions(SqlBuilder& sql, const AiReportQuery& query) {
  std::string text = "project_id = " + sql.Next(query.project_id) + " AND answered_at >= " +
                     sql.Next(query.start_ms) + " AND answered_at < " + sql.Next(query.end_ms);
  if (!query.engine_id.empty()) text += " AND engine_id = " + sql.Next(query.engine_id);
  if (!query.topic.empty()) text += " AND topic = " + sql.Next(query.topic);
  if (!query.prompt_id.empty()) text += " AND prompt_id = " + sql.Next(query.prompt_id);
  return text;
}

bool ByPrompt(const AiReportQuery& query) {
  return query.group_by == "prompt" || !query.prompt_id.empty();
}

// Whether the day rollups answer the query: they keep prompts and engines apart, so one
// engine's answers per prompt are counted from the answers themselves.
bool FromRollups(const AiReportQuery& query) {
  return !query.zone.empty() && !(ByPrompt(query) && !query.engine_id.empty());
}

// The rollup rows of the query's zone and days at the grain its grouping and filters need:
// per prompt (grain 1), or per engine and topic (grain 0).
std::string RollupConditions(SqlBuilder& sql, const AiReportQuery& query) {
  const std::int64_t grain = ByPrompt(query) ? 1 : 0;
  std::string text = "project_id = " + sql.Next(query.project_id) + " AND zone = " +
                     sql.Next(query.zone) + " AND grain = " + sql.Next(grain) +
                     " AND day_start >= " + sql.Next(query.start_ms) + " AND day_start < " +
                     sql.Next(query.end_ms);
  if (!query.engine_id.empty()) text += " AND engine_id = " + sql.Next(query.engine_id);
  if (!query.topic.empty()) text += " AND topic = " + sql.Next(query.topic);
  if (!query.prompt_id.empty()) text += " AND prompt_id = " + sql.Next(query.prompt_id);
  return text;
}

// The citation rollup rows of the query's zone and days: pages (grain 1) or domains (grain 0).
std::string CitationRollupConditions(SqlBuilder& sql, const AiReportQuery& query, bool pages) {
  return "project_id = " + sql.Next(query.project_id) + " AND zone = " + sql.Next(query.zone) +
         " AND grain = " + sql.Next(std::int64_t{pages ? 1 : 0}) + " AND day_start >= " +
         sql.Next(query.start_ms) + " AND day_start < " + sql.Next(query.end_ms);
}

bool Filtered(const AiReportQuery& query) {
  return !query.engine_id.empty() || !query.topic.empty() || !query.prompt_id.empty();
}

Result<std::vector<AiQuarterCount>> Quarters(SqlBuilder& sql, SqlSession& session) {
  auto rows = sql.Query(session);
  if (!rows) return rows.error();
  std::vector<AiQuarterCount> quarters;
  for (const SqlRow& row : *rows) quarters.push_back({row.Int(0), row.Int(1)});
  return quarters;
}

}  // namespace

// Every query below answers rows of (group, [brand,] sums…); they are added up here, so the
// per-prompt rollup rows can be read without a GROUP BY: grouping that many rows makes SQLite
// sort them, which costs more than reading them (ai_visibility_bench). Rows grouped in SQL
// already pass through unchanged.
Result<std::vector<AiAnswerTotals>> AiVisibilityRepository::AiAnswerTotalsOf(
    const AiReportQuery& query) {
  SqlBuilder sql;
  const std::string group = GroupColumn(query);
  if (FromRollups(query)) {
    const bool by_prompt = ByPrompt(query);
    const std::string sum = by_prompt ? "" : "SUM";
    sql.text = "SELECT " + group + ", " + sum + "(answers), " + sum + "(cited_answers), " + sum +
               "(owned_cited_answers), " + sum + "(citations), " + sum +
               "(owned_citations) FROM ai_day_answers WHERE " + RollupConditions(sql, query) +
               (by_prompt ? "" : GroupBy(query));
  } else {
    sql.text = "SELECT " + group +
               ", COUNT(*), SUM(CASE WHEN citations > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN "
               "owned_citations > 0 THEN 1 ELSE 0 END), SUM(citations), SUM(owned_citations) "
               "FROM ai_answers WHERE status = 'done' AND " +
               WindowConditions(sql, query) + GroupBy(query);
  }
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::unordered_map<std::string, AiAnswerTotals> sums;
  for (const SqlRow& r : *rows) {
    AiAnswerTotals& sum = sums[r.Text(0)];
    sum.answers += r.Int(1);
    sum.cited_answers += r.Int(2);
    sum.owned_cited_answers += r.Int(3);
    sum.citations += r.Int(4);
    sum.owned_citations += r.Int(5);
  }
  std::vector<AiAnswerTotals> totals;
  for (auto& [key, sum] : sums) {
    sum.key = key;
    totals.push_back(std::move(sum));
  }
  return totals;
}

Result<std::vector<AiMentionTotals>> AiVisibilityRepository::AiMentionTotalsOf(
    const AiReportQuery& query) {
  SqlBuilder sql;
  const std::string group = GroupColumn(query);
  if (FromRollups(query)) {
    const bool by_prompt = ByPrompt(query);
    const std::string sum = by_prompt ? "" : "SUM";
    sql.text = "SELECT " + group + ", brand_id, " + sum + "(answers), " + sum + "(occurrences), " +
               sum + "(rank_sum), " + sum + "(recommended), " + sum + "(judged), " + sum +
               "(sentiment_sum), " + sum + "(sentiment_count) FROM ai_day_mentions WHERE " +
               RollupConditions(sql, query) + (by_prompt ? "" : GroupBy(query, "brand_id"));
  } else {
    sql.text = "SELECT " + group +
               ", brand_id, COUNT(*), SUM(occurrences), SUM(rank), SUM(CASE WHEN recommended = 1 "
               "THEN 1 ELSE 0 END), COUNT(recommended), COALESCE(SUM(sentiment), 0), "
               "COUNT(sentiment) FROM ai_mentions WHERE " +
               WindowConditions(sql, query) + GroupBy(query, "brand_id");
  }
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::map<std::pair<std::string, std::string>, AiMentionTotals> sums;
  for (const SqlRow& r : *rows) {
    AiMentionTotals& sum = sums[{r.Text(0), r.Text(1)}];
    sum.answers += r.Int(2);
    sum.occurrences += r.Int(3);
    sum.rank_sum += r.Int(4);
    sum.recommended += r.Int(5);
    sum.judged += r.Int(6);
    sum.sentiment_sum += r.Double(7);
    sum.sentiment_count += r.Int(8);
  }
  std::vector<AiMentionTotals> totals;
  for (auto& [key, sum] : sums) {
    sum.key = key.first;
    sum.brand_id = key.second;
    totals.push_back(std::move(sum));
  }
  return totals;
}

Result<std::vector<AiCitedSource>> AiVisibilityRepository::AiCitedSourcesOf(
    const AiReportQuery& query, bool by_page, std::int64_t limit,
    const std::vector<std::string>* only) {
  SqlBuilder sql;
  const std::string value = by_page ? "url" : "domain";
  if (!query.zone.empty() && !Filtered(query)) {
    sql.text = "SELECT " + value +
               ", SUM(citations), SUM(answers), MAX(owned), MAX(brand_id) FROM ai_day_citations "
               "WHERE " + CitationRollupConditions(sql, query, by_page);
    if (only) sql.text += " AND " + sql.In(value, *only);
    sql.text += " GROUP BY " + value + " ORDER BY SUM(citations) DESC, " + value + " LIMIT " +
                sql.Next(limit);
  } else {
    sql.text = "SELECT " + value +
               ", COUNT(*), COUNT(DISTINCT answer_id), MAX(owned), MAX(brand_id) FROM "
               "ai_citations WHERE " +
               WindowConditions(sql, query);
    if (only) sql.text += " AND " + sql.In(value, *only);
    sql.text += " GROUP BY " + value + " ORDER BY COUNT(*) DESC, " + value + " LIMIT " +
                sql.Next(limit);
  }
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiCitedSource> sources;
  for (const SqlRow& r : *rows) {
    sources.push_back({r.Text(0), r.Int(1), r.Int(2), r.Bool(3), r.OptText(4)});
  }
  return sources;
}

Result<std::vector<AiPageCitations>> AiVisibilityRepository::AiOwnedPageCitations(
    const AiReportQuery& query) {
  SqlBuilder sql;
  if (!query.zone.empty()) {
    sql.text = "SELECT path, SUM(citations), SUM(answers) FROM ai_day_citations WHERE owned = 1 "
               "AND " + CitationRollupConditions(sql, query, true) + " GROUP BY path";
  } else {
    sql.text = "SELECT path, COUNT(*), COUNT(DISTINCT answer_id) FROM ai_citations WHERE "
               "owned = 1 AND " +
               WindowConditions(sql, query) + " GROUP BY path";
  }
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiPageCitations> pages;
  for (const SqlRow& r : *rows) pages.push_back({r.Text(0), r.Int(1), r.Int(2)});
  return pages;
}

Result<std::vector<AiQuarterCount>> AiVisibilityRepository::AiOwnedCitationQuarters(
    const AiReportQuery& query, std::string_view path) {
  SqlBuilder sql;
  if (!query.zone.empty()) {
    // Daily series: each day's count at its start (local days start on a quarter hour).
    const std::string quarter = "day_start / " + std::to_string(kQuarterMs);
    sql.text = "SELECT " + quarter + ", SUM(citations) FROM ai_day_citations WHERE owned = 1 "
               "AND " + CitationRollupConditions(sql, query, true);
    if (!path.empty()) sql.text += " AND path = " + sql.Next(std::string(path));
    sql.text += " GROUP BY " + quarter;
    return Quarters(sql, session_);
  }
  const std::string quarter = "answered_at / " + std::to_string(kQuarterMs);
  sql.text = "SELECT " + quarter + ", COUNT(*) FROM ai_citations WHERE owned = 1 AND " +
             WindowConditions(sql, query);
  if (!path.empty()) sql.text += " AND path = " + sql.Next(std::string(path));
  sql.text += " GROUP BY " + quarter;
  return Quarters(sql, session_);
}

Result<std::vector<AiCrawlerFetches>> AiVisibilityRepository::AiCrawlerFetchesOf(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms) {
  auto rows = session_.Query(
      "SELECT COALESCE(path, ''), COALESCE(bot_vendor, ''), COALESCE(actor_category, ''), "
      "actor_type, COUNT(*) FROM bot_requests WHERE project_id = $1 AND occurred_at >= $2 AND "
      "occurred_at < $3 AND is_ai = 1 GROUP BY path, bot_vendor, actor_category, actor_type",
      {std::string(project_id), start_ms, end_ms});
  if (!rows) return rows.error();
  std::vector<AiCrawlerFetches> fetches;
  for (const SqlRow& r : *rows) {
    fetches.push_back({r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Int(4)});
  }
  return fetches;
}

Result<std::vector<AiQuarterCount>> AiVisibilityRepository::AiCrawlerQuarters(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms,
    std::string_view path) {
  SqlBuilder sql;
  const std::string quarter = "occurred_at / " + std::to_string(kQuarterMs);
  sql.text = "SELECT " + quarter + ", COUNT(*) FROM bot_requests WHERE project_id = " +
             sql.Next(std::string(project_id)) + " AND occurred_at >= " + sql.Next(start_ms) +
             " AND occurred_at < " + sql.Next(end_ms) + " AND is_ai = 1";
  if (!path.empty()) sql.text += " AND path = " + sql.Next(std::string(path));
  sql.text += " GROUP BY " + quarter;
  return Quarters(sql, session_);
}

namespace {

constexpr std::string_view kAiAssistants = "AI Assistants";

// Calls `each` with the visits (not loose events) from AI assistants that started in the
// window, with their entry page and source.
Result<void> EachAssistantVisit(SqlSession& session, std::string_view project_id,
                                std::string_view zone, std::int64_t start_ms, std::int64_t end_ms,
                                const std::function<void(const WebVisitRow&)>& each) {
  constexpr VisitColumn kTexts[] = {VisitColumn::kEntryPage, VisitColumn::kSource};
  const VisitSelection selection{
      start_ms, end_ms,
      {{VisitColumn::kChannel,
        [](std::string_view channel) { return channel == kAiAssistants; }}}};
  return internal::ReadVisits(session, project_id, zone, kTexts, selection,
                              [&](const WebVisitRow& visit) {
                                if (visit.in_visit) each(visit);
                              });
}

}  // namespace

Result<std::vector<AiAssistantVisits>> AiVisibilityRepository::AiAssistantVisitsOf(
    std::string_view project_id, std::string_view zone, std::int64_t start_ms,
    std::int64_t end_ms) {
  std::map<std::pair<std::string, std::string>, std::int64_t> counts;  // (page, source)
  auto read = EachAssistantVisit(session_, project_id, zone, start_ms, end_ms,
                                 [&](const WebVisitRow& v) { ++counts[{v.entry_page, v.source}]; });
  if (!read) return read.error();
  std::vector<AiAssistantVisits> visits;
  for (auto& [key, count] : counts) visits.push_back({key.first, key.second, count});
  return visits;
}

Result<std::vector<AiQuarterCount>> AiVisibilityRepository::AiAssistantVisitQuarters(
    std::string_view project_id, std::string_view zone, std::int64_t start_ms,
    std::int64_t end_ms, std::string_view path) {
  std::map<std::int64_t, std::int64_t> counts;
  auto read = EachAssistantVisit(session_, project_id, zone, start_ms, end_ms,
                                 [&](const WebVisitRow& v) {
    if (path.empty() || v.entry_page == path) ++counts[v.started_at / kQuarterMs];
  });
  if (!read) return read.error();
  std::vector<AiQuarterCount> quarters;
  for (const auto& [quarter, count] : counts) quarters.push_back({quarter, count});
  return quarters;
}

}  // namespace sightline::storage
