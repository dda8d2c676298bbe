// Marking the UTC hours whose report rollups an insert changes: the events area calls these
// after inserting rows, the reports area reads and clears the marks (both in
// storage/report_repository_rollups.cpp, with the visit starts they keep). Internal to storage/.
#pragma once

#include "core/result.h"
#include "storage/event_records.h"

#include <span>

namespace sightline::storage {
class SqlSession;
}

namespace sightline::storage::internal {

// Marks the hours of the human events' visits (a visit's start hour) and of events without one.
core::Result<void> MarkEventsForRollup(SqlSession& session, std::span<const EventRecord> events);
core::Result<void> MarkBotRequestsForRollup(SqlSession& session,
                                            std::span<const BotRequestRecord> rows);

}  // namespace sightline::storage::internal
