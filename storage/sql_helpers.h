// Helpers for writing the repository's SQL, shared by the storage/repository*.cpp files only
// (an internal header of this folder).
#pragma once

#include "core/result.h"
#include "storage/keyset.h"
#include "storage/report_records.h"
#include "storage/sql.h"

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::storage::internal {

// A statement assembled from fixed fragments, with its numbered parameters (the report queries,
// whose filters and key lists vary). Every caller value goes in as a parameter.
struct SqlBuilder {
  std::string text;
  std::vector<SqlValue> params;

  // Appends a parameter and returns its placeholder ("$7").
  std::string Next(SqlValue value);
  // "expression IN ($8, $9, …)" over `values`; with none, "expression IN (NULL)", which matches
  // nothing ("IN ()" is not valid SQL on PostgreSQL).
  std::string In(std::string_view expression, const std::vector<std::string>& values);
  std::string In(std::string_view expression, const std::vector<std::int64_t>& values);
  core::Result<std::vector<SqlRow>> Query(SqlSession& session) const;
};

// The condition of a keyset page over `time_id` ("created_at, id"): " AND (created_at, id) >
// ($n, $m)" (< for a list newest first), or "" for the first page.
std::string KeysetCondition(SqlBuilder& sql, std::string_view time_id, const KeysetPage& page,
                            bool newest_first = false);

// The rollup rows of `range` in `table` (bot_rollups) that also meet
// `conditions` (" AND …", its parameters already in `sql`), as a FROM clause whose rows have
// `columns`: one scan of the range's span by start time or, with `use_blocks` and blocks in the
// range, the union of its blocks' rows.
std::string RollupRowsFrom(SqlBuilder& sql, std::string_view table, std::string_view columns,
                           const RollupRange& range, std::string_view conditions,
                           bool use_blocks);

inline SqlValue Opt(const std::optional<double>& v) {
  if (!v) return nullptr;
  return *v;
}
inline SqlValue Flag(bool v) { return static_cast<std::int64_t>(v ? 1 : 0); }
inline std::optional<double> OptDouble(const SqlRow& row, std::size_t i) {
  if (row.IsNull(i)) return std::nullopt;
  return row.Double(i);
}

// Runs a single-row lookup and maps the row with `map` when there is one.
template <class T, class Map>
core::Result<std::optional<T>> FindOne(SqlSession& session, std::string_view sql,
                                       std::initializer_list<SqlValue> params, Map map) {
  auto rows = session.Query(sql, params);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<T>();
  return std::optional<T>(map(rows->front()));
}

// Runs a query and maps every row with `map`.
template <class T, class Map>
core::Result<std::vector<T>> FindAll(SqlSession& session, std::string_view sql,
                                     std::initializer_list<SqlValue> params, Map map) {
  auto rows = session.Query(sql, params);
  if (!rows) return rows.error();
  std::vector<T> out;
  out.reserve(rows->size());
  for (const auto& row : *rows) out.push_back(map(row));
  return out;
}

core::Result<void> ExecuteVoid(SqlSession& session, std::string_view sql,
                               std::initializer_list<SqlValue> params);
// Runs a statement and tells whether it changed any row.
core::Result<bool> ExecuteChanged(SqlSession& session, std::string_view sql,
                                  std::initializer_list<SqlValue> params);

constexpr std::size_t ColumnCount(std::string_view columns) {
  std::size_t count = 1;
  for (char c : columns) count += c == ',';
  return count;
}

// "a.x, a.y" for the column list "x, y".
std::string Aliased(std::string_view alias, std::string_view columns);
std::string Select(std::string_view columns, std::string_view rest);
// "INSERT INTO table (cols) VALUES ($1, ..., $n), (...)" for `rows` rows of the column list.
std::string InsertStatement(std::string_view table, std::string_view columns,
                            std::size_t rows = 1);

// Inserts `rows` with multi-row INSERT statements of 128, then 32, 8 and 1 rows, so a batch
// costs a few statements instead of one per row, and each backend prepares at most four
// statement shapes per table.
template <class Row, class Params>
core::Result<void> InsertRows(SqlSession& session, std::string_view table,
                              std::string_view columns, std::span<const Row> rows,
                              Params params) {
  std::vector<SqlValue> values;
  while (!rows.empty()) {
    std::size_t chunk = 1;
    for (std::size_t size : {128, 32, 8}) {
      if (rows.size() >= size) {
        chunk = size;
        break;
      }
    }
    values.clear();
    for (const Row& row : rows.first(chunk)) {
      std::vector<SqlValue> one = params(row);
      values.insert(values.end(), std::make_move_iterator(one.begin()),
                    std::make_move_iterator(one.end()));
    }
    auto done = session.Execute(InsertStatement(table, columns, chunk),
                                std::span<const SqlValue>(values));
    if (!done) return done.error();
    rows = rows.subspan(chunk);
  }
  return {};
}

}  // namespace sightline::storage::internal
