// Marking the UTC hours whose report rollups an insert changes: the events area calls these
// after inserting rows, the reports area reads and clears the marks (both in
// storage/report_repository_rollups.cpp, with the visit starts they keep). Internal to storage/.
#pragma once

#include "core/result.h"
#include "storage/event_records.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace sightline::storage {
class SqlSession;
}

namespace sightline::storage::internal {

inline constexpr std::int64_t kHourMs = 3'600'000;
// Rows per `IN (…)` list of the statements that name many keys.
inline constexpr std::size_t kInListChunk = 400;

// Calls `body` with consecutive chunks of at most kInListChunk of `values`, stopping at the
// first error: one statement's parameters stay within every store's limit.
template <class Body>
core::Result<void> InChunks(std::span<const std::string> values, Body&& body) {
  for (std::size_t from = 0; from < values.size(); from += kInListChunk) {
    const std::size_t to = std::min(values.size(), from + kInListChunk);
    const std::vector<std::string> chunk(values.begin() + static_cast<std::ptrdiff_t>(from),
                                         values.begin() + static_cast<std::ptrdiff_t>(to));
    if (auto done = body(chunk); !done) return done.error();
  }
  return {};
}

// The UTC hour (hours since 1970) of a time in Unix milliseconds; rounds down before 1970 too.
inline std::int64_t HourOf(std::int64_t unix_ms) {
  return unix_ms >= 0 ? unix_ms / kHourMs : (unix_ms - kHourMs + 1) / kHourMs;
}

// Marks the hours of the human events' visits (a visit's start hour) and of events without one.
core::Result<void> MarkEventsForRollup(SqlSession& session, std::span<const EventRecord> events);
core::Result<void> MarkBotRequestsForRollup(SqlSession& session,
                                            std::span<const BotRequestRecord> rows);
// Where a visit stands: its start (its earliest human event) and the UTC hour of the block that
// holds its sealed events, if any (docs/storage.md).
struct VisitPlace {
  std::int64_t started_at = 0;
  std::optional<std::int64_t> block_hour;
};
// The visits of `sessions` the store knows (visit_starts), by session id; their block hours
// only when asked.
core::Result<std::map<std::string, VisitPlace>> ReadVisitPlaces(
    SqlSession& session, const std::string& project_id, const std::set<std::string>& sessions,
    bool with_block_hour = true);

// Marks UTC hours (hours since 1970) of a project's events as changed: the sealing marks both
// hours of a visit it moved from one block to another.
core::Result<void> MarkWebHours(SqlSession& session, const std::string& project_id,
                                const std::set<std::int64_t>& hours);

}  // namespace sightline::storage::internal
