// Versioned schema migrations, embedded in the binary from storage/migrations/*.sql
// (one file per backend and version: NNNN_name.sqlite.sql / NNNN_name.pg.sql).
#pragma once

#include "core/result.h"
#include "storage/sql.h"

#include <span>
#include <string_view>

namespace sightline::storage {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sqlite_sql;
  std::string_view postgres_sql;
};

// Ascending by version; generated at build time (see cmake/embed_migrations.cmake).
std::span<const Migration> AllMigrations();

core::Result<void> EnsureMigrationTable(SqlSession& session);
core::Result<int> AppliedVersion(SqlSession& session);
// Applies `migration` unless already applied; returns whether it ran. Must run in a write
// transaction; on PostgreSQL it first takes a transaction-scoped advisory lock so concurrent
// nodes apply each migration once.
core::Result<bool> ApplyIfPending(SqlSession& session, const Migration& migration);

}  // namespace sightline::storage
