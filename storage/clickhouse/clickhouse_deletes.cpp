#include "storage/clickhouse/clickhouse_deletes.h"

#include <thread>

namespace sightline::storage::clickhouse {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

constexpr std::string_view kTables[] = {"events", "bot_requests"};
constexpr auto kPollEvery = std::chrono::milliseconds(50);

// A shard's own table: `<name>_local` in a cluster, else the table itself.
std::string LocalTable(const Client& client, std::string_view table) {
  return std::string(table) + (client.endpoint().cluster.empty() ? "" : "_local");
}

// Whether every mutation of the event tables on `node` is done.
Result<bool> MutationsDone(const Client& client, std::size_t node) {
  std::string tables;
  for (std::string_view table : kTables) {
    tables += (tables.empty() ? "" : ", ") + Quote(LocalTable(client, table));
  }
  auto pending = client.Execute(
      "SELECT count() FROM system.mutations WHERE database = currentDatabase() AND is_done = 0 "
      "AND table IN (" + tables + ")",
      {}, node);
  if (!pending) return pending.error();
  return *pending == "0\n";
}

// Runs `ALTER TABLE … DELETE WHERE condition` on both tables of every shard, then waits until
// every shard has applied them.
Result<void> Delete(const Client& client, const std::string& condition,
                    std::chrono::milliseconds wait) {
  const std::size_t nodes = client.endpoint().nodes.size();
  for (std::size_t node = 0; node < nodes; ++node) {
    for (std::string_view table : kTables) {
      auto sent = client.Execute(
          "ALTER TABLE " + LocalTable(client, table) + " DELETE WHERE " + condition, {}, node);
      if (!sent) return sent.error();
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (std::size_t node = 0; node < nodes; ++node) {
    for (;;) {
      auto done = MutationsDone(client, node);
      if (!done) return done.error();
      if (*done) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        return Error(ErrorCode::kStorageUnavailable,
                     "ClickHouse at " + client.endpoint().nodes[node] +
                         " has not finished deleting rows; it goes on in the background");
      }
      std::this_thread::sleep_for(kPollEvery);
    }
  }
  return {};
}

}  // namespace

Result<void> DeleteProjectRows(const Client& client, std::string_view project_id,
                               std::chrono::milliseconds wait) {
  return Delete(client, "project_id = " + Quote(project_id), wait);
}

Result<void> DeleteRowsBefore(const Client& client, std::string_view project_id,
                              std::int64_t before_ms, std::chrono::milliseconds wait) {
  return Delete(client,
                "project_id = " + Quote(project_id) + " AND occurred_at < " +
                    std::to_string(before_ms),
                wait);
}

Result<void> DeleteBatches(const Client& client, std::span<const std::string> batches,
                           std::chrono::milliseconds wait) {
  if (batches.empty()) return {};
  std::string list;
  for (const std::string& batch : batches) list += (list.empty() ? "" : ", ") + Quote(batch);
  return Delete(client, "seal_batch IN (" + list + ")", wait);
}

}  // namespace sightline::storage::clickhouse
