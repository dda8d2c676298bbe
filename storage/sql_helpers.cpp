#include "storage/sql_helpers.h"

namespace sightline::storage::internal {

std::string SqlBuilder::Next(SqlValue value) {
  params.push_back(std::move(value));
  return "$" + std::to_string(params.size());
}

std::string SqlBuilder::In(std::string_view expression, const std::vector<std::string>& values) {
  std::string sql = std::string(expression) + " IN (";
  if (values.empty()) sql += "NULL";
  for (std::size_t i = 0; i < values.size(); ++i) sql += (i ? ", " : "") + Next(values[i]);
  return sql + ")";
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
