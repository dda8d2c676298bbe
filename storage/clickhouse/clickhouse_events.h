// Tracked events and crawler requests to and from ClickHouse's `events` and `bot_requests`
// tables (clickhouse_schema.cpp), losslessly: every field of EventRecord and BotRequestRecord
// comes back as it was written. The sealing job writes a batch of a
// project's inbox events under one batch id; readers ask for the events of the visits that
// started in a range of UTC hours and leave out the batches that did not commit on the
// transactional store (docs/clickhouse.md, "Writes").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/clickhouse/clickhouse_client.h"
#include "storage/event_records.h"

namespace sightline::storage::clickhouse {

// One event with the UTC hour (since 1970) its visit started, which orders and selects it.
struct SealedEvent {
  EventRecord event;
  std::int64_t visit_hour = 0;
};

// Inserts the events as one batch: through the Distributed table with a cluster, acknowledged
// once every shard stored its rows.
core::Result<void> InsertEvents(const Client& client, std::span<const SealedEvent> events,
                                std::string_view batch);

// The project's events whose visits started in UTC hours `from_hour` to `to_hour` (both
// included), except those of `excluded_batches` (pending or abandoned), ordered by visit hour,
// time and id.
core::Result<std::vector<SealedEvent>> ReadEvents(const Client& client, std::string_view project_id,
                                                  std::int64_t from_hour, std::int64_t to_hour,
                                                  std::span<const std::string> excluded_batches);

// Inserts the crawler requests as one batch, as InsertEvents.
core::Result<void> InsertBotRequests(const Client& client,
                                     std::span<const BotRequestRecord> requests,
                                     std::string_view batch);

// The project's crawler requests with `from_ms` <= occurred_at < `to_ms`, except those of
// `excluded_batches`, ordered by time and id.
core::Result<std::vector<BotRequestRecord>> ReadBotRequests(
    const Client& client, std::string_view project_id, std::int64_t from_ms, std::int64_t to_ms,
    std::span<const std::string> excluded_batches);

// The table columns the writers and readers name, in their order (without `visit_hour` and
// `seal_batch`); a test holds them to the schema's.
std::vector<std::string_view> EventColumnNames();
std::vector<std::string_view> BotRequestColumnNames();

}  // namespace sightline::storage::clickhouse
