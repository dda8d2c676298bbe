// Crawler analytics: ranked lists (bots, countries, categories, paths) and per-vendor series
// over the selected period, each with its comparison window's figures for the same rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "reports/calendar.h"
#include "reports/comparison.h"
#include "reports/report_windows.h"
#include "storage/report_records.h"
#include "storage/store.h"

namespace sightline::reports {

struct BotFilters {
  std::optional<std::string> actor_type, vendor, bot_name, search;
  std::optional<bool> is_ai;
};

struct RankedRow {
  storage::BotGroupRow current;
  // The same key over the comparison window: zero requests and bots when unseen there; nullopt
  // when the report has no comparison.
  std::optional<storage::BotGroupRow> previous;
};

struct RankedReport {
  std::vector<RankedRow> rows;  // by requests, then key; one page
  storage::BotGroupTotals totals;
  // The comparison window's requests (`groups` is not counted there: 0).
  std::optional<storage::BotGroupTotals> previous_totals;
};

// One page (`limit`, `offset`) of groups ranked by requests in the selection, then by key.
core::Result<RankedReport> RankBotRequests(storage::Store& store, const std::string& project_id,
                                           storage::BotGrouping grouping,
                                           const BotFilters& filters,
                                           const ReportWindows& windows, std::int64_t limit,
                                           std::int64_t offset);

struct TimelineReport {
  std::vector<UtcWindow> buckets;
  std::vector<Series> series;  // vendors by requests in the selection, then name; at most `limit`
  std::vector<std::int64_t> totals;  // every vendor's requests per bucket (the series and the rest)
  std::vector<UtcWindow> comparison_buckets;
  std::vector<Series> comparison_series;  // the same vendors over the comparison window
  std::vector<std::int64_t> comparison_totals;
};

// Per-vendor request counts per bucket of `interval`; VAL_003 when the series would have more
// than kMaxBuckets buckets.
core::Result<TimelineReport> BotTimeline(storage::Store& store, const std::string& project_id,
                                         const ReportingZone& zone, const ReportWindows& windows,
                                         Interval interval, const BotFilters& filters,
                                         std::size_t limit);

}  // namespace sightline::reports
