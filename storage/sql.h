// The narrow SQL interface the two backends implement (storage/sqlite, storage/postgres).
//
// Statements are written once, in the common subset of SQLite and PostgreSQL, with `$1..$n`
// placeholders. Values are plain (null, 64-bit integer, double, text); timestamps are Unix
// milliseconds in BIGINT columns and booleans are 0/1 integers, so both backends store them
// alike. A `SqlSession` is one connection inside one transaction; it is used by one thread.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sightline::storage {

// Bytes for a BLOB (SQLite) or BYTEA (PostgreSQL) column. Only a parameter type: such columns
// read back as std::string holding the bytes.
struct SqlBlob {
  std::string bytes;
};

using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string, SqlBlob>;

// Builds a parameter from optional values: nullopt becomes SQL NULL.
SqlValue Nullable(const std::optional<std::string>& value);
SqlValue Nullable(const std::optional<std::int64_t>& value);

class SqlRow {
 public:
  explicit SqlRow(std::vector<SqlValue> values) : values_(std::move(values)) {}
  std::size_t size() const { return values_.size(); }
  bool IsNull(std::size_t i) const;
  // Text columns come back as strings from both backends; integers may come back as text from
  // PostgreSQL, so the accessors convert. A NULL reads as 0 / "" / nullopt.
  std::int64_t Int(std::size_t i) const;
  double Double(std::size_t i) const;
  std::string Text(std::size_t i) const;
  // Text(i) without a copy: the value moves out, and the row reads "" there afterwards (for
  // blocks, megabytes a query).
  std::string TakeText(std::size_t i);
  std::optional<std::string> OptText(std::size_t i) const;
  std::optional<std::int64_t> OptInt(std::size_t i) const;
  bool Bool(std::size_t i) const { return Int(i) != 0; }

 private:
  std::vector<SqlValue> values_;
};

enum class Dialect { kSqlite, kPostgres };

class SqlSession {
 public:
  virtual ~SqlSession() = default;
  virtual Dialect dialect() const = 0;
  // Runs one statement and returns its rows. A unique-constraint violation is
  // ErrorCode::kConflict (message names the constraint); an unreachable or busy database is
  // kStorageUnavailable; anything else kInternal.
  virtual core::Result<std::vector<SqlRow>> Query(std::string_view sql,
                                                  std::span<const SqlValue> params) = 0;
  // Like Query, for a statement assembled at run time whose text varies (the reports: filters,
  // key lists, bucket boundaries). It is not kept prepared on the connection, so such
  // statements cannot grow a connection's statement cache without bound.
  virtual core::Result<std::vector<SqlRow>> QueryOnce(std::string_view sql,
                                                      std::span<const SqlValue> params) = 0;

  // Runs one statement; returns the number of rows it changed.
  virtual core::Result<std::int64_t> Execute(std::string_view sql,
                                             std::span<const SqlValue> params) = 0;
  // Runs a script of several statements without parameters (migrations).
  virtual core::Result<void> ExecuteScript(std::string_view sql) = 0;

  // Conveniences over Query/Execute with an initializer list of parameters.
  core::Result<std::vector<SqlRow>> Query(std::string_view sql,
                                          std::initializer_list<SqlValue> params = {}) {
    return Query(sql, std::span<const SqlValue>(params.begin(), params.size()));
  }
  core::Result<std::int64_t> Execute(std::string_view sql,
                                     std::initializer_list<SqlValue> params = {}) {
    return Execute(sql, std::span<const SqlValue>(params.begin(), params.size()));
  }
};

enum class TxMode {
  kRead,        // a consistent read-only snapshot (or a single autocommit statement)
  kWrite,       // a read-write transaction that takes the write lock up front on SQLite
  kAutocommit,  // no explicit transaction: each statement commits alone. For one statement that
                // is atomic by itself (an UPSERT): one round trip instead of three.
};

// A pool of connections to one database. Thread-safe.
class SqlDatabase {
 public:
  virtual ~SqlDatabase() = default;
  virtual Dialect dialect() const = 0;
  virtual std::string_view backend_name() const = 0;
  // Runs `body` inside one transaction on a pooled connection; commits when it returns a value
  // and rolls back when it returns an error or throws.
  virtual core::Result<void> Transact(
      TxMode mode, const std::function<core::Result<void>(SqlSession&)>& body) = 0;
};

}  // namespace sightline::storage
