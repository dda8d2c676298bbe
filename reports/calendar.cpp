#include "reports/calendar.h"

#include <date/date.h>
#include <date/tz.h>

#include <charconv>
#include <cstdio>

#include "core/timezone.h"

namespace sightline::reports {
namespace {

using core::Error;
using core::Result;
using std::chrono::milliseconds;

date::sys_days SysDays(LocalDay day) { return date::sys_days{date::days{day}}; }
LocalDay FromYmd(const date::year_month_day& ymd) {
  return static_cast<LocalDay>(date::sys_days{ymd}.time_since_epoch().count());
}
date::year_month_day Ymd(LocalDay day) { return date::year_month_day{SysDays(day)}; }

bool ParseNumber(std::string_view text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

std::int64_t ToMs(date::sys_time<std::chrono::seconds> time) {
  return std::chrono::duration_cast<milliseconds>(time.time_since_epoch()).count();
}

}  // namespace

Result<LocalDay> ParseDate(std::string_view text, std::string_view field) {
  int year = 0, month = 0, day = 0;
  const bool shaped = text.size() == 10 && text[4] == '-' && text[7] == '-' &&
                      ParseNumber(text.substr(0, 4), year) &&
                      ParseNumber(text.substr(5, 2), month) && ParseNumber(text.substr(8, 2), day);
  const date::year_month_day ymd{date::year{year}, date::month{static_cast<unsigned>(month)},
                                 date::day{static_cast<unsigned>(day)}};
  if (!shaped || !ymd.ok() || year < 1970) {
    return Error::Invalid(std::string(field), "'" + std::string(field) +
                                                  "' must be a date written YYYY-MM-DD.");
  }
  return FromYmd(ymd);
}

std::string FormatDate(LocalDay day) {
  const date::year_month_day ymd = Ymd(day);
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buffer;
}

LocalDay AddMonths(LocalDay day, int months) {
  const date::year_month_day ymd = Ymd(day);
  const date::year_month shifted = date::year_month{ymd.year(), ymd.month()} + date::months{months};
  const date::year_month_day_last last{shifted.year(), date::month_day_last{shifted.month()}};
  const date::day clamped = std::min(ymd.day(), last.day());
  return FromYmd(date::year_month_day{shifted.year(), shifted.month(), clamped});
}

bool IsFirstOfMonth(LocalDay day) { return Ymd(day).day() == date::day{1}; }
bool IsLastOfMonth(LocalDay day) { return LastOfMonth(day) == day; }

LocalDay LastOfMonth(LocalDay day) {
  const date::year_month_day ymd = Ymd(day);
  return FromYmd(date::year_month_day{date::year_month_day_last{
      ymd.year(), date::month_day_last{ymd.month()}}});
}

Result<Interval> ParseInterval(std::string_view text) {
  if (text == "hour") return Interval::kHour;
  if (text == "day") return Interval::kDay;
  if (text == "week") return Interval::kWeek;
  if (text == "month") return Interval::kMonth;
  return Error::Invalid("interval", "'interval' must be one of hour, day, week, month.");
}

Result<ReportingZone> ReportingZone::Find(std::string_view name) {
  // The name check first: it refuses paths and names outside the database without touching it.
  if (core::IsKnownTimeZone(name)) {
    try {
      return ReportingZone(date::locate_zone(name), std::string(name));
    } catch (const std::exception&) {
      // Present as a file but not in the database's index: treated as unknown.
    }
  }
  return Error::Invalid("reportingTimezone",
                        "Unknown time zone '" + std::string(name) + "' (use an IANA name).");
}

std::int64_t ReportingZone::StartOfDay(LocalDay day) const {
  const date::local_seconds midnight{std::chrono::duration_cast<std::chrono::seconds>(
      date::days{day})};
  const date::local_info info = zone_->get_info(midnight);
  switch (info.result) {
    case date::local_info::unique:
      return ToMs(date::sys_seconds{midnight.time_since_epoch()} - info.first.offset);
    case date::local_info::ambiguous:  // midnight happens twice: the day starts at the first
      return ToMs(date::sys_seconds{midnight.time_since_epoch()} - info.first.offset);
    case date::local_info::nonexistent:  // skipped: the day starts when the clocks jump
      return ToMs(info.second.begin);
  }
  return 0;
}

LocalDay ReportingZone::DayOf(std::int64_t unix_ms) const {
  const date::sys_time<milliseconds> instant{milliseconds{unix_ms}};
  const auto local = zone_->to_local(instant);
  return static_cast<LocalDay>(date::floor<date::days>(local).time_since_epoch().count());
}

std::string ReportingZone::FormatLocal(std::int64_t unix_ms) const {
  const date::sys_seconds instant{std::chrono::duration_cast<std::chrono::seconds>(
      milliseconds{unix_ms})};
  const date::sys_info info = zone_->get_info(instant);
  const auto local = instant + info.offset;
  const date::sys_days day = date::floor<date::days>(local);
  const date::hh_mm_ss<std::chrono::seconds> time{local - day};
  const long offset_minutes = std::chrono::duration_cast<std::chrono::minutes>(info.offset).count();
  const long magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%sT%02ld:%02ld:%02ld%c%02ld:%02ld",
                FormatDate(static_cast<LocalDay>(day.time_since_epoch().count())).c_str(),
                static_cast<long>(time.hours().count()), static_cast<long>(time.minutes().count()),
                static_cast<long>(time.seconds().count()), offset_minutes < 0 ? '-' : '+',
                magnitude / 60, magnitude % 60);
  return buffer;
}

std::vector<UtcWindow> ReportingZone::Buckets(DayRange range, Interval interval) const {
  std::vector<UtcWindow> buckets;
  const auto add_days = [&](LocalDay first, LocalDay last) {
    buckets.push_back({StartOfDay(first), StartOfDay(last + 1)});
  };
  constexpr std::int64_t kHourMs = 3'600'000;
  for (LocalDay day = range.first; day <= range.last;) {
    switch (interval) {
      case Interval::kHour: {
        const std::int64_t end = StartOfDay(day + 1);
        for (std::int64_t start = StartOfDay(day); start < end; start += kHourMs) {
          buckets.push_back({start, std::min(start + kHourMs, end)});
        }
        ++day;
        break;
      }
      case Interval::kDay:
        add_days(day, day);
        ++day;
        break;
      case Interval::kWeek: {
        const unsigned weekday = date::weekday{SysDays(day)}.iso_encoding();  // Monday = 1
        const LocalDay sunday = day + static_cast<LocalDay>(7 - weekday);
        const LocalDay last = std::min(sunday, range.last);
        add_days(day, last);
        day = last + 1;
        break;
      }
      case Interval::kMonth: {
        const LocalDay last = std::min(LastOfMonth(day), range.last);
        add_days(day, last);
        day = last + 1;
        break;
      }
    }
  }
  return buckets;
}

}  // namespace sightline::reports
