#include "reports/bot_reports.h"

#include <algorithm>
#include <map>
#include <optional>

#include "reports/rollups.h"
#include "storage/report_repository.h"

namespace sightline::reports {
namespace {

using core::Error;
using core::Result;
using storage::BotGroupRow;
using storage::BotReportQuery;

BotReportQuery Query(const std::string& project_id, storage::BotGrouping grouping,
                     const BotFilters& filters, const ReportWindows& windows, UtcWindow window,
                     storage::RollupSpan span = storage::RollupSpan::kDay) {
  BotReportQuery query;
  query.range = {project_id, windows.zone, span, window.start_ms, window.end_ms};
  query.grouping = grouping;
  query.actor_type = filters.actor_type;
  query.is_ai = filters.is_ai;
  query.vendor = filters.vendor;
  query.bot_name = filters.bot_name;
  query.search = filters.search;
  return query;
}

// A query over `days` as the fewest rolled-up periods (blocks where they are current).
Result<BotReportQuery> QueryOf(storage::Transaction& tx, const std::string& project_id,
                               storage::BotGrouping grouping, const BotFilters& filters,
                               const ReportWindows& windows, DayRange days) {
  auto zone = ReportingZone::Find(windows.zone);
  if (!zone) return zone.error();
  auto range = RangeOf(tx, project_id, *zone, days);
  if (!range) return range.error();
  BotReportQuery query = Query(project_id, grouping, filters, windows, {});
  query.range = std::move(*range);
  return query;
}

std::vector<std::string> KeysOf(const std::vector<RankedRow>& rows) {
  std::vector<std::string> keys;
  for (const RankedRow& row : rows) keys.push_back(row.current.key);
  return keys;
}

// Folds rolled-up request counts (local days or hours) into buckets, one series per key in
// `keys` order. Periods outside every bucket are ignored.
// The bucket holding a period that starts at `at`: the first ending after it, if it began by
// then.
std::optional<std::size_t> BucketHolding(const std::vector<UtcWindow>& buckets, std::int64_t at) {
  const auto bucket = std::ranges::upper_bound(buckets, at, {}, &UtcWindow::end_ms);
  if (bucket == buckets.end() || bucket->start_ms > at) return std::nullopt;
  return static_cast<std::size_t>(bucket - buckets.begin());
}

std::vector<Series> FoldPeriods(const std::vector<storage::BotPeriodRow>& periods,
                                const std::vector<UtcWindow>& buckets,
                                const std::vector<std::string>& keys) {
  std::vector<Series> series;
  std::map<std::string, std::size_t> index;
  for (const std::string& key : keys) {
    index.emplace(key, series.size());
    series.push_back({key, 0, std::vector<std::int64_t>(buckets.size(), 0)});
  }
  for (const storage::BotPeriodRow& row : periods) {
    const auto found = index.find(row.key);
    const auto bucket = BucketHolding(buckets, row.period_start);
    if (found == index.end() || !bucket) continue;
    Series& target = series[found->second];
    target.values[*bucket] += row.requests;
    target.total += row.requests;
  }
  return series;
}

// Every group's requests per bucket, summed.
std::vector<std::int64_t> FoldTotals(const std::vector<storage::BotPeriodRow>& periods,
                                     const std::vector<UtcWindow>& buckets) {
  std::vector<std::int64_t> totals(buckets.size(), 0);
  for (const storage::BotPeriodRow& row : periods) {
    if (const auto bucket = BucketHolding(buckets, row.period_start)) totals[*bucket] += row.requests;
  }
  return totals;
}

}  // namespace

Result<RankedReport> RankBotRequests(storage::Store& store, const std::string& project_id,
                                     storage::BotGrouping grouping, const BotFilters& filters,
                                     const ReportWindows& windows, std::int64_t limit,
                                     std::int64_t offset) {
  auto refreshed = RefreshForReport(store, project_id, windows);
  if (!refreshed) return refreshed.error();
  return store.Read([&](storage::Transaction& tx) -> Result<RankedReport> {
    RankedReport report;
    auto current = QueryOf(tx, project_id, grouping, filters, windows, windows.selection_days);
    if (!current) return current.error();
    current->limit = limit;
    current->offset = offset;
    auto page = tx.reports().BotRequestGroups(*current, &report.totals);
    if (!page) return page.error();
    for (BotGroupRow& row : *page) report.rows.push_back({std::move(row), std::nullopt});
    if (!windows.comparison) return report;

    // Previous figures for exactly the listed rows, matched by key; unseen keys read zero.
    auto previous =
        QueryOf(tx, project_id, grouping, filters, windows, *windows.comparison_days);
    if (!previous) return previous.error();
    auto previous_requests = tx.reports().BotRequestSum(*previous);
    if (!previous_requests) return previous_requests.error();
    report.previous_totals = storage::BotGroupTotals{0, *previous_requests};
    previous->keys = KeysOf(report.rows);
    previous->limit = static_cast<std::int64_t>(report.rows.size()) + 1;
    auto matched = tx.reports().BotRequestGroups(*previous);
    if (!matched) return matched.error();
    std::map<std::string, BotGroupRow> by_key;
    for (BotGroupRow& row : *matched) by_key.emplace(row.key, std::move(row));
    for (RankedRow& row : report.rows) {
      auto found = by_key.find(row.current.key);
      row.previous = found != by_key.end() ? found->second : BotGroupRow{row.current.key};
    }
    return report;
  });
}


Result<TimelineReport> BotTimeline(storage::Store& store, const std::string& project_id,
                                   const ReportingZone& zone, const ReportWindows& windows,
                                   Interval interval, const BotFilters& filters,
                                   std::size_t limit) {
  auto buckets = BucketsFor(zone, windows, interval);
  if (!buckets) return buckets.error();
  auto refreshed = RefreshForReport(store, project_id, windows);
  if (!refreshed) return refreshed.error();
  const storage::RollupSpan span =
      interval == Interval::kHour ? storage::RollupSpan::kHour : storage::RollupSpan::kDay;
  return store.Read([&](storage::Transaction& tx) -> Result<TimelineReport> {
    TimelineReport report;
    report.buckets = std::move((*buckets)[0]);
    auto ranking = QueryOf(tx, project_id, storage::BotGrouping::kVendor, filters, windows,
                           windows.selection_days);
    if (!ranking) return ranking.error();
    ranking->limit = static_cast<std::int64_t>(limit);
    auto ranked = tx.reports().BotRequestGroups(*ranking);
    if (!ranked) return ranked.error();
    std::vector<std::string> keys;
    for (const BotGroupRow& row : *ranked) keys.push_back(row.key);

    // Every vendor's periods: the top ones' series, and the totals they are part of.
    const BotReportQuery vendors = Query(project_id, storage::BotGrouping::kVendor, filters,
                                         windows, windows.selection, span);
    auto periods = tx.reports().BotRequestPeriods(vendors);
    if (!periods) return periods.error();
    report.series = FoldPeriods(*periods, report.buckets, keys);
    report.totals = FoldTotals(*periods, report.buckets);
    if (!windows.comparison) return report;

    report.comparison_buckets = std::move((*buckets)[1]);
    const BotReportQuery previous = Query(project_id, storage::BotGrouping::kVendor, filters,
                                          windows, *windows.comparison, span);
    auto previous_periods = tx.reports().BotRequestPeriods(previous);
    if (!previous_periods) return previous_periods.error();
    report.comparison_series = FoldPeriods(*previous_periods, report.comparison_buckets, keys);
    report.comparison_totals = FoldTotals(*previous_periods, report.comparison_buckets);
    return report;
  });
}

}  // namespace sightline::reports
