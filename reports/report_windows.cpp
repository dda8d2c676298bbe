#include "reports/report_windows.h"

#include <algorithm>

namespace sightline::reports {

using core::Error;
using core::Result;

ReportWindows ToWindows(const ReportingZone& zone, const Period& period) {
  ReportWindows windows{period.selection, zone.Window(period.selection), period.comparison,
                        std::nullopt, zone.name()};
  if (period.comparison) windows.comparison = zone.Window(*period.comparison);
  return windows;
}

std::optional<std::size_t> BucketOf(const std::vector<UtcWindow>& buckets, std::int64_t at) {
  const auto bucket = std::ranges::upper_bound(buckets, at, {}, &UtcWindow::end_ms);
  if (bucket == buckets.end() || bucket->start_ms > at) return std::nullopt;
  return static_cast<std::size_t>(bucket - buckets.begin());
}

Result<std::vector<std::vector<UtcWindow>>> BucketsFor(const ReportingZone& zone,
                                                       const ReportWindows& windows,
                                                       Interval interval) {
  std::vector<std::vector<UtcWindow>> all{zone.Buckets(windows.selection_days, interval)};
  if (windows.comparison_days) all.push_back(zone.Buckets(*windows.comparison_days, interval));
  for (const auto& buckets : all) {
    if (buckets.size() > kMaxBuckets) {
      return Error::Invalid("interval", "The series would have more than " +
                                            std::to_string(kMaxBuckets) +
                                            " points: choose a coarser interval or a shorter "
                                            "period.");
    }
  }
  return all;
}

}  // namespace sightline::reports
