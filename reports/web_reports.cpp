#include "reports/web_reports.h"

#include <map>

#include "storage/repository.h"

namespace sightline::reports {
namespace {

using core::Result;
using storage::WebReportQuery;

WebReportQuery Query(const std::string& project_id, UtcWindow window) {
  WebReportQuery query;
  query.project_id = project_id;
  query.start_ms = window.start_ms;
  query.end_ms = window.end_ms;
  return query;
}

// Totals per bucket, aligned to the buckets (zeros where the query returned nothing).
Result<std::vector<storage::WebTotalsRow>> TotalsPerBucket(storage::Repository& repo,
                                                           WebReportQuery query,
                                                           const ReportingZone& zone,
                                                           DayRange days, Interval interval) {
  const ReportingZone::SqlBuckets sql_buckets = zone.BucketsForQuery(days, interval);
  query.buckets = sql_buckets.spec;
  auto rows = repo.WebTotals(query);
  if (!rows) return rows.error();
  std::map<std::int64_t, storage::WebTotalsRow> by_key;
  for (const storage::WebTotalsRow& row : *rows) by_key.emplace(row.bucket, row);
  std::vector<storage::WebTotalsRow> points;
  for (std::int64_t key : sql_buckets.keys) {
    auto found = by_key.find(key);
    storage::WebTotalsRow point = found != by_key.end() ? found->second : storage::WebTotalsRow{};
    point.bucket = key;
    points.push_back(point);
  }
  return points;
}

// Counts per (bucket, value) folded into one series per value, in `keys` order.
Result<std::vector<Series>> SeriesPerValue(storage::Repository& repo, WebReportQuery query,
                                           const ReportingZone& zone, DayRange days,
                                           Interval interval,
                                           const std::vector<std::string>& keys) {
  const ReportingZone::SqlBuckets sql_buckets = zone.BucketsForQuery(days, interval);
  query.buckets = sql_buckets.spec;
  query.keys = keys;
  auto rows = repo.WebBreakdown(query);
  if (!rows) return rows.error();
  std::map<std::int64_t, std::size_t> bucket_index;
  for (std::size_t i = 0; i < sql_buckets.keys.size(); ++i) bucket_index[sql_buckets.keys[i]] = i;
  std::vector<Series> series;
  std::map<std::string, std::size_t> series_index;
  for (const std::string& key : keys) {
    series_index[key] = series.size();
    series.push_back({key, 0, std::vector<std::int64_t>(sql_buckets.keys.size(), 0)});
  }
  for (const storage::WebBreakdownRow& row : *rows) {
    const auto bucket = bucket_index.find(row.bucket);
    const auto value = series_index.find(row.key);
    if (bucket == bucket_index.end() || value == series_index.end()) continue;
    series[value->second].values[bucket->second] += row.count;
  }
  // A series' total is the value's count over the whole window (visitors are not additive
  // across buckets), read by the caller from the breakdown.
  return series;
}

}  // namespace

Result<WebSummary> SummarizeVisits(storage::Store& store, const std::string& project_id,
                                   const ReportWindows& windows) {
  return store.Read([&](storage::Repository& repo) -> Result<WebSummary> {
    WebSummary summary;
    auto current = repo.WebTotals(Query(project_id, windows.selection));
    if (!current) return current.error();
    if (!current->empty()) summary.current = current->front();
    if (!windows.comparison) return summary;
    auto previous = repo.WebTotals(Query(project_id, *windows.comparison));
    if (!previous) return previous.error();
    summary.previous = previous->empty() ? storage::WebTotalsRow{} : previous->front();
    return summary;
  });
}

Result<WebTimeline> VisitTimeline(storage::Store& store, const std::string& project_id,
                                  const ReportingZone& zone, const ReportWindows& windows,
                                  Interval interval) {
  auto buckets = BucketsFor(zone, windows, interval);
  if (!buckets) return buckets.error();
  return store.Read([&](storage::Repository& repo) -> Result<WebTimeline> {
    WebTimeline timeline;
    timeline.buckets = std::move((*buckets)[0]);
    auto points = TotalsPerBucket(repo, Query(project_id, windows.selection), zone,
                                  windows.selection_days, interval);
    if (!points) return points.error();
    timeline.points = std::move(*points);
    if (!windows.comparison) return timeline;
    timeline.comparison_buckets = std::move((*buckets)[1]);
    auto previous = TotalsPerBucket(repo, Query(project_id, *windows.comparison), zone,
                                    *windows.comparison_days, interval);
    if (!previous) return previous.error();
    timeline.comparison_points = std::move(*previous);
    return timeline;
  });
}

namespace {

// One page of a dimension's values with their comparison figures; the number of values in the
// whole ranking only when `with_total` (a series needs the top values, not the count).
Result<Breakdown> Rank(storage::Repository& repo, const std::string& project_id,
                       storage::WebDimension dimension, const ReportWindows& windows,
                       std::int64_t limit, std::int64_t offset, bool with_total) {
  Breakdown breakdown;
  WebReportQuery current = Query(project_id, windows.selection);
  current.dimension = dimension;
  current.limit = limit;
  current.offset = offset;
  auto page = repo.WebBreakdown(current);
  if (!page) return page.error();
  if (with_total) {
    auto total = repo.WebBreakdownTotals(current);
    if (!total) return total.error();
    breakdown.total = total->groups;
  }
  std::vector<std::string> keys;
  for (storage::WebBreakdownRow& row : *page) {
    keys.push_back(row.key);
    breakdown.rows.push_back({std::move(row), std::nullopt});
  }
  if (!windows.comparison) return breakdown;
  WebReportQuery previous = Query(project_id, *windows.comparison);
  previous.dimension = dimension;
  previous.keys = keys;
  previous.limit = static_cast<std::int64_t>(keys.size()) + 1;
  auto matched = repo.WebBreakdown(previous);
  if (!matched) return matched.error();
  std::map<std::string, storage::WebBreakdownRow> by_key;
  for (storage::WebBreakdownRow& row : *matched) by_key.emplace(row.key, std::move(row));
  for (BreakdownRow& row : breakdown.rows) {
    auto found = by_key.find(row.current.key);
    row.previous = found != by_key.end() ? found->second
                                         : storage::WebBreakdownRow{0, row.current.key};
  }
  return breakdown;
}

}  // namespace

Result<Breakdown> BreakDown(storage::Store& store, const std::string& project_id,
                            storage::WebDimension dimension, const ReportWindows& windows,
                            std::int64_t limit, std::int64_t offset) {
  return store.Read([&](storage::Repository& repo) {
    return Rank(repo, project_id, dimension, windows, limit, offset, true);
  });
}

Result<std::vector<DurationRow>> PageDurations(storage::Store& store,
                                               const std::string& project_id,
                                               const ReportWindows& windows, std::int64_t limit,
                                               std::int64_t offset) {
  return store.Read([&](storage::Repository& repo) -> Result<std::vector<DurationRow>> {
    WebReportQuery current = Query(project_id, windows.selection);
    current.limit = limit;
    current.offset = offset;
    auto page = repo.PageDurations(current);
    if (!page) return page.error();
    std::vector<DurationRow> rows;
    std::vector<std::string> keys;
    for (storage::PageDurationRow& row : *page) {
      keys.push_back(row.path);
      rows.push_back({std::move(row), std::nullopt});
    }
    if (!windows.comparison) return rows;
    WebReportQuery previous = Query(project_id, *windows.comparison);
    previous.keys = keys;
    previous.limit = static_cast<std::int64_t>(keys.size()) + 1;
    auto matched = repo.PageDurations(previous);
    if (!matched) return matched.error();
    std::map<std::string, storage::PageDurationRow> by_path;
    for (storage::PageDurationRow& row : *matched) by_path.emplace(row.path, std::move(row));
    for (DurationRow& row : rows) {
      auto found = by_path.find(row.current.path);
      row.previous = found != by_path.end() ? found->second
                                            : storage::PageDurationRow{row.current.path};
    }
    return rows;
  });
}

Result<DimensionTimeline> DimensionSeries(storage::Store& store, const std::string& project_id,
                                          const ReportingZone& zone,
                                          const ReportWindows& windows,
                                          storage::WebDimension dimension, Interval interval,
                                          std::int64_t limit) {
  auto buckets = BucketsFor(zone, windows, interval);
  if (!buckets) return buckets.error();
  return store.Read([&](storage::Repository& repo) -> Result<DimensionTimeline> {
    auto top = Rank(repo, project_id, dimension, windows, limit, 0, false);
    if (!top) return top.error();
    DimensionTimeline timeline;
    timeline.buckets = std::move((*buckets)[0]);
    std::vector<std::string> keys;
    for (const BreakdownRow& row : top->rows) keys.push_back(row.current.key);
    WebReportQuery current = Query(project_id, windows.selection);
    current.dimension = dimension;
    auto series = SeriesPerValue(repo, current, zone, windows.selection_days, interval, keys);
    if (!series) return series.error();
    timeline.series = std::move(*series);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      timeline.series[i].total = top->rows[i].current.count;
    }
    if (!windows.comparison) return timeline;
    timeline.comparison_buckets = std::move((*buckets)[1]);
    WebReportQuery previous = Query(project_id, *windows.comparison);
    previous.dimension = dimension;
    auto previous_series =
        SeriesPerValue(repo, previous, zone, *windows.comparison_days, interval, keys);
    if (!previous_series) return previous_series.error();
    timeline.comparison_series = std::move(*previous_series);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      timeline.comparison_series[i].total = top->rows[i].previous->count;
    }
    return timeline;
  });
}

}  // namespace sightline::reports
