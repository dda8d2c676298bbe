// When a query looks: its `date_range` and comparison resolved in the project's reporting
// timezone into local days and exact UTC windows (reports/calendar), and the time buckets of a
// time dimension with their labels. The comparison follows the reports' rules
// (reports/comparison: the presets, the one-year reach, VAL_001).
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.h"
#include "query/query_request.h"
#include "query/web_evaluation.h"
#include "reports/calendar.h"

namespace sightline::query {

struct QueryPeriod {
  reports::DayRange days;
  reports::UtcWindow window;
  std::optional<reports::DayRange> comparison_days;
  std::optional<reports::UtcWindow> comparison;
};

// `now_ms` is the current instant (its local day is "today"; "24h" ends at it); `first_day`
// the project's first day (for "all"). Errors name `date_range` or `include.comparisons…`.
core::Result<QueryPeriod> ResolvePeriod(const QueryRequest& request,
                                        const reports::ReportingZone& zone, std::int64_t now_ms,
                                        reports::LocalDay first_day);

// The buckets of the request's time dimension over `days`, cut to `window`: `time:hour`,
// `time:day`, `time:week` (ISO, Monday first), `time:month`, or for `time` hours over one day,
// days up to 92 days, months beyond. Labels: "2026-03-29" (the bucket's first local day), or
// "2026-03-29T03:00:00+02:00" for hours. VAL_003 naming `dimensions` past kMaxBuckets.
core::Result<TimeBuckets> BucketsOf(const QueryRequest& request,
                                    const reports::ReportingZone& zone, reports::DayRange days,
                                    reports::UtcWindow window);

}  // namespace sightline::query
