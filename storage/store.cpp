#include "storage/store.h"

#include "storage/migrations.h"

namespace sightline::storage {

using core::Result;

Result<std::unique_ptr<Store>> OpenStore(const StoreOptions& options) {
  auto database = options.database_url.empty()
                      ? OpenSqliteDatabase(options.sqlite_path, options.pool_size)
                      : OpenPostgresDatabase(options.database_url, options.pool_size);
  if (!database) return database.error();
  return std::make_unique<Store>(std::move(*database));
}

int Store::LatestSchemaVersion() { return AllMigrations().back().version; }

Result<int> Store::SchemaVersion() {
  int version = 0;
  auto status = database_->Transact(TxMode::kWrite, [&](SqlSession& session) -> Result<void> {
    auto ready = EnsureMigrationTable(session);
    if (!ready) return ready.error();
    auto current = AppliedVersion(session);
    if (!current) return current.error();
    version = *current;
    return {};
  });
  if (!status) return status.error();
  return version;
}

Result<int> Store::Migrate() {
  int applied = 0;
  for (const Migration& migration : AllMigrations()) {
    auto status = database_->Transact(TxMode::kWrite, [&](SqlSession& session) -> Result<void> {
      auto outcome = ApplyIfPending(session, migration);
      if (!outcome) return outcome.error();
      applied += *outcome ? 1 : 0;
      return {};
    });
    if (!status) return status.error();
  }
  return applied;
}

}  // namespace sightline::storage
