// Removing rows from the event tables on every shard: a project's rows when it is deleted, its
// rows older than its retention, and the rows of sealing batches that never committed
// (docs/clickhouse.md, "Deletes"). ClickHouse 18.16 has neither `DELETE FROM` nor table `TTL`,
// so each is a mutation (`ALTER TABLE … DELETE`) on each shard's own table — a Distributed table
// takes none — and ClickHouse applies mutations in the background: each call waits until every
// shard reports its mutations done, so a success means the rows are gone.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/result.h"
#include "storage/clickhouse/clickhouse_client.h"

namespace sightline::storage::clickhouse {

// How long a call waits for the shards to apply its mutations; past it, SYS_003 (the mutations
// go on, and a call made again waits for them too).
inline constexpr std::chrono::milliseconds kMutationWait = std::chrono::seconds(120);

// Every event and crawler request of the project.
core::Result<void> DeleteProjectRows(const Client& client, std::string_view project_id,
                                     std::chrono::milliseconds wait = kMutationWait);

// The project's events and crawler requests that happened before `before_ms`.
core::Result<void> DeleteRowsBefore(const Client& client, std::string_view project_id,
                                    std::int64_t before_ms,
                                    std::chrono::milliseconds wait = kMutationWait);

// Every row of the sealing batches given (nothing for none).
core::Result<void> DeleteBatches(const Client& client, std::span<const std::string> batches,
                                 std::chrono::milliseconds wait = kMutationWait);

}  // namespace sightline::storage::clickhouse
