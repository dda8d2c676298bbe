#include "storage/migrations.h"

#include "core/clock.h"

namespace sightline::storage {

using core::Result;

namespace {
// Any fixed number unique to Sightline; names the advisory lock that serializes migrations.
constexpr std::int64_t kMigrationLockKey = 0x5167'6874'6c69'6e65;
}  // namespace

Result<void> EnsureMigrationTable(SqlSession& session) {
  auto done = session.Execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
      "name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
  if (!done) return done.error();
  return {};
}

Result<int> AppliedVersion(SqlSession& session) {
  auto rows = session.Query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  if (!rows) return rows.error();
  return static_cast<int>(rows->front().Int(0));
}

Result<bool> ApplyIfPending(SqlSession& session, const Migration& migration) {
  if (session.dialect() == Dialect::kPostgres) {
    auto locked = session.Query("SELECT pg_advisory_xact_lock($1)", {kMigrationLockKey});
    if (!locked) return locked.error();
  }
  auto ready = EnsureMigrationTable(session);
  if (!ready) return ready.error();
  auto seen = session.Query("SELECT 1 FROM schema_migrations WHERE version = $1",
                            {static_cast<std::int64_t>(migration.version)});
  if (!seen) return seen.error();
  if (!seen->empty()) return false;
  const std::string_view script =
      session.dialect() == Dialect::kPostgres ? migration.postgres_sql : migration.sqlite_sql;
  auto ran = session.ExecuteScript(script);
  if (!ran) return ran.error();
  auto recorded = session.Execute(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
      {static_cast<std::int64_t>(migration.version), std::string(migration.name),
       core::SystemClock().NowMillis()});
  if (!recorded) return recorded.error();
  return true;
}

}  // namespace sightline::storage
