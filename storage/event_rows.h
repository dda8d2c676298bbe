// How the events area reads and writes tracked-event rows of the inbox table `events` (an
// internal header of this folder: the repository files and the sealing share it).
#pragma once

#include "storage/blocks/column_block.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/event_records.h"
#include "storage/report_records.h"
#include "storage/sql.h"

namespace sightline::storage::internal {

inline constexpr std::string_view kEventColumns =
    "id, project_id, occurred_at, received_at, event, channel, user_id, anonymous_id, "
    "session_id, icon, description, notify, tags, ip, user_agent, browser, browser_version, os, "
    "os_version, device, brand, model, device_confidence, signal_source, in_app, country, "
    "region, city, path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, "
    "is_bot, actor_type, bot_name, bot_vendor, actor_category, actor_verified, "
    "verification_method, actor_confidence, is_ai, traffic_source, traffic_channel, daily_visitor";


// An event's values in kEventColumns order.
std::vector<SqlValue> EventParams(const EventRecord& event);
// The event whose kEventColumns are the row's columns.
EventRecord MapEvent(const SqlRow& row);

// The stored blocks of the project's UTC hours (since 1970) `from_hour` to `to_hour`, both
// included, in hour order; with `columns`, only those of their columns (storage/block_reads.h).
core::Result<std::vector<std::string>> ReadBlocksOfHours(
    SqlSession& session, const std::string& project_id, std::int64_t from_hour,
    std::int64_t to_hour, const std::vector<blocks::ColumnId>* columns = nullptr);
// The events that count for web analytics (DecodeWebEvents) of the project's blocks of UTC hours
// (since 1970) `from_hour` to `to_hour`, both included: those of the visits that started in
// those hours, and those outside every visit that happened in them
// (storage/event_repository_blocks.cpp).
core::Result<std::vector<RollupEvent>> ReadSealedWebEvents(SqlSession& session,
                                                           const std::string& project_id,
                                                           std::int64_t from_hour,
                                                           std::int64_t to_hour, bool with_tags);
// The sealed events the feed query selects, newest first, at most its limit.
core::Result<std::vector<EventRecord>> ListSealedEvents(SqlSession& session,
                                                        const EventQuery& query);

}  // namespace sightline::storage::internal
