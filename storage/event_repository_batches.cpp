// The batches of inbox rows sealed into ClickHouse (docs/clickhouse.md, "Writes"): pending when
// recorded, committed with the rows' removal from the inbox, abandoned when their sealer failed,
// forgotten once their rows are deleted from ClickHouse.
#include "storage/event_repository.h"
#include "storage/rollup_marks.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kBatchColumns =
    "id, project_id, row_kind, row_count, state, created_at, committed_at";

constexpr std::string_view StateName(SealBatchState state) {
  switch (state) {
    case SealBatchState::kPending: return "pending";
    case SealBatchState::kCommitted: return "committed";
    case SealBatchState::kAbandoned: return "abandoned";
  }
  return "pending";
}

SealBatchState StateOf(std::string_view name) {
  if (name == "committed") return SealBatchState::kCommitted;
  if (name == "abandoned") return SealBatchState::kAbandoned;
  return SealBatchState::kPending;
}

SealBatchRecord MapBatch(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Int(3), StateOf(r.Text(4)), r.Int(5), r.OptInt(6)};
}

}  // namespace

Result<void> EventRepository::InsertSealBatch(const SealBatchRecord& b) {
  static const std::string sql = InsertStatement("seal_batches", kBatchColumns);
  return ExecuteVoid(session_, sql,
                     {b.id, b.project_id, b.row_kind, b.row_count, std::string(StateName(b.state)),
                      b.created_at, Nullable(b.committed_at)});
}

Result<bool> EventRepository::CommitSealBatch(std::string_view id, std::int64_t now) {
  return ExecuteChanged(session_,
                        "UPDATE seal_batches SET state = 'committed', committed_at = $2 "
                        "WHERE id = $1 AND state = 'pending'",
                        {std::string(id), now});
}

Result<std::vector<std::string>> EventRepository::ListUncommittedSealBatches(
    std::string_view project_id) {
  return FindAll<std::string>(
      session_,
      "SELECT id FROM seal_batches WHERE state IN ('pending', 'abandoned') AND project_id = $1 "
      "ORDER BY id",
      {std::string(project_id)}, [](const SqlRow& r) { return r.Text(0); });
}

Result<std::size_t> EventRepository::AbandonSealBatches(std::int64_t created_before) {
  auto changed = session_.Execute(
      "UPDATE seal_batches SET state = 'abandoned' WHERE state = 'pending' AND created_at < $1",
      {created_before});
  if (!changed) return changed.error();
  return static_cast<std::size_t>(*changed);
}

Result<std::vector<SealBatchRecord>> EventRepository::ListAbandonedSealBatches(std::size_t limit) {
  static const std::string sql = Select(
      kBatchColumns,
      "FROM seal_batches WHERE state = 'abandoned' ORDER BY created_at, id LIMIT $1");
  return FindAll<SealBatchRecord>(session_, sql, {static_cast<std::int64_t>(limit)}, MapBatch);
}

Result<std::size_t> EventRepository::ForgetSealBatches(std::span<const std::string> ids) {
  std::size_t forgotten = 0;
  auto done = InChunks(ids, [&](const std::vector<std::string>& chunk) -> Result<void> {
    SqlBuilder sql;
    sql.text = "DELETE FROM seal_batches WHERE state = 'abandoned' AND " + sql.In("id", chunk);
    auto changed = session_.Execute(sql.text, sql.params);
    if (!changed) return changed.error();
    forgotten += static_cast<std::size_t>(*changed);
    return {};
  });
  if (!done) return done.error();
  return forgotten;
}

Result<std::optional<SealBatchRecord>> EventRepository::FindSealBatch(std::string_view id) {
  static const std::string sql = Select(kBatchColumns, "FROM seal_batches WHERE id = $1");
  return FindOne<SealBatchRecord>(session_, sql, {std::string(id)}, MapBatch);
}

}  // namespace sightline::storage
