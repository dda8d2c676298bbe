// Web analytics over the web rollups (storage/report_repository_rollups.cpp), written once for both
// backends. Every value the caller sent is a bound parameter.
#include "storage/report_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using Sql = internal::SqlBuilder;

// "FROM …" for the query's periods, dimension and values.
std::string RollupFrom(const WebRollupQuery& q, Sql& sql) {
  std::string where = " AND dimension = " + sql.Next(q.dimension);
  if (q.values) where += " AND " + sql.In("value", *q.values);
  return internal::RollupRowsFrom(sql, "web_rollups", internal::kWebRollupColumns, q.range,
                                  where, /*use_blocks=*/true);
}

}  // namespace

Result<std::vector<WebRollupRow>> ReportRepository::WebRollupRows(const WebRollupQuery& q) {
  Sql sql;
  const std::string from = RollupFrom(q, sql);
  sql.text = "SELECT " + std::string(internal::kWebRollupColumns) + " " + from +
             "ORDER BY period_start, value";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<WebRollupRow> out;
  out.reserve(rows->size());
  for (const SqlRow& r : *rows) out.push_back(internal::WebRollupRowOf(r));
  return out;
}

Result<WebValueRanking> ReportRepository::RankWebValues(const WebRollupQuery& q, std::int64_t limit,
                                                  std::int64_t offset) {
  Sql sql;
  const std::string from = RollupFrom(q, sql);
  // The window function counts the groups in the same pass (it runs before LIMIT).
  sql.text = "SELECT value, SUM(events) AS total, COUNT(*) OVER () " + from +
             "GROUP BY value ORDER BY total DESC, value ASC LIMIT " + sql.Next(limit) +
             " OFFSET " + sql.Next(offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  WebValueRanking ranking;
  ranking.page.reserve(rows->size());
  for (const SqlRow& r : *rows) ranking.page.push_back({r.Text(0), r.Int(1)});
  if (!rows->empty()) {
    ranking.values = rows->front().Int(2);
    return ranking;
  }
  // A page past the end has no row to carry the count.
  Sql count;
  const std::string count_from = RollupFrom(q, count);
  count.text = "SELECT COUNT(DISTINCT value) " + count_from;
  auto counted = count.Query(session_);
  if (!counted) return counted.error();
  ranking.values = counted->front().Int(0);
  return ranking;
}

Result<std::vector<PageDurationRow>> ReportRepository::PageDurations(const WebRollupQuery& q,
                                                               std::int64_t limit,
                                                               std::int64_t offset) {
  WebRollupQuery pages = q;
  pages.dimension = static_cast<std::int64_t>(WebDimension::kPage);
  Sql sql;
  const std::string from = RollupFrom(pages, sql);
  sql.text = "SELECT value, SUM(events) AS total, SUM(timed_views), SUM(view_ms) " + from +
             "GROUP BY value ORDER BY total DESC, value ASC LIMIT " + sql.Next(limit) +
             " OFFSET " + sql.Next(offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<PageDurationRow> out;
  out.reserve(rows->size());
  for (const SqlRow& r : *rows) out.push_back({r.Text(0), r.Int(1), r.Int(2), r.Int(3)});
  return out;
}

}  // namespace sightline::storage
