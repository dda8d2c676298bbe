#include "storage/sql_helpers.h"

namespace sightline::storage::internal {

std::string SqlBuilder::Next(SqlValue value) {
  params.push_back(std::move(value));
  return "$" + std::to_string(params.size());
}

std::string KeysetCondition(SqlBuilder& sql, std::string_view time_id, const KeysetPage& page,
                            bool newest_first) {
  if (!page.after) return "";
  return " AND (" + std::string(time_id) + (newest_first ? ") < (" : ") > (") +
         sql.Next(page.after->first) + ", " + sql.Next(page.after->second) + ")";
}

std::string SqlBuilder::In(std::string_view expression, const std::vector<std::string>& values) {
  std::string sql = std::string(expression) + " IN (";
  if (values.empty()) sql += "NULL";
  for (std::size_t i = 0; i < values.size(); ++i) sql += (i ? ", " : "") + Next(values[i]);
  return sql + ")";
}

std::string SqlBuilder::In(std::string_view expression,
                           const std::vector<std::int64_t>& values) {
  std::string sql = std::string(expression) + " IN (";
  if (values.empty()) sql += "NULL";
  for (std::size_t i = 0; i < values.size(); ++i) sql += (i ? ", " : "") + Next(values[i]);
  return sql + ")";
}

std::string RollupRowsFrom(SqlBuilder& sql, std::string_view table, std::string_view columns,
                           const RollupRange& range, std::string_view conditions,
                           bool use_blocks) {
  const std::string head = std::string(table) + " WHERE project_id = " +
                           sql.Next(range.project_id) + " AND zone = " + sql.Next(range.zone);
  const auto span_is = [](RollupSpan span) {
    return " AND span = " + std::to_string(static_cast<std::int64_t>(span));
  };
  if (!use_blocks || range.blocks.empty()) {
    return "FROM " + head + span_is(range.span) + " AND period_start >= " +
           sql.Next(range.start_ms) + " AND period_start < " + sql.Next(range.end_ms) +
           std::string(conditions) + " ";
  }
  std::string from = "FROM (";
  for (std::size_t i = 0; i < range.blocks.size(); ++i) {
    const RollupPeriods& periods = range.blocks[i];
    from += (i ? " UNION ALL SELECT " : "SELECT ") + std::string(columns) + " FROM " + head +
            span_is(periods.span) + " AND " + sql.In("period_start", periods.starts) +
            std::string(conditions);
  }
  return from + ") AS r ";
}

core::Result<std::vector<SqlRow>> SqlBuilder::Query(SqlSession& session) const {
  return session.QueryOnce(text, std::span<const SqlValue>(params.data(), params.size()));
}

core::Result<void> ExecuteVoid(SqlSession& session, std::string_view sql,
                               std::initializer_list<SqlValue> params) {
  auto done = session.Execute(sql, params);
  if (!done) return done.error();
  return {};
}

core::Result<bool> ExecuteChanged(SqlSession& session, std::string_view sql,
                                  std::initializer_list<SqlValue> params) {
  auto changed = session.Execute(sql, params);
  if (!changed) return changed.error();
  return *changed > 0;
}

std::string Aliased(std::string_view alias, std::string_view columns) {
  std::string out;
  for (std::size_t start = 0; start < columns.size();) {
    std::size_t end = columns.find(", ", start);
    if (end == std::string_view::npos) end = columns.size();
    if (!out.empty()) out += ", ";
    out.append(alias).append(".").append(columns.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

std::string Select(std::string_view columns, std::string_view rest) {
  std::string sql = "SELECT ";
  sql += columns;
  sql += " ";
  sql += rest;
  return sql;
}

std::string InsertStatement(std::string_view table, std::string_view columns, std::size_t rows) {
  const std::size_t count = ColumnCount(columns);
  std::string sql = "INSERT INTO ";
  sql.append(table).append(" (").append(columns).append(") VALUES ");
  std::size_t parameter = 1;
  for (std::size_t r = 0; r < rows; ++r) {
    sql += r > 0 ? ", (" : "(";
    for (std::size_t c = 0; c < count; ++c, ++parameter) {
      sql += (c > 0 ? ", $" : "$") + std::to_string(parameter);
    }
    sql += ")";
  }
  return sql;
}

}  // namespace sightline::storage::internal
