// Realtime web analytics: who is on the site now. The human events (outside `__analytics`) of
// the last 30 minutes, read newest first from the events feed (inbox and sealed blocks alike),
// give the visitors of the last 5 minutes, a per-minute series, and the pages and sources of
// the half hour. A visitor is known as in the rollups: the anonymous id, else the user id,
// else the daily id. Not rolled up: read when asked, bounded by kRealtimeEventCap.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "storage/event_records.h"
#include "storage/store.h"

namespace sightline::reports {

inline constexpr std::int64_t kRealtimeMinutes = 30;
inline constexpr std::int64_t kVisitorsNowMinutes = 5;
// At most this many events are read; a busier half hour is summarized from its latest ones
// (Realtime::complete false).
inline constexpr std::size_t kRealtimeEventCap = 50'000;

struct RealtimeMinute {
  std::int64_t start_ms = 0;
  std::int64_t visitors = 0, pageviews = 0;
};

struct RealtimeValue {
  std::string value;  // "" for events without one
  std::int64_t visitors = 0;
};

struct Realtime {
  std::int64_t now_ms = 0;
  std::int64_t visitors_now = 0;         // distinct visitors in the last 5 minutes
  std::int64_t visitors = 0;             // distinct visitors in the last 30 minutes
  std::int64_t pageviews = 0;            // in the last 30 minutes
  std::vector<RealtimeMinute> minutes;   // 30, oldest first; the last one is the current minute
  std::vector<RealtimeValue> pages;      // by visitors, then value; at most `top`
  std::vector<RealtimeValue> sources;    // each visit's, its first event's ("Direct" for none)
  std::size_t events_read = 0;
  bool complete = true;
};

// From events of any order (those outside the half hour, of bots or `__analytics`, left out).
// The minutes are whole UTC minutes ending with the one holding `now_ms`.
Realtime SummarizeRealtime(std::span<const storage::EventRecord> events, std::int64_t now_ms,
                           std::size_t top = 10);

// Reads the project's last half hour and summarizes it.
core::Result<Realtime> ReadRealtime(storage::Store& store, const std::string& project_id,
                                    std::int64_t now_ms, std::size_t top = 10);

}  // namespace sightline::reports
