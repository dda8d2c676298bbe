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
  if (request.comparison) {
    period.comparison_days = resolved->comparison;
    if (period.comparison_days) period.comparison = zone.Window(*period.comparison_days);
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
    interval = days.days() <= 1 ? reports::Interval::kHour
               : days.days() <= 92 ? reports::Interval::kDay
                                   : reports::Interval::kMonth;
  }
  if (interval == reports::Interval::kHour &&
      static_cast<std::size_t>(days.days()) * 25 > reports::kMaxBuckets) {
    return Error::Invalid("dimensions", "Hours cover at most " +
                                            std::to_string(reports::kMaxBuckets / 25) + " days.");
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
