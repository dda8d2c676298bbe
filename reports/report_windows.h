// What every report shares: the selected period and its comparison as UTC windows, the
// series shape, and the bucket limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "reports/calendar.h"
#include "reports/comparison.h"
#include "storage/report_records.h"

namespace sightline::reports {

// The selected period and its comparison in UTC, for one project's reporting zone.
// Whether a report rolls up the changed days it reads before reading (exact to the last row:
// the default), or leaves that to the server's background refresher (the report then lags new
// rows of a day it read before by up to the refresher's interval, and never waits for a busy
// day to be rolled up again).
enum class ChangedDays { kRollUpFirst, kLeaveToBackground };

struct ReportWindows {
  DayRange selection_days;
  UtcWindow selection;
  std::optional<DayRange> comparison_days;
  std::optional<UtcWindow> comparison;
  std::string zone;  // the reporting zone's name: rollups are kept per zone
  ChangedDays changed_days = ChangedDays::kRollUpFirst;
  // Web reports only: keep the visits with this value (reports/filtered_web_reports.h).
  std::optional<storage::WebFilter> filter;
};
ReportWindows ToWindows(const ReportingZone& zone, const Period& period);

// One named series of counts, one value per bucket.
struct Series {
  std::string key;  // the vendor, page, country, …; "" for rows without one
  std::int64_t total = 0;
  std::vector<std::int64_t> values;
};

// The most buckets one series may have (an hourly series covers at most 208 days).
inline constexpr std::size_t kMaxBuckets = 5000;

// The index of the bucket (of consecutive windows) holding `at`, or nullopt.
std::optional<std::size_t> BucketOf(const std::vector<UtcWindow>& buckets, std::int64_t at);

// The buckets of the selection and of the comparison window (when there is one) at
// `interval`; VAL_003 when either would exceed kMaxBuckets.
core::Result<std::vector<std::vector<UtcWindow>>> BucketsFor(const ReportingZone& zone,
                                                             const ReportWindows& windows,
                                                             Interval interval);

}  // namespace sightline::reports
