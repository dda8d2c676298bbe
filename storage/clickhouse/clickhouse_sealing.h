// Moving rows from the transactional store's inbox into ClickHouse without losing or doubling
// one (docs/clickhouse.md, "Writes"): a batch is recorded pending, its rows are inserted into
// ClickHouse under its id, and one transaction commits the batch and deletes the rows from the
// inbox. A failure anywhere leaves the batch uncommitted, so readers ignore its rows in
// ClickHouse and still find them in the inbox, where the next pass takes them again.
//
// Not called by `serve` yet: the readers of crawler requests (the bot rollups, the reports)
// still read the transactional store's table alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/result.h"
#include "storage/clickhouse/clickhouse_client.h"
#include "storage/store.h"

namespace sightline::storage::clickhouse {

// Moves up to `limit` of the project's crawler requests received before `received_before` (the
// earliest first) into ClickHouse as one batch; returns how many moved (0: none waiting). `now`
// dates the batch.
core::Result<std::size_t> SealBotRequests(Store& store, const Client& client,
                                          std::string_view project_id,
                                          std::int64_t received_before, std::size_t limit,
                                          std::int64_t now);

}  // namespace sightline::storage::clickhouse
