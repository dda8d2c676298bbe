#include "reports/filtered_web_reports.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/distinct_sketch.h"
#include "storage/report_repository.h"
#include "storage/visit_lists.h"

namespace sightline::reports::filtered {
namespace {

using core::Result;
using storage::WebDimension;
using storage::WebVisitRow;

// Hands `visit` every visit of `window` the filter keeps, with the values of `values_of`; the
// store reads a day's block at a time, so memory holds one day whatever the window.
template <class Visit>
Result<void> ForEachVisit(storage::Transaction& tx, const std::string& project_id,
                          const ReportWindows& windows, UtcWindow window,
                          std::optional<WebDimension> values_of, Visit visit) {
  const storage::WebVisitQuery query{project_id, windows.zone, window.start_ms, window.end_ms,
                                     windows.filter, values_of};
  return tx.reports().EachWebVisit(query, visit);
}

void AddVisitor(core::DistinctSketch& visitors, const WebVisitRow& visit) {
  // Events with neither an anonymous id nor a user id have no visitor to count.
  if (!visit.visitor.empty()) visitors.Add(core::StableHash64(visit.visitor));
}

// The visit totals of some visits (what the rollups' totals rows hold).
struct Figures {
  std::int64_t events = 0, pageviews = 0, visits = 0, bounces = 0, duration_ms = 0;
  core::DistinctSketch visitors;

  void Add(const WebVisitRow& visit) {
    events += visit.events;
    pageviews += visit.pageviews;
    if (visit.in_visit) {
      visits += 1;
      bounces += visit.bounce ? 1 : 0;
      duration_ms += visit.duration_ms;
    }
    AddVisitor(visitors, visit);
  }
  WebTotalsRow Totals(std::size_t bucket) const {
    return {static_cast<std::int64_t>(bucket), visitors.Estimate(), visits, pageviews, bounces,
            duration_ms, events};
  }
};

// What one value of a dimension counts over some visits (see CountsVisitors).
struct ValueFigures {
  std::int64_t count = 0;  // pageviews, visits or events
  std::int64_t pageviews = 0;
  std::int64_t timed_views = 0, view_ms = 0;  // pages only
  core::DistinctSketch visitors;

  WebBreakdownRow Row(WebDimension dimension, const std::string& value) const {
    const std::int64_t unique = visitors.Estimate();
    return {0, value, CountsVisitors(dimension) ? unique : count, unique, pageviews};
  }
};

const std::string& SingleValueOf(const WebVisitRow& visit, WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kEntryPage: return visit.entry_page;
    case WebDimension::kExitPage: return visit.exit_page;
    case WebDimension::kReferrer: return visit.referrer;
    case WebDimension::kUtmSource: return visit.utm_source;
    case WebDimension::kUtmMedium: return visit.utm_medium;
    case WebDimension::kUtmCampaign: return visit.utm_campaign;
    case WebDimension::kUtmTerm: return visit.utm_term;
    case WebDimension::kUtmContent: return visit.utm_content;
    case WebDimension::kCountry: return visit.country;
    case WebDimension::kRegion: return visit.region;
    case WebDimension::kCity: return visit.city;
    case WebDimension::kBrowser: return visit.browser;
    case WebDimension::kOs: return visit.os;
    case WebDimension::kSource: return visit.source;
    case WebDimension::kChannel: return visit.channel;
    default: return visit.device;
  }
}

// What one visit adds to one value's figures.
struct Contribution {
  std::int64_t count = 0, pageviews = 0, timed_views = 0, view_ms = 0;
};

// Calls `count(value, contribution)` for each value the visit has for `dimension`.
template <class Count>
void ForEachValue(const WebVisitRow& visit, WebDimension dimension, Count count) {
  switch (dimension) {
    case WebDimension::kPage:
      for (const storage::VisitListItem& item : storage::DecodeVisitList(visit.pages)) {
        if (item.counts.size() < 3) continue;
        count(item.value,
              Contribution{item.counts[0], item.counts[0], item.counts[1], item.counts[2]});
      }
      return;
    case WebDimension::kEvent:
    case WebDimension::kEventChannel:
      for (const storage::VisitListItem& item : storage::DecodeVisitList(
               dimension == WebDimension::kEvent ? visit.event_names : visit.channels)) {
        if (!item.counts.empty()) count(item.value, Contribution{item.counts[0]});
      }
      return;
    case WebDimension::kEntryPage:
    case WebDimension::kExitPage:
      // A visit's first and last pageviews: visits without one have neither.
      if (!visit.in_visit || visit.pageviews == 0) return;
      count(SingleValueOf(visit, dimension), Contribution{1, 1});
      return;
    default:
      count(SingleValueOf(visit, dimension), Contribution{visit.events, visit.pageviews});
  }
}

void Accumulate(ValueFigures& into, const Contribution& add, const WebVisitRow& visit) {
  into.count += add.count;
  into.pageviews += add.pageviews;
  into.timed_views += add.timed_views;
  into.view_ms += add.view_ms;
  AddVisitor(into.visitors, visit);
}

// Each value's figures over `window` (only the values of `only`, when given).
Result<std::map<std::string, ValueFigures>> TallyValues(
    storage::Transaction& tx, const std::string& project_id, const ReportWindows& windows,
    UtcWindow window, WebDimension dimension, const std::set<std::string>* only) {
  std::map<std::string, ValueFigures> tallies;
  auto read = ForEachVisit(tx, project_id, windows, window, dimension,
                           [&](const WebVisitRow& visit) {
    ForEachValue(visit, dimension, [&](const std::string& value, const Contribution& add) {
      if (only == nullptr || only->contains(value)) Accumulate(tallies[value], add, visit);
    });
  });
  if (!read) return read.error();
  return tallies;
}

Result<std::vector<WebTotalsRow>> TotalsPerBucket(storage::Transaction& tx,
                                                  const std::string& project_id,
                                                  const ReportWindows& windows,
                                                  const std::vector<UtcWindow>& buckets) {
  std::vector<Figures> figures(buckets.size());
  auto read = ForEachVisit(tx, project_id, windows,
                           {buckets.front().start_ms, buckets.back().end_ms}, std::nullopt,
                           [&](const WebVisitRow& visit) {
    if (const auto bucket = BucketOf(buckets, visit.started_at)) figures[*bucket].Add(visit);
  });
  if (!read) return read.error();
  std::vector<WebTotalsRow> points;
  for (std::size_t i = 0; i < figures.size(); ++i) points.push_back(figures[i].Totals(i));
  return points;
}

// The values in ranking order: by `rank_by`, then value.
template <class RankBy>
std::vector<std::string> Ranked(const std::map<std::string, ValueFigures>& tallies,
                                RankBy rank_by) {
  std::vector<std::pair<std::int64_t, const std::string*>> order;
  for (const auto& [value, figures] : tallies) order.emplace_back(rank_by(value, figures), &value);
  std::ranges::sort(order, [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : *a.second < *b.second;
  });
  std::vector<std::string> keys;
  for (const auto& [rank, value] : order) keys.push_back(*value);
  return keys;
}

std::vector<std::string> PageOf(std::vector<std::string> keys, std::int64_t limit,
                                std::int64_t offset) {
  const auto first = std::min(static_cast<std::size_t>(std::max<std::int64_t>(offset, 0)),
                              keys.size());
  const auto last =
      std::min(first + static_cast<std::size_t>(std::max<std::int64_t>(limit, 0)), keys.size());
  return {std::make_move_iterator(keys.begin() + static_cast<std::ptrdiff_t>(first)),
          std::make_move_iterator(keys.begin() + static_cast<std::ptrdiff_t>(last))};
}

// The selection's tallies and, with a comparison, the comparison window's for `keys`.
Result<std::map<std::string, ValueFigures>> PreviousTallies(
    storage::Transaction& tx, const std::string& project_id, const ReportWindows& windows,
    WebDimension dimension, const std::vector<std::string>& keys) {
  const std::set<std::string> only(keys.begin(), keys.end());
  return TallyValues(tx, project_id, windows, *windows.comparison, dimension, &only);
}

}  // namespace

Result<WebSummary> Summarize(storage::Transaction& tx, const std::string& project_id,
                             const ReportWindows& windows) {
  WebSummary summary;
  auto current = TotalsPerBucket(tx, project_id, windows, {windows.selection});
  if (!current) return current.error();
  summary.current = current->front();
  if (!windows.comparison) return summary;
  auto previous = TotalsPerBucket(tx, project_id, windows, {*windows.comparison});
  if (!previous) return previous.error();
  summary.previous = previous->front();
  return summary;
}

Result<WebTimeline> Timeline(storage::Transaction& tx, const std::string& project_id,
                             const ReportWindows& windows,
                             std::vector<std::vector<UtcWindow>> buckets) {
  WebTimeline timeline;
  timeline.buckets = std::move(buckets[0]);
  auto points = TotalsPerBucket(tx, project_id, windows, timeline.buckets);
  if (!points) return points.error();
  timeline.points = std::move(*points);
  if (!windows.comparison) return timeline;
  timeline.comparison_buckets = std::move(buckets[1]);
  auto previous = TotalsPerBucket(tx, project_id, windows, timeline.comparison_buckets);
  if (!previous) return previous.error();
  timeline.comparison_points = std::move(*previous);
  return timeline;
}

Result<Breakdown> Rank(storage::Transaction& tx, const std::string& project_id,
                       WebDimension dimension, const ReportWindows& windows, std::int64_t limit,
                       std::int64_t offset) {
  auto tallies = TallyValues(tx, project_id, windows, windows.selection, dimension, nullptr);
  if (!tallies) return tallies.error();
  const std::vector<std::string> keys = PageOf(
      Ranked(*tallies, [&](const std::string& value, const ValueFigures& figures) {
        return figures.Row(dimension, value).count;
      }),
      limit, offset);
  Breakdown breakdown;
  breakdown.total = static_cast<std::int64_t>(tallies->size());
  for (const std::string& key : keys) {
    breakdown.rows.push_back({(*tallies)[key].Row(dimension, key), std::nullopt});
  }
  if (!windows.comparison) return breakdown;
  auto previous = PreviousTallies(tx, project_id, windows, dimension, keys);
  if (!previous) return previous.error();
  for (BreakdownRow& row : breakdown.rows) {
    row.previous = (*previous)[row.current.key].Row(dimension, row.current.key);
  }
  return breakdown;
}

Result<std::vector<DurationRow>> Durations(storage::Transaction& tx,
                                           const std::string& project_id,
                                           const ReportWindows& windows, std::int64_t limit,
                                           std::int64_t offset) {
  auto tallies =
      TallyValues(tx, project_id, windows, windows.selection, WebDimension::kPage, nullptr);
  if (!tallies) return tallies.error();
  const std::vector<std::string> keys = PageOf(
      Ranked(*tallies, [](const std::string&, const ValueFigures& f) { return f.pageviews; }),
      limit, offset);
  const auto row_of = [](const std::string& path, const ValueFigures& f) {
    return storage::PageDurationRow{path, f.pageviews, f.timed_views, f.view_ms};
  };
  std::vector<DurationRow> rows;
  for (const std::string& key : keys) rows.push_back({row_of(key, (*tallies)[key]), std::nullopt});
  if (!windows.comparison) return rows;
  auto previous = PreviousTallies(tx, project_id, windows, WebDimension::kPage, keys);
  if (!previous) return previous.error();
  for (DurationRow& row : rows) row.previous = row_of(row.current.path, (*previous)[row.current.path]);
  return rows;
}

namespace {

// One series per key over `buckets`; each total is the key's count over the whole window.
Result<std::vector<reports::Series>> SeriesOf(storage::Transaction& tx,
                                              const std::string& project_id,
                                              const ReportWindows& windows,
                                              WebDimension dimension,
                                              const std::vector<UtcWindow>& buckets,
                                              const std::vector<std::string>& keys) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < keys.size(); ++i) index.emplace(keys[i], i);
  std::vector<std::vector<ValueFigures>> cells(keys.size(),
                                               std::vector<ValueFigures>(buckets.size()));
  std::vector<ValueFigures> totals(keys.size());
  auto read = ForEachVisit(tx, project_id, windows,
                           {buckets.front().start_ms, buckets.back().end_ms}, dimension,
                           [&](const WebVisitRow& visit) {
    const auto bucket = BucketOf(buckets, visit.started_at);
    if (!bucket) return;
    ForEachValue(visit, dimension, [&](const std::string& value, const Contribution& add) {
      const auto key = index.find(value);
      if (key == index.end()) return;
      Accumulate(cells[key->second][*bucket], add, visit);
      Accumulate(totals[key->second], add, visit);
    });
  });
  if (!read) return read.error();
  std::vector<reports::Series> series;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    reports::Series one{keys[i], totals[i].Row(dimension, keys[i]).count, {}};
    for (const ValueFigures& cell : cells[i]) one.values.push_back(cell.Row(dimension, keys[i]).count);
    series.push_back(std::move(one));
  }
  return series;
}

}  // namespace

Result<DimensionTimeline> Series(storage::Transaction& tx, const std::string& project_id,
                                 const ReportWindows& windows, WebDimension dimension,
                                 std::vector<std::vector<UtcWindow>> buckets, std::int64_t limit,
                                 std::optional<std::string> value) {
  DimensionTimeline timeline;
  timeline.buckets = std::move(buckets[0]);
  std::vector<std::string> keys;
  if (value) {
    keys.push_back(*value);
  } else {
    auto top = Rank(tx, project_id, dimension, windows, limit, 0);
    if (!top) return top.error();
    for (const BreakdownRow& row : top->rows) keys.push_back(row.current.key);
  }
  auto series = SeriesOf(tx, project_id, windows, dimension, timeline.buckets, keys);
  if (!series) return series.error();
  timeline.series = std::move(*series);
  if (!windows.comparison) return timeline;
  timeline.comparison_buckets = std::move(buckets[1]);
  auto previous =
      SeriesOf(tx, project_id, windows, dimension, timeline.comparison_buckets, keys);
  if (!previous) return previous.error();
  timeline.comparison_series = std::move(*previous);
  return timeline;
}

}  // namespace sightline::reports::filtered
