#include "storage/clickhouse/clickhouse_sealing.h"

#include "core/crypto.h"
#include "storage/clickhouse/clickhouse_events.h"
#include "storage/event_repository.h"

namespace sightline::storage::clickhouse {

using core::Error;
using core::ErrorCode;
using core::Result;

Result<std::size_t> SealBotRequests(Store& store, const Client& client,
                                    std::string_view project_id, std::int64_t received_before,
                                    std::size_t limit, std::int64_t now) {
  const SealBatchRecord batch{core::NewUuidV7(now), std::string(project_id), "bot_requests", 0,
                              SealBatchState::kPending, now, std::nullopt};
  // 1. The rows, and the batch recorded pending before any of them leaves.
  auto rows = store.Write([&](Transaction& tx) -> Result<std::vector<BotRequestRecord>> {
    auto found = tx.events().ListBotRequestsToSeal(project_id, received_before, limit);
    if (!found || found->empty()) return found;
    SealBatchRecord counted = batch;
    counted.row_count = static_cast<std::int64_t>(found->size());
    if (auto recorded = tx.events().InsertSealBatch(counted); !recorded) return recorded.error();
    return found;
  });
  if (!rows) return rows.error();
  if (rows->empty()) return std::size_t{0};
  // 2. Into ClickHouse, acknowledged by every shard.
  if (auto inserted = InsertBotRequests(client, *rows, batch.id); !inserted) {
    return inserted.error();
  }
  // 3. Committed, and out of the inbox, at once.
  std::vector<std::string> ids;
  ids.reserve(rows->size());
  for (const BotRequestRecord& row : *rows) ids.push_back(row.id);
  auto moved = store.Write([&](Transaction& tx) -> Result<std::size_t> {
    auto committed = tx.events().CommitSealBatch(batch.id, now);
    if (!committed) return committed.error();
    if (!*committed) {
      return Error(ErrorCode::kInternal,
                   "seal batch " + batch.id + " was abandoned before it committed");
    }
    auto deleted = tx.events().DeleteBotRequests(project_id, ids);
    if (!deleted) return deleted.error();
    if (*deleted != ids.size()) {
      // Another sealer moved some of them: roll back, so that this batch stays uncommitted.
      return Error(ErrorCode::kInternal, "crawler requests of seal batch " + batch.id +
                                             " left the inbox before it committed");
    }
    return *deleted;
  });
  return moved;
}

}  // namespace sightline::storage::clickhouse
