#include "reports/web_reports.h"

#include <algorithm>
#include <map>

#include "core/distinct_sketch.h"
#include "reports/filtered_web_reports.h"
#include "reports/rollups.h"
#include "storage/report_repository.h"

namespace sightline::reports {
namespace {

using core::Error;
using core::Result;
using storage::RollupSpan;
using storage::WebDimension;
using storage::WebRollupQuery;
using storage::WebRollupRow;

// Rows of one bucket (or one value) added up; visitors merged, not added.
struct Tally {
  std::int64_t events = 0, pageviews = 0, visits = 0, bounces = 0, duration_ms = 0;
  core::DistinctSketch visitors;

  Result<void> Absorb(const WebRollupRow& row) {
    events += row.events;
    pageviews += row.pageviews;
    visits += row.visits;
    bounces += row.bounces;
    duration_ms += row.duration_ms;
    const auto sketch = core::DistinctSketch::Parse(row.visitors);
    if (!sketch) return Error::Internal("a stored web rollup has an unreadable visitor sketch");
    visitors.Merge(*sketch);
    return {};
  }
};

WebBreakdownRow BreakdownRowOf(WebDimension dimension, const std::string& value,
                               const Tally& tally) {
  const std::int64_t visitors = tally.visitors.Estimate();
  return {0, value, CountsVisitors(dimension) ? visitors : tally.events, visitors,
          tally.pageviews};
}

WebRollupQuery Query(const std::string& project_id, const ReportWindows& windows,
                     UtcWindow window, RollupSpan span = RollupSpan::kDay) {
  WebRollupQuery query;
  query.range = {project_id, windows.zone, span, window.start_ms, window.end_ms};
  return query;
}

RollupSpan SpanFor(Interval interval) {
  return interval == Interval::kHour ? RollupSpan::kHour : RollupSpan::kDay;
}

// The days' rows as the fewest rolled-up periods (blocks where they are current).
Result<WebRollupQuery> QueryOf(storage::Transaction& tx, const std::string& project_id,
                               const ReportWindows& windows, DayRange days,
                               WebDimension dimension) {
  auto zone = ReportingZone::Find(windows.zone);
  if (!zone) return zone.error();
  auto range = RangeOf(tx, project_id, *zone, days);
  if (!range) return range.error();
  WebRollupQuery query;
  query.range = std::move(*range);
  query.dimension = static_cast<std::int64_t>(dimension);
  return query;
}

// Totals per bucket of the rows `query` reads, zeros where nothing happened.
Result<std::vector<WebTotalsRow>> TotalsPerBucket(storage::Transaction& tx,
                                                  const WebRollupQuery& query,
                                                  const std::vector<UtcWindow>& buckets) {
  auto rows = tx.reports().WebRollupRows(query);
  if (!rows) return rows.error();
  std::vector<Tally> tallies(buckets.size());
  for (const WebRollupRow& row : *rows) {
    const auto bucket = BucketOf(buckets, row.period_start);
    if (!bucket) continue;
    auto absorbed = tallies[*bucket].Absorb(row);
    if (!absorbed) return absorbed.error();
  }
  std::vector<WebTotalsRow> points;
  points.reserve(buckets.size());
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const Tally& t = tallies[i];
    points.push_back({static_cast<std::int64_t>(i), t.visitors.Estimate(), t.visits,
                      t.pageviews, t.bounces, t.duration_ms, t.events});
  }
  return points;
}

// Rolls up what the windows need, then runs `body` over a read transaction.
template <class Body>
auto ReadRollups(storage::Store& store, const std::string& project_id,
                 const ReportWindows& windows, Body body) -> decltype(store.Read(body)) {
  auto refreshed = RefreshForReport(store, project_id, windows);
  if (!refreshed) return refreshed.error();
  return store.Read(body);
}

// A dimension's values over `days` with their figures, keyed by value (only `values` when
// given).
Result<std::map<std::string, Tally>> TallyValues(storage::Transaction& tx,
                                                 const std::string& project_id,
                                                 const ReportWindows& windows, DayRange days,
                                                 WebDimension dimension,
                                                 std::optional<std::vector<std::string>> values) {
  auto query = QueryOf(tx, project_id, windows, days, dimension);
  if (!query) return query.error();
  query->values = std::move(values);
  auto rows = tx.reports().WebRollupRows(*query);
  if (!rows) return rows.error();
  std::map<std::string, Tally> tallies;
  for (const WebRollupRow& row : *rows) {
    auto absorbed = tallies[row.value].Absorb(row);
    if (!absorbed) return absorbed.error();
  }
  return tallies;
}

// One page of a dimension's values with their comparison figures, and the number of values in
// the whole ranking.
Result<Breakdown> Rank(storage::Transaction& tx, const std::string& project_id,
                       WebDimension dimension, const ReportWindows& windows, std::int64_t limit,
                       std::int64_t offset) {
  Breakdown breakdown;
  std::vector<std::string> keys;
  if (CountsVisitors(dimension)) {
    // Visitors do not add up across days: every value's days are merged, then ranked.
    auto tallies =
        TallyValues(tx, project_id, windows, windows.selection_days, dimension, {});
    if (!tallies) return tallies.error();
    std::vector<WebBreakdownRow> all;
    for (const auto& [value, tally] : *tallies) {
      all.push_back(BreakdownRowOf(dimension, value, tally));
    }
    std::ranges::sort(all, [](const WebBreakdownRow& a, const WebBreakdownRow& b) {
      return a.count != b.count ? a.count > b.count : a.key < b.key;
    });
    breakdown.total = static_cast<std::int64_t>(all.size());
    const auto first = std::min<std::size_t>(static_cast<std::size_t>(offset), all.size());
    const auto last = std::min<std::size_t>(first + static_cast<std::size_t>(limit), all.size());
    for (std::size_t i = first; i < last; ++i) {
      keys.push_back(all[i].key);
      breakdown.rows.push_back({std::move(all[i]), std::nullopt});
    }
  } else {
    auto query = QueryOf(tx, project_id, windows, windows.selection_days, dimension);
    if (!query) return query.error();
    auto ranking = tx.reports().RankWebValues(*query, limit, offset);
    if (!ranking) return ranking.error();
    breakdown.total = ranking->values;
    for (const storage::WebValueCount& value : ranking->page) keys.push_back(value.value);
    auto tallies =
        TallyValues(tx, project_id, windows, windows.selection_days, dimension, keys);
    if (!tallies) return tallies.error();
    for (const std::string& key : keys) {
      breakdown.rows.push_back({BreakdownRowOf(dimension, key, (*tallies)[key]), std::nullopt});
    }
  }
  if (!windows.comparison) return breakdown;
  auto previous =
      TallyValues(tx, project_id, windows, *windows.comparison_days, dimension, keys);
  if (!previous) return previous.error();
  for (BreakdownRow& row : breakdown.rows) {
    row.previous = BreakdownRowOf(dimension, row.current.key, (*previous)[row.current.key]);
  }
  return breakdown;
}

// Counts per (bucket, value) as series, one per value in `keys` order; each series' total is
// the value's count over the whole window (visitors do not add up across buckets).
Result<std::vector<Series>> SeriesPerValue(const std::vector<WebRollupRow>& rows,
                                           WebDimension dimension,
                                           const std::vector<UtcWindow>& buckets,
                                           const std::vector<std::string>& keys) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < keys.size(); ++i) index.emplace(keys[i], i);
  std::vector<std::vector<Tally>> tallies(keys.size(), std::vector<Tally>(buckets.size()));
  std::vector<Tally> totals(keys.size());
  for (const WebRollupRow& row : rows) {
    const auto value = index.find(row.value);
    const auto bucket = BucketOf(buckets, row.period_start);
    if (value == index.end() || !bucket) continue;
    for (Tally* tally : {&tallies[value->second][*bucket], &totals[value->second]}) {
      auto absorbed = tally->Absorb(row);
      if (!absorbed) return absorbed.error();
    }
  }
  std::vector<Series> series;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    Series one{keys[i], BreakdownRowOf(dimension, keys[i], totals[i]).count, {}};
    for (const Tally& tally : tallies[i]) {
      one.values.push_back(BreakdownRowOf(dimension, keys[i], tally).count);
    }
    series.push_back(std::move(one));
  }
  return series;
}

// A dimension's rows for `keys` over `range`: the stored daily rows, or for an hourly series
// the hours rolled up on the spot from the raw events (hours are stored for totals only).
Result<std::vector<WebRollupRow>> ValueRows(storage::Transaction& tx,
                                            const std::string& project_id,
                                            const ReportingZone& zone,
                                            const ReportWindows& windows, DayRange range,
                                            WebDimension dimension, Interval interval,
                                            const std::vector<std::string>& keys) {
  if (interval != Interval::kHour) {
    WebRollupQuery query = Query(project_id, windows, zone.Window(range));
    query.dimension = static_cast<std::int64_t>(dimension);
    query.values = keys;
    return tx.reports().WebRollupRows(query);
  }
  auto domains = OwnDomains(tx, project_id);
  if (!domains) return domains.error();
  std::vector<WebRollupRow> rows;
  for (LocalDay day = range.first; day <= range.last; ++day) {
    const std::vector<UtcWindow> hours = zone.Buckets({day, day}, Interval::kHour);
    auto events =
        tx.reports().ListRollupEvents(project_id, hours.front().start_ms, hours.back().end_ms);
    if (!events) return events.error();
    for (WebRollupRow& row : RollUpWebDay(*events, hours, *domains, /*hourly_values=*/true)) {
      if (row.span == RollupSpan::kHour &&
          row.dimension == static_cast<std::int64_t>(dimension)) {
        rows.push_back(std::move(row));
      }
    }
  }
  return rows;
}

}  // namespace

bool CountsVisitors(WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage:
    case WebDimension::kEntryPage:
    case WebDimension::kExitPage:
    case WebDimension::kEventChannel:
    case WebDimension::kEvent: return false;
    default: return true;
  }
}

Result<WebSummary> SummarizeVisits(storage::Store& store, const std::string& project_id,
                                   const ReportWindows& windows) {
  return ReadRollups(store, project_id, windows,
                     [&](storage::Transaction& tx) -> Result<WebSummary> {
    if (windows.filter) return filtered::Summarize(tx, project_id, windows);
    WebSummary summary;
    const auto totals = [&](DayRange days, UtcWindow window) -> Result<WebTotalsRow> {
      auto query = QueryOf(tx, project_id, windows, days,
                           static_cast<WebDimension>(storage::kWebTotalsDimension));
      if (!query) return query.error();
      auto points = TotalsPerBucket(tx, *query, {window});
      if (!points) return points.error();
      return points->front();
    };
    auto current = totals(windows.selection_days, windows.selection);
    if (!current) return current.error();
    summary.current = *current;
    if (!windows.comparison) return summary;
    auto previous = totals(*windows.comparison_days, *windows.comparison);
    if (!previous) return previous.error();
    summary.previous = *previous;
    return summary;
  });
}

Result<WebTimeline> VisitTimeline(storage::Store& store, const std::string& project_id,
                                  const ReportingZone& zone, const ReportWindows& windows,
                                  Interval interval) {
  auto buckets = BucketsFor(zone, windows, interval);
  if (!buckets) return buckets.error();
  return ReadRollups(store, project_id, windows,
                     [&](storage::Transaction& tx) -> Result<WebTimeline> {
    if (windows.filter) return filtered::Timeline(tx, project_id, windows, std::move(*buckets));
    WebTimeline timeline;
    timeline.buckets = std::move((*buckets)[0]);
    const auto whole = [&](const std::vector<UtcWindow>& buckets) {
      return Query(project_id, windows, {buckets.front().start_ms, buckets.back().end_ms},
                   SpanFor(interval));
    };
    auto points = TotalsPerBucket(tx, whole(timeline.buckets), timeline.buckets);
    if (!points) return points.error();
    timeline.points = std::move(*points);
    if (!windows.comparison) return timeline;
    timeline.comparison_buckets = std::move((*buckets)[1]);
    auto previous =
        TotalsPerBucket(tx, whole(timeline.comparison_buckets), timeline.comparison_buckets);
    if (!previous) return previous.error();
    timeline.comparison_points = std::move(*previous);
    return timeline;
  });
}

Result<Breakdown> BreakDown(storage::Store& store, const std::string& project_id,
                            WebDimension dimension, const ReportWindows& windows,
                            std::int64_t limit, std::int64_t offset) {
  return ReadRollups(store, project_id, windows, [&](storage::Transaction& tx) {
    if (windows.filter) return filtered::Rank(tx, project_id, dimension, windows, limit, offset);
    return Rank(tx, project_id, dimension, windows, limit, offset);
  });
}

Result<std::vector<DurationRow>> PageDurations(storage::Store& store,
                                               const std::string& project_id,
                                               const ReportWindows& windows, std::int64_t limit,
                                               std::int64_t offset) {
  return ReadRollups(store, project_id, windows,
                     [&](storage::Transaction& tx) -> Result<std::vector<DurationRow>> {
    if (windows.filter) return filtered::Durations(tx, project_id, windows, limit, offset);
    auto current =
        QueryOf(tx, project_id, windows, windows.selection_days, WebDimension::kPage);
    if (!current) return current.error();
    auto page = tx.reports().PageDurations(*current, limit, offset);
    if (!page) return page.error();
    std::vector<DurationRow> rows;
    std::vector<std::string> keys;
    for (storage::PageDurationRow& row : *page) {
      keys.push_back(row.path);
      rows.push_back({std::move(row), std::nullopt});
    }
    if (!windows.comparison) return rows;
    auto previous =
        QueryOf(tx, project_id, windows, *windows.comparison_days, WebDimension::kPage);
    if (!previous) return previous.error();
    previous->values = keys;
    auto matched =
        tx.reports().PageDurations(*previous, static_cast<std::int64_t>(keys.size()) + 1, 0);
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
                                          const ReportWindows& windows, WebDimension dimension,
                                          Interval interval, std::int64_t limit,
                                          std::optional<std::string> value) {
  auto buckets = BucketsFor(zone, windows, interval);
  if (!buckets) return buckets.error();
  return ReadRollups(store, project_id, windows,
                     [&](storage::Transaction& tx) -> Result<DimensionTimeline> {
    if (windows.filter) {
      return filtered::Series(tx, project_id, windows, dimension, std::move(*buckets), limit,
                              value);
    }
    DimensionTimeline timeline;
    timeline.buckets = std::move((*buckets)[0]);
    std::vector<std::string> keys;
    if (value) {
      keys.push_back(*value);  // one value, whatever its rank (a row clicked in a breakdown)
    } else {
      auto top = Rank(tx, project_id, dimension, windows, limit, 0);
      if (!top) return top.error();
      for (const BreakdownRow& row : top->rows) keys.push_back(row.current.key);
    }
    auto rows = ValueRows(tx, project_id, zone, windows, windows.selection_days, dimension,
                          interval, keys);
    if (!rows) return rows.error();
    auto series = SeriesPerValue(*rows, dimension, timeline.buckets, keys);
    if (!series) return series.error();
    timeline.series = std::move(*series);
    if (!windows.comparison) return timeline;
    timeline.comparison_buckets = std::move((*buckets)[1]);
    auto previous_rows = ValueRows(tx, project_id, zone, windows, *windows.comparison_days,
                                   dimension, interval, keys);
    if (!previous_rows) return previous_rows.error();
    auto previous = SeriesPerValue(*previous_rows, dimension, timeline.comparison_buckets, keys);
    if (!previous) return previous.error();
    timeline.comparison_series = std::move(*previous);
    return timeline;
  });
}

}  // namespace sightline::reports
