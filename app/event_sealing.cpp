#include "app/event_sealing.h"

#include <string>

#include "core/logging.h"
#include "storage/event_repository.h"

namespace sightline::app {
namespace {

// Free pages given back per transaction: about 16 MB at SQLite's default page size.
constexpr int kFreePagesPerStep = 4096;

}  // namespace

// In steps, each its own transaction: a backlog sealed at once frees gigabytes, which one
// `incremental_vacuum` gave back in one transaction of many minutes, holding the write lock
// against ingestion and keeping a stopping server from exiting.
void GiveBackFreePages(storage::Store& store, const std::atomic<bool>& stopping) {
  if (store.database().dialect() != storage::Dialect::kSqlite) return;
  const std::string step = "PRAGMA incremental_vacuum(" + std::to_string(kFreePagesPerStep) + ")";
  std::int64_t before = -1;
  while (!stopping) {
    std::int64_t left = 0;
    auto stepped = store.database().Transact(
        storage::TxMode::kAutocommit, [&](storage::SqlSession& session) -> core::Result<void> {
          if (auto done = session.ExecuteScript(step); !done) return done.error();
          auto count = session.Query("PRAGMA freelist_count");
          if (!count) return count.error();
          left = count->empty() ? 0 : count->front().Int(0);
          return {};
        });
    if (!stepped) {
      core::Log(core::LogLevel::kWarn, "free pages not given back",
                {{"reason", stepped.error().internal()}});
      return;
    }
    // Done, or a store without incremental auto-vacuum, where the step frees nothing.
    if (left == 0 || left == before) return;
    before = left;
  }
}

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
    GiveBackFreePages(store, stopping);
  }
  return sealed;
}

}  // namespace sightline::app
