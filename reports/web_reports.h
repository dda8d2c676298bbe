// Web analytics: visit totals, their series, breakdowns by dimension, page durations and a
// dimension's series, each with the comparison window's figures (metrics: docs/metrics.md).
// Read from the rollups (reports/rollups.h), brought up to date first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "reports/report_windows.h"
#include "storage/report_records.h"
#include "storage/store.h"

namespace sightline::reports {

// Visit-level totals of one bucket (or of the whole window).
struct WebTotalsRow {
  std::int64_t bucket = 0;  // the bucket's index
  std::int64_t visitors = 0;
  std::int64_t visits = 0;
  std::int64_t pageviews = 0;
  std::int64_t bounces = 0;
  std::int64_t duration_ms = 0;  // sum over visits of last event − first event
  std::int64_t events = 0;
};

// One value of a dimension.
struct WebBreakdownRow {
  std::int64_t bucket = 0;
  std::string key;
  std::int64_t count = 0;  // pageviews, visits, events or visitors (see WebDimension)
  std::int64_t visitors = 0;
  std::int64_t pageviews = 0;
};

// Whether a breakdown by `dimension` counts unique visitors (pages count pageviews, entry and
// exit pages visits, event channels and event names events).
bool CountsVisitors(storage::WebDimension dimension);

struct WebSummary {
  WebTotalsRow current;
  std::optional<WebTotalsRow> previous;  // nullopt without a comparison
};
core::Result<WebSummary> SummarizeVisits(storage::Store& store, const std::string& project_id,
                                         const ReportWindows& windows);

struct WebTimeline {
  std::vector<UtcWindow> buckets;
  std::vector<WebTotalsRow> points;  // one per bucket, zeros where nothing happened
  std::vector<UtcWindow> comparison_buckets;
  std::vector<WebTotalsRow> comparison_points;
};
core::Result<WebTimeline> VisitTimeline(storage::Store& store, const std::string& project_id,
                                        const ReportingZone& zone, const ReportWindows& windows,
                                        Interval interval);

struct BreakdownRow {
  WebBreakdownRow current;
  // The same value over the comparison window (zeros when unseen); nullopt without comparison.
  std::optional<WebBreakdownRow> previous;
};
struct Breakdown {
  std::vector<BreakdownRow> rows;  // one page, by count then value
  std::int64_t total = 0;          // values in the whole ranking
};
core::Result<Breakdown> BreakDown(storage::Store& store, const std::string& project_id,
                                  storage::WebDimension dimension, const ReportWindows& windows,
                                  std::int64_t limit, std::int64_t offset);

struct DurationRow {
  storage::PageDurationRow current;
  std::optional<storage::PageDurationRow> previous;  // zeros when unseen
};
core::Result<std::vector<DurationRow>> PageDurations(storage::Store& store,
                                                     const std::string& project_id,
                                                     const ReportWindows& windows,
                                                     std::int64_t limit, std::int64_t offset);

struct DimensionTimeline {
  std::vector<UtcWindow> buckets;
  std::vector<Series> series;  // the top `limit` values of the selection, by count, or the one asked for
  std::vector<UtcWindow> comparison_buckets;
  std::vector<Series> comparison_series;  // the same values over the comparison window
};
core::Result<DimensionTimeline> DimensionSeries(storage::Store& store,
                                                const std::string& project_id,
                                                const ReportingZone& zone,
                                                const ReportWindows& windows,
                                                storage::WebDimension dimension,
                                                Interval interval, std::int64_t limit,
                                                std::optional<std::string> value = std::nullopt);

}  // namespace sightline::reports
