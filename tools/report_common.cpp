#include "tools/report_common.h"

#include <cmath>

#include "core/clock.h"
#include "tools/operation_helpers.h"

namespace sightline::tools {

namespace json = boost::json;
using core::Result;
using reports::UtcWindow;

namespace {

json::object WindowJson(const UtcWindow& window) {
  return {{"from", core::FormatRfc3339(window.start_ms)},
          {"to", core::FormatRfc3339(window.end_ms)}};
}

}  // namespace

Result<ReportSetup> Setup(OperationContext& context, const json::object& args) {
  auto zone = reports::ReportingZone::Find(context.project->reporting_timezone);
  if (!zone) return zone.error();
  reports::PeriodArguments period_args{OptionalString(args, "from"), OptionalString(args, "to"),
                                       OptionalString(args, "comparePreset"),
                                       OptionalString(args, "compareFrom"),
                                       OptionalString(args, "compareTo")};
  auto period = reports::ResolvePeriod(period_args, zone->DayOf(context.clock.NowMillis()));
  if (!period) return period.error();
  reports::ReportWindows windows = reports::ToWindows(*zone, *period);
  windows.changed_days = context.services.changed_days;
  return ReportSetup{std::move(*zone), std::move(windows)};
}

json::object HeaderJson(const ReportSetup& setup) {
  json::object out;
  out["from"] = reports::FormatDate(setup.windows.selection_days.first);
  out["to"] = reports::FormatDate(setup.windows.selection_days.last);
  out["timezone"] = setup.zone.name();
  out["window"] = WindowJson(setup.windows.selection);
  if (setup.windows.comparison) {
    out["comparisonWindow"] = WindowJson(*setup.windows.comparison);
  } else {
    out["comparisonWindow"] = nullptr;
  }
  return out;
}

// `previous_name`, absoluteChange and percentageChange for one counted figure.
json::value PercentageChange(double current, double previous) {
  if (previous == 0) return nullptr;
  const double percent = 100.0 * (current - previous) / previous;
  return std::round(percent * 100.0) / 100.0;
}

void AddChange(json::object& row, std::string_view previous_name, std::int64_t current,
               std::int64_t previous) {
  row[previous_name] = previous;
  row["absoluteChange"] = current - previous;
  row["percentageChange"] =
      PercentageChange(static_cast<double>(current), static_cast<double>(previous));
}

json::value NameOrNull(const std::string& key) {
  return key.empty() ? json::value(nullptr) : json::value(key);
}

json::array BucketsJson(const reports::ReportingZone& zone,
                        const std::vector<UtcWindow>& buckets) {
  json::array out;
  for (const UtcWindow& bucket : buckets) out.push_back(json::string(zone.FormatLocal(bucket.start_ms)));
  return out;
}

json::array SeriesJson(const std::vector<reports::Series>& series, std::string_view key_name) {
  json::array out;
  for (const reports::Series& one : series) {
    json::array data;
    for (std::int64_t value : one.values) data.push_back(value);
    out.push_back(json::object{{key_name, NameOrNull(one.key)}, {"total", one.total},
                               {"data", std::move(data)}});
  }
  return out;
}

}  // namespace sightline::tools
