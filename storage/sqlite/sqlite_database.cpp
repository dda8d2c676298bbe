// SQLite backend: a fixed pool of connections to one WAL-mode file. Readers run concurrently;
// writers serialize on SQLite's write lock (BEGIN IMMEDIATE, with a busy timeout), which is
// what keeps a single-machine deployment correct without any lock of our own.
#include "storage/store.h"

#include <sqlite3.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <unordered_map>

namespace sightline::storage {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

constexpr int kBusyTimeoutMs = 10000;

Error SqliteError(sqlite3* db, int rc, std::string_view what) {
  const int primary = rc & 0xFF;
  std::string detail = std::string(what) + ": " + sqlite3_errmsg(db);
  if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
    return Error(ErrorCode::kConflict, "A record with the same unique key already exists.")
        .WithInternal(std::move(detail));
  }
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_FULL ||
      primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN) {
    return Error(ErrorCode::kStorageUnavailable, "The database is busy or unavailable.")
        .WithInternal(std::move(detail));
  }
  return Error::Internal(std::move(detail));
}

class SqliteConnection final : public SqlSession {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  ~SqliteConnection() override {
    for (auto& [sql, prepared] : statements_) sqlite3_finalize(prepared.stmt);
    sqlite3_close_v2(db_);
  }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Dialect dialect() const override { return Dialect::kSqlite; }
  using SqlSession::Execute;  // keep the initializer-list conveniences visible
  using SqlSession::Query;

  Result<std::vector<SqlRow>> Query(std::string_view sql,
                                    std::span<const SqlValue> params) override {
    std::vector<SqlRow> rows;
    auto status = Run(sql, params, &rows);
    if (!status) return status.error();
    return rows;
  }

  Result<std::vector<SqlRow>> QueryOnce(std::string_view sql,
                                        std::span<const SqlValue> params) override {
    auto compiled = Compile(sql, 0);
    if (!compiled) return compiled.error();
    struct Finalize {
      sqlite3_stmt* s;
      ~Finalize() { sqlite3_finalize(s); }
    } finalize{compiled->stmt};
    std::vector<SqlRow> rows;
    auto status = Step(*compiled, params, &rows);
    if (!status) return status.error();
    return rows;
  }

  Result<std::int64_t> Execute(std::string_view sql, std::span<const SqlValue> params) override {
    auto status = Run(sql, params, nullptr);
    if (!status) return status.error();
    return static_cast<std::int64_t>(sqlite3_changes(db_));
  }

  Result<void> ExecuteScript(std::string_view sql) override {
    char* message = nullptr;
    const std::string script(sql);
    const int rc = sqlite3_exec(db_, script.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
      std::string text = message ? message : "";
      sqlite3_free(message);
      return SqliteError(db_, rc, "script: " + text);
    }
    return {};
  }

  sqlite3* handle() { return db_; }

 private:
  // A prepared statement and, for each parameter number N of "$N", SQLite's bind index (0 when
  // the statement does not use it). SQLite treats "$N" as a name, and looking names up is a
  // linear search, so the map is built once per statement, not per bind.
  struct Prepared {
    sqlite3_stmt* stmt = nullptr;
    std::vector<int> index_of;  // index_of[N - 1]
  };

  // Compiles `sql` (flags: SQLITE_PREPARE_PERSISTENT for cached statements) and maps its "$N"
  // parameters to bind indexes.
  Result<Prepared> Compile(std::string_view sql, unsigned flags) {
    Prepared prepared;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), flags,
                                      &prepared.stmt, nullptr);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "prepare");
    for (int i = 1; i <= sqlite3_bind_parameter_count(prepared.stmt); ++i) {
      const char* name = sqlite3_bind_parameter_name(prepared.stmt, i);
      if (name == nullptr || name[0] != '$') continue;
      const std::size_t number = std::strtoul(name + 1, nullptr, 10);
      if (number == 0) continue;
      if (prepared.index_of.size() < number) prepared.index_of.resize(number, 0);
      prepared.index_of[number - 1] = i;
    }
    return prepared;
  }

  Result<Prepared*> Prepare(std::string_view sql) {
    auto found = statements_.find(std::string(sql));
    if (found != statements_.end()) return &found->second;
    auto prepared = Compile(sql, SQLITE_PREPARE_PERSISTENT);
    if (!prepared) return prepared.error();
    return &statements_.emplace(std::string(sql), *prepared).first->second;
  }

  Result<void> Bind(const Prepared& prepared, std::span<const SqlValue> params) {
    sqlite3_stmt* stmt = prepared.stmt;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = i < prepared.index_of.size() ? prepared.index_of[i] : 0;
      if (index == 0) continue;  // a statement need not use every parameter
      int rc = SQLITE_OK;
      const SqlValue& value = params[i];
      if (std::holds_alternative<std::nullptr_t>(value)) {
        rc = sqlite3_bind_null(stmt, index);
      } else if (auto v = std::get_if<std::int64_t>(&value)) {
        rc = sqlite3_bind_int64(stmt, index, *v);
      } else if (auto d = std::get_if<double>(&value)) {
        rc = sqlite3_bind_double(stmt, index, *d);
      } else if (auto blob = std::get_if<SqlBlob>(&value)) {
        rc = sqlite3_bind_blob(stmt, index, blob->bytes.data(),
                               static_cast<int>(blob->bytes.size()), SQLITE_TRANSIENT);
      } else {
        const auto& text = std::get<std::string>(value);
        rc = sqlite3_bind_text(stmt, index, text.data(), static_cast<int>(text.size()),
                               SQLITE_TRANSIENT);
      }
      if (rc != SQLITE_OK) return SqliteError(db_, rc, "bind");
    }
    return {};
  }

  static SqlValue ReadColumn(sqlite3_stmt* stmt, int column) {
    switch (sqlite3_column_type(stmt, column)) {
      case SQLITE_INTEGER: return static_cast<std::int64_t>(sqlite3_column_int64(stmt, column));
      case SQLITE_FLOAT: return sqlite3_column_double(stmt, column);
      case SQLITE_NULL: return nullptr;
      case SQLITE_BLOB: {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, column));
        return std::string(bytes == nullptr ? "" : bytes,
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
      }
      default: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
        return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
      }
    }
  }

  Result<void> Run(std::string_view sql, std::span<const SqlValue> params,
                   std::vector<SqlRow>* rows) {
    auto prepared = Prepare(sql);
    if (!prepared) return prepared.error();
    return Step(**prepared, params, rows);
  }

  // Binds, runs to completion collecting rows (when `rows` is given), and resets `prepared`.
  Result<void> Step(const Prepared& prepared, std::span<const SqlValue> params,
                    std::vector<SqlRow>* rows) {
    sqlite3_stmt* stmt = prepared.stmt;
    struct Reset {
      sqlite3_stmt* s;
      ~Reset() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } reset{stmt};
    auto bound = Bind(prepared, params);
    if (!bound) return bound.error();
    const int columns = sqlite3_column_count(stmt);
    for (;;) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) return {};
      if (rc != SQLITE_ROW) return SqliteError(db_, rc, "step");
      if (rows == nullptr) continue;
      std::vector<SqlValue> values;
      values.reserve(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) values.push_back(ReadColumn(stmt, c));
      rows->emplace_back(std::move(values));
    }
  }

  sqlite3* db_;
  std::unordered_map<std::string, Prepared> statements_;
};

Result<std::unique_ptr<SqliteConnection>> Connect(const std::string& path) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  auto connection = std::make_unique<SqliteConnection>(db);
  if (rc != SQLITE_OK) {
    return Error(ErrorCode::kStorageUnavailable, "The database could not be opened.")
        .WithInternal("sqlite open " + path + ": " + sqlite3_errstr(rc));
  }
  // Extended codes tell a unique-key clash (SQLITE_CONSTRAINT_UNIQUE) from other failures.
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // NORMAL is durable in WAL mode against process crashes (kill -9); a power cut may lose
  // the last transactions, which is the documented SQLite trade-off. Incremental auto-vacuum
  // (which takes effect only in a new database) lets the event sealing give back the pages
  // its inbox rows leave (docs/storage.md). Reads through a memory map (up to 2 GiB of the
  // file, the most Debian's SQLite maps) skip the kernel's copy of each page: queries read
  // hundreds of megabytes of blocks.
  auto pragmas = connection->ExecuteScript(
      "PRAGMA auto_vacuum=INCREMENTAL; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
      "PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY; PRAGMA mmap_size=2147418112;");
  if (!pragmas) return pragmas.error();
  return connection;
}

class SqliteDatabase final : public SqlDatabase {
 public:
  explicit SqliteDatabase(std::vector<std::unique_ptr<SqliteConnection>> pool)
      : pool_(std::move(pool)) {
    for (auto& connection : pool_) idle_.push_back(connection.get());
  }

  Dialect dialect() const override { return Dialect::kSqlite; }
  std::string_view backend_name() const override { return "sqlite"; }

  Result<void> Transact(TxMode mode,
                        const std::function<Result<void>(SqlSession&)>& body) override {
    SqliteConnection* connection = Acquire();
    struct Release {
      SqliteDatabase* self;
      SqliteConnection* c;
      ~Release() { self->Return(c); }
    } release{this, connection};

    if (mode == TxMode::kAutocommit) return body(*connection);
    // BEGIN/COMMIT/ROLLBACK go through the statement cache like any query: no re-parsing.
    auto begun = connection->Execute(mode == TxMode::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
    if (!begun) return begun.error();
    Result<void> outcome = Error::Internal("transaction body threw");
    try {
      outcome = body(*connection);
    } catch (...) {
      connection->Execute("ROLLBACK");
      throw;
    }
    if (!outcome) {
      connection->Execute("ROLLBACK");
      return outcome;
    }
    auto committed = connection->Execute("COMMIT");
    if (!committed) {
      connection->Execute("ROLLBACK");
      return committed.error();
    }
    return {};
  }

 private:
  SqliteConnection* Acquire() {
    std::unique_lock lock(mutex_);
    available_.wait(lock, [&] { return !idle_.empty(); });
    SqliteConnection* connection = idle_.back();
    idle_.pop_back();
    return connection;
  }

  void Return(SqliteConnection* connection) {
    {
      std::lock_guard lock(mutex_);
      idle_.push_back(connection);
    }
    available_.notify_one();
  }

  std::vector<std::unique_ptr<SqliteConnection>> pool_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<SqliteConnection*> idle_;
};

}  // namespace

Result<std::unique_ptr<SqlDatabase>> OpenSqliteDatabase(const std::string& path, int pool_size) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::vector<std::unique_ptr<SqliteConnection>> pool;
  for (int i = 0; i < std::max(1, pool_size); ++i) {
    auto connection = Connect(path);
    if (!connection) return connection.error();
    pool.push_back(std::move(*connection));
  }
  return std::unique_ptr<SqlDatabase>(new SqliteDatabase(std::move(pool)));
}

}  // namespace sightline::storage
