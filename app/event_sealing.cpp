#include "app/event_sealing.h"

#include "core/logging.h"
#include "storage/event_repository.h"

namespace sightline::app {
namespace {

// SQLite keeps the pages of deleted rows for later inserts; a store created with incremental
// auto-vacuum gives them back to the file system (elsewhere the statement does nothing).
void GiveBackFreePages(storage::Store& store) {
  if (store.database().dialect() != storage::Dialect::kSqlite) return;
  auto done = store.database().Transact(storage::TxMode::kAutocommit,
                                        [](storage::SqlSession& session) {
                                          return session.ExecuteScript("PRAGMA incremental_vacuum");
                                        });
  if (!done) {
    core::Log(core::LogLevel::kWarn, "free pages not given back",
              {{"reason", done.error().internal()}});
  }
}

}  // namespace

std::size_t SealInboxEvents(storage::Store& store, const core::Clock& clock,
                            std::chrono::seconds seal_after, const std::atomic<bool>& stopping) {
  const std::int64_t before =
      clock.NowMillis() - std::chrono::duration_cast<std::chrono::milliseconds>(seal_after).count();
  auto projects = store.Read(
      [&](storage::Transaction& tx) { return tx.events().ListProjectsToSeal(before); });
  if (!projects) return 0;
  std::size_t sealed = 0;
  for (const std::string& project_id : *projects) {
    for (;;) {
      if (stopping) return sealed;
      auto batch = store.Write([&](storage::Transaction& tx) {
        return tx.events().SealEvents(project_id, before, kSealBatch, clock.NowMillis());
      });
      if (!batch) {
        core::Log(core::LogLevel::kWarn, "events not sealed",
                  {{"project", project_id}, {"reason", batch.error().internal()}});
        break;
      }
      sealed += *batch;
      if (*batch < kSealBatch) break;
    }
  }
  if (sealed > 0) {
    core::Log(core::LogLevel::kInfo, "events sealed",
              {{"events", static_cast<std::int64_t>(sealed)}});
    GiveBackFreePages(store);
  }
  return sealed;
}

}  // namespace sightline::app
