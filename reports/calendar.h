// The report calendar: local dates and buckets in a project's reporting timezone, turned into
// exact UTC instants. Every date boundary of every report goes through here, so DST days have
// 23 or 25 hours and half- and quarter-hour offsets (Asia/Kolkata, Asia/Kathmandu) come out
// right. Backed by the system tz database (Howard Hinnant's date/tz over Debian's tzdata).
//
// Thread-safe: a ReportingZone is an immutable view of a zone the database owns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace date {
class time_zone;
}

namespace sightline::reports {

// A calendar day, counted from 1970-01-01 (day 0) on the proleptic Gregorian calendar. Which
// instants it covers depends on the zone.
using LocalDay = std::int32_t;

// "2026-03-29" → its LocalDay; VAL_003 naming `field` for anything that is not a real date.
core::Result<LocalDay> ParseDate(std::string_view text, std::string_view field);
std::string FormatDate(LocalDay day);  // "2026-03-29"

// The same day `months` months later (negative: earlier), clamped to the end of a shorter
// month: 2024-03-31 − 1 month = 2024-02-29; 2024-02-29 − 12 months = 2023-02-28.
LocalDay AddMonths(LocalDay day, int months);
bool IsFirstOfMonth(LocalDay day);
bool IsLastOfMonth(LocalDay day);
LocalDay LastOfMonth(LocalDay day);

// Inclusive range of local days.
struct DayRange {
  LocalDay first = 0;
  LocalDay last = 0;
  std::int32_t days() const { return last - first + 1; }
  friend bool operator==(const DayRange&, const DayRange&) = default;
};

// Instants in Unix milliseconds, `start` inclusive, `end` exclusive.
struct UtcWindow {
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  friend bool operator==(const UtcWindow&, const UtcWindow&) = default;
};

enum class Interval { kHour, kDay, kWeek, kMonth };
// "hour", "day", "week", "month" → Interval; VAL_003 otherwise.
core::Result<Interval> ParseInterval(std::string_view text);

class ReportingZone {
 public:
  // An IANA zone name the tz database knows ("UTC", "Europe/Berlin"); VAL_003 otherwise.
  static core::Result<ReportingZone> Find(std::string_view name);

  const std::string& name() const { return name_; }

  // The instant the local day begins: local midnight, or the first instant after it when the
  // clocks skip midnight (a DST change at 00:00).
  std::int64_t StartOfDay(LocalDay day) const;
  UtcWindow Window(DayRange range) const { return {StartOfDay(range.first), StartOfDay(range.last + 1)}; }
  // The local day an instant falls on.
  LocalDay DayOf(std::int64_t unix_ms) const;
  // "2026-03-29T03:00:00+02:00": the instant in local time with the offset then in force.
  std::string FormatLocal(std::int64_t unix_ms) const;

  // The buckets of a report series over `range`, in order, covering the window exactly:
  //  - hour: consecutive hours from each local midnight (a 23-hour DST day has 23 buckets);
  //  - day: local days;
  //  - week: ISO weeks (Monday to Sunday), the first and last clipped to the range;
  //  - month: calendar months, clipped likewise.
  std::vector<UtcWindow> Buckets(DayRange range, Interval interval) const;


 private:
  ReportingZone(const date::time_zone* zone, std::string name) : zone_(zone), name_(std::move(name)) {}
  const date::time_zone* zone_;
  std::string name_;
};

}  // namespace sightline::reports
