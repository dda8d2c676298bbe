#include "query/query_period.h"

#include <algorithm>

#include "core/clock.h"
#include "reports/comparison.h"
#include "reports/report_windows.h"

namespace sightline::query {
namespace {

using core::Error;
using core::Result;
using reports::DayRange;
using reports::LocalDay;

LocalDay FirstOfMonth(LocalDay day) {
  while (!reports::IsFirstOfMonth(day)) --day;
  return day;
}

// A shortcut's days, ending today (docs/query.md, "Date ranges").
DayRange ShortcutDays(std::string_view shortcut, LocalDay today, LocalDay first_day) {
  if (shortcut == "day") return {today, today};
  if (shortcut == "7d") return {today - 6, today};
  if (shortcut == "28d") return {today - 27, today};
  if (shortcut == "30d") return {today - 29, today};
  if (shortcut == "91d") return {today - 90, today};
  if (shortcut == "month") return {FirstOfMonth(today), reports::LastOfMonth(today)};
  if (shortcut == "6mo") return {reports::AddMonths(FirstOfMonth(today), -5), today};
  if (shortcut == "12mo") return {reports::AddMonths(FirstOfMonth(today), -11), today};
  if (shortcut == "year") {
    const auto january = reports::ParseDate(reports::FormatDate(today).substr(0, 4) + "-01-01", "");
    return {january ? *january : FirstOfMonth(today), today};
  }
  // "all": from the project's first day, at most as far back as a report reaches.
  return {std::max(first_day, today - (reports::kMaxSelectionDays - 1)), today};
}

// How far back a preset moves an exact window: its own length (previous_period), a week, or
// the days from its first day back to the same day 1, 3 or 12 months earlier.
std::int64_t ShiftOf(std::string_view preset, reports::UtcWindow window,
                     const reports::ReportingZone& zone) {
  constexpr std::int64_t kDayMs = 86'400'000;
  if (preset == "previous_period") return window.end_ms - window.start_ms;
  if (preset == "previous_week") return 7 * kDayMs;
  const int months = preset == "previous_month" ? 1 : preset == "previous_quarter" ? 3 : 12;
  const LocalDay first = zone.DayOf(window.start_ms);
  return static_cast<std::int64_t>(first - reports::AddMonths(first, -months)) * kDayMs;
}

// The reports' errors name their own arguments; the query's name its JSON paths.
Error Renamed(Error error) {
  if (!error.details().contains("field")) return error;
  const std::string field(error.details().at("field").as_string());
  std::string path = "date_range";
  if (field == "comparePreset") path = "include.comparisons.mode";
  if (field == "compareFrom" || field == "compareTo") path = "include.comparisons.date_range";
  boost::json::object details = error.details();
  details["field"] = path;
  return Error(error.code(), error.message(), std::move(details));
}

}  // namespace

Result<QueryPeriod> ResolvePeriod(const QueryRequest& request, const reports::ReportingZone& zone,
                                  std::int64_t now_ms, LocalDay first_day) {
  const LocalDay today = zone.DayOf(now_ms);
  const DateRange& range = request.date_range;
  QueryPeriod period;
  std::optional<reports::UtcWindow> exact;
  reports::PeriodArguments args;
  if (!range.shortcut.empty() && range.shortcut != "24h") {
    const DayRange days = ShortcutDays(range.shortcut, today, first_day);
    args.from = reports::FormatDate(days.first);
    args.to = reports::FormatDate(days.last);
  } else if (range.shortcut == "24h" || range.date_times) {
    std::optional<std::int64_t> start = now_ms - 24 * 3600 * 1000, end = now_ms;
    if (range.date_times) {
      start = core::ParseRfc3339(range.from);
      end = core::ParseRfc3339(range.to);
      if (!start || !end) {
        return Error::Invalid("date_range", "Date-times are ISO 8601 with an offset: "
                                            "2026-01-01T00:00:00+01:00.");
      }
      // The end is inclusive to the second, as Plausible reads it.
      *end += *end % 1000 == 0 ? 1000 : 1;
      if (*end <= *start) return Error::Invalid("date_range", "The range ends before it starts.");
    }
    exact = reports::UtcWindow{*start, *end};
    args.from = reports::FormatDate(zone.DayOf(exact->start_ms));
    args.to = reports::FormatDate(zone.DayOf(exact->end_ms - 1));
  } else {
    args.from = range.from;
    args.to = range.to;
  }
  if (request.comparison) {
    if (request.comparison->preset == "custom") {
      args.compare_from = request.comparison->from;
      args.compare_to = request.comparison->to;
    } else {
      args.compare_preset = request.comparison->preset;
    }
  }
  auto resolved = reports::ResolvePeriod(args, today);
  if (!resolved) return Renamed(resolved.error());
  period.days = resolved->selection;
  period.window = exact.value_or(zone.Window(period.days));
  if (!request.comparison || !resolved->comparison) return period;
  if (resolved->comparison->days() > reports::kMaxSelectionDays) {
    return Error::Invalid("include.comparisons.date_range",
                          "A comparison covers at most " +
                              std::to_string(reports::kMaxSelectionDays) + " days.");
  }
  period.comparison_days = resolved->comparison;
  period.comparison = zone.Window(*period.comparison_days);
  if (exact && request.comparison->preset != "custom") {
    // An exact window is compared with the same instants shifted back, not with its days.
    const std::int64_t shift = ShiftOf(request.comparison->preset, *exact, zone);
    period.comparison = reports::UtcWindow{exact->start_ms - shift, exact->end_ms - shift};
    period.comparison_days = DayRange{zone.DayOf(period.comparison->start_ms),
                                      zone.DayOf(period.comparison->end_ms - 1)};
  }
  return period;
}

Result<TimeBuckets> BucketsOf(const QueryRequest& request, const reports::ReportingZone& zone,
                              DayRange days, reports::UtcWindow window) {
  const auto time = std::find_if(request.dimensions.begin(), request.dimensions.end(),
                                 [](const std::string& name) { return name.starts_with("time"); });
  TimeBuckets buckets;
  if (time == request.dimensions.end()) return buckets;
  reports::Interval interval = reports::Interval::kDay;
  if (*time == "time:hour") interval = reports::Interval::kHour;
  if (*time == "time:week") interval = reports::Interval::kWeek;
  if (*time == "time:month") interval = reports::Interval::kMonth;
  if (*time == "time") {
    constexpr std::int64_t kTwoDaysMs = 2 * 86'400'000;
    interval = window.end_ms - window.start_ms <= kTwoDaysMs ? reports::Interval::kHour
               : days.days() <= 92                           ? reports::Interval::kDay
                                                             : reports::Interval::kMonth;
  }
  if (interval == reports::Interval::kHour &&
      static_cast<std::size_t>(days.days()) * 25 > reports::kMaxBuckets) {
    return Error::Invalid("dimensions", "Hours cover at most " +
                                            std::to_string(reports::kMaxBuckets / 25) + " days.");
  }
  if (static_cast<std::size_t>(days.days()) > reports::kMaxBuckets) {
    return Error::Invalid("dimensions", "Time buckets cover at most " +
                                            std::to_string(reports::kMaxBuckets) + " days.");
  }
  for (const reports::UtcWindow& bucket : zone.Buckets(days, interval)) {
    const std::int64_t start = std::max(bucket.start_ms, window.start_ms);
    const std::int64_t end = std::min(bucket.end_ms, window.end_ms);
    if (start >= end) continue;
    buckets.windows.emplace_back(start, end);
    buckets.labels.push_back(interval == reports::Interval::kHour
                                 ? zone.FormatLocal(bucket.start_ms)
                                 : reports::FormatDate(zone.DayOf(bucket.start_ms)));
  }
  return buckets;
}

}  // namespace sightline::query
