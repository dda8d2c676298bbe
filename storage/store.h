// The store: a database (SQLite or PostgreSQL) plus its schema. Everything above storage/
// reaches data through Store::Read / Store::Write, which run a function over a Transaction
// (storage/transaction.h: one repository per area) inside one transaction. Thread-safe; share
// one Store per process.
#pragma once

#include "core/result.h"
#include "storage/sql.h"
#include "storage/transaction.h"

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace sightline::storage {

struct StoreOptions {
  // Exactly one of the two: a PostgreSQL connection URL, or an SQLite file path.
  std::string database_url;
  std::string sqlite_path;
  int pool_size = 8;
};

class Store {
 public:
  explicit Store(std::unique_ptr<SqlDatabase> database) : database_(std::move(database)) {}

  // Applies pending migrations in order, each in its own transaction. Safe to run from several
  // processes at once (PostgreSQL takes an advisory lock; SQLite its write lock).
  core::Result<int> Migrate();
  // The highest applied migration version, 0 for an empty database.
  core::Result<int> SchemaVersion();
  static int LatestSchemaVersion();

  std::string_view backend_name() const { return database_->backend_name(); }
  SqlDatabase& database() { return *database_; }

  // Runs `body(Transaction&) -> Result<T>` in a read transaction and returns its result.
  template <class Body>
  auto Read(Body&& body) {
    return Run(TxMode::kRead, std::forward<Body>(body));
  }
  // The same in a write transaction: all of `body`'s writes commit together or not at all.
  template <class Body>
  auto Write(Body&& body) {
    return Run(TxMode::kWrite, std::forward<Body>(body));
  }
  // For a body of one statement that is atomic by itself: no BEGIN/COMMIT around it.
  template <class Body>
  auto WriteOne(Body&& body) {
    return Run(TxMode::kAutocommit, std::forward<Body>(body));
  }
  // For a body of one SELECT, a consistent snapshot by itself: no BEGIN/COMMIT around it (on
  // SQLite, two statements and a lock cycle less on every authenticated request).
  template <class Body>
  auto ReadOne(Body&& body) {
    return Run(TxMode::kAutocommit, std::forward<Body>(body));
  }

 private:
  template <class Body>
  auto Run(TxMode mode, Body&& body) -> std::invoke_result_t<Body, Transaction&> {
    using R = std::invoke_result_t<Body, Transaction&>;
    std::optional<R> out;
    auto status = database_->Transact(mode, [&](SqlSession& session) -> core::Result<void> {
      Transaction transaction(session);
      out.emplace(body(transaction));
      if (out->has_error()) return out->error();
      return {};
    });
    if (!status) {
      if (out && out->has_error()) return std::move(*out);
      return R(boost::system::in_place_error, status.error());
    }
    return std::move(*out);
  }

  std::unique_ptr<SqlDatabase> database_;
};

// Factories; the implementations live in storage/sqlite and storage/postgres.
core::Result<std::unique_ptr<SqlDatabase>> OpenSqliteDatabase(const std::string& path,
                                                              int pool_size);
core::Result<std::unique_ptr<SqlDatabase>> OpenPostgresDatabase(const std::string& url,
                                                                int pool_size);
// Opens the configured backend (without migrating).
core::Result<std::unique_ptr<Store>> OpenStore(const StoreOptions& options);

}  // namespace sightline::storage
