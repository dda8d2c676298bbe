// Web analytics over the web rollups, written once for both backends: each period's rows of a
// dimension are one column block, with the period's visitor table beside them
// (storage/web_rollup_codec.h); reading, ranking and summing happen here, after decoding.
#include "storage/report_repository.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "storage/sql_helpers.h"
#include "storage/web_rollup_codec.h"

namespace sightline::storage {
namespace {

using core::Result;
using Sql = internal::SqlBuilder;

// The periods of one span a range reads: the starts listed, or every start in [start, end).
struct SpanPeriods {
  RollupSpan span = RollupSpan::kDay;
  std::optional<std::vector<std::int64_t>> starts;
};

std::vector<SpanPeriods> PeriodsOf(const RollupRange& range) {
  if (range.blocks.empty()) return {{range.span, std::nullopt}};
  std::vector<SpanPeriods> periods;
  for (const RollupPeriods& block : range.blocks) periods.push_back({block.span, block.starts});
  return periods;
}

// "FROM table WHERE …" for the range's project, zone and the periods of one span.
std::string FromPeriods(Sql& sql, std::string_view table, const RollupRange& range,
                        const SpanPeriods& periods) {
  std::string from = "FROM " + std::string(table) + " WHERE project_id = " +
                     sql.Next(range.project_id) + " AND zone = " + sql.Next(range.zone) +
                     " AND span = " + sql.Next(static_cast<std::int64_t>(periods.span));
  if (periods.starts) return from + " AND " + sql.In("period_start", *periods.starts);
  return from + " AND period_start >= " + sql.Next(range.start_ms) + " AND period_start < " +
         sql.Next(range.end_ms);
}

// The visitor table of one period ("" when its rows have no exact sketch).
Result<std::vector<std::uint64_t>> VisitorTable(SqlSession& session, const RollupRange& range,
                                                RollupSpan span, std::int64_t period_start) {
  auto rows = session.Query(
      "SELECT data FROM web_rollup_visitors WHERE project_id = $1 AND zone = $2 AND span = $3 "
      "AND period_start = $4",
      {range.project_id, range.zone, static_cast<std::int64_t>(span), period_start});
  if (!rows) return rows.error();
  if (rows->empty()) return std::vector<std::uint64_t>();
  return DecodeVisitorTable(rows->front().Text(0));
}

// What a read of the rollups asks for.
struct RollupRead {
  std::optional<std::int64_t> dimension;                // every dimension when none
  std::optional<std::vector<std::string>> values;       // sorted; every value when none
  bool with_visitors = false;
};

// The range's rows, in period and dimension order, each period's rows in the order written.
Result<std::vector<WebRollupRow>> ReadRollups(SqlSession& session, const RollupRange& range,
                                              const RollupRead& read) {
  std::vector<WebRollupRow> out;
  for (const SpanPeriods& periods : PeriodsOf(range)) {
    Sql sql;
    sql.text = "SELECT period_start, dimension, data " +
               FromPeriods(sql, "web_rollups", range, periods);
    if (read.dimension) sql.text += " AND dimension = " + sql.Next(*read.dimension);
    sql.text += " ORDER BY period_start, dimension";
    auto blocks = sql.Query(session);
    if (!blocks) return blocks.error();
    // Each period's visitor table, read when one of its rows first needs it.
    std::map<std::int64_t, std::vector<std::uint64_t>> tables;
    for (const SqlRow& block : *blocks) {
      const std::int64_t period_start = block.Int(0);
      const VisitorTableSource table = [&]() -> Result<const std::vector<std::uint64_t>*> {
        auto found = tables.find(period_start);
        if (found == tables.end()) {
          auto read_table = VisitorTable(session, range, periods.span, period_start);
          if (!read_table) return read_table.error();
          found = tables.emplace(period_start, std::move(*read_table)).first;
        }
        return &found->second;
      };
      auto rows = DecodeWebRollups(block.Text(2), read.with_visitors ? &table : nullptr,
                                   read.values ? &*read.values : nullptr);
      if (!rows) return rows.error();
      for (WebRollupRow& row : *rows) {
        row.span = periods.span;
        row.dimension = block.Int(1);
        row.period_start = period_start;
        out.push_back(std::move(row));
      }
    }
  }
  return out;
}

RollupRead ReadOf(const WebRollupQuery& q, bool with_visitors) {
  RollupRead read{q.dimension, q.values, with_visitors};
  if (read.values) std::ranges::sort(*read.values);
  return read;
}

// Per value, the sums of `figures` over its rows (the first one ranks).
template <std::size_t N>
using Sums = std::map<std::string, std::array<std::int64_t, N>>;

template <std::size_t N>
Sums<N> SumByValue(std::vector<WebRollupRow>& rows,
                   const std::array<std::int64_t WebRollupRow::*, N>& figures) {
  Sums<N> sums;
  for (WebRollupRow& row : rows) {
    auto& sum = sums.try_emplace(std::move(row.value)).first->second;
    for (std::size_t i = 0; i < N; ++i) sum[i] += row.*figures[i];
  }
  return sums;
}

// The values by their first sum, largest first, then value; `limit` of them after `offset`.
template <std::size_t N>
std::vector<std::pair<std::string, std::array<std::int64_t, N>>> PageOf(Sums<N> sums,
                                                                       std::int64_t limit,
                                                                       std::int64_t offset) {
  std::vector<std::pair<std::string, std::array<std::int64_t, N>>> ranked(
      std::make_move_iterator(sums.begin()), std::make_move_iterator(sums.end()));
  std::ranges::stable_sort(ranked, [](const auto& a, const auto& b) { return a.second[0] > b.second[0]; });
  const auto first = std::min<std::size_t>(static_cast<std::size_t>(std::max<std::int64_t>(offset, 0)),
                                           ranked.size());
  const auto last = std::min<std::size_t>(
      first + static_cast<std::size_t>(std::max<std::int64_t>(limit, 0)), ranked.size());
  return {std::make_move_iterator(ranked.begin() + static_cast<std::ptrdiff_t>(first)),
          std::make_move_iterator(ranked.begin() + static_cast<std::ptrdiff_t>(last))};
}

}  // namespace

Result<std::vector<WebRollupRow>> ReportRepository::WebRollupRows(const WebRollupQuery& q) {
  auto rows = ReadRollups(session_, q.range, ReadOf(q, true));
  if (!rows) return rows.error();
  std::ranges::stable_sort(*rows, [](const WebRollupRow& a, const WebRollupRow& b) {
    return std::tie(a.period_start, a.value) < std::tie(b.period_start, b.value);
  });
  return rows;
}

Result<WebValueRanking> ReportRepository::RankWebValues(const WebRollupQuery& q,
                                                        std::int64_t limit,
                                                        std::int64_t offset) {
  auto rows = ReadRollups(session_, q.range, ReadOf(q, false));
  if (!rows) return rows.error();
  auto sums = SumByValue<1>(*rows, {&WebRollupRow::events});
  WebValueRanking ranking;
  ranking.values = static_cast<std::int64_t>(sums.size());
  for (auto& [value, sum] : PageOf(std::move(sums), limit, offset)) {
    ranking.page.push_back({std::move(value), sum[0]});
  }
  return ranking;
}

Result<std::vector<PageDurationRow>> ReportRepository::PageDurations(const WebRollupQuery& q,
                                                                     std::int64_t limit,
                                                                     std::int64_t offset) {
  WebRollupQuery pages = q;
  pages.dimension = static_cast<std::int64_t>(WebDimension::kPage);
  auto rows = ReadRollups(session_, pages.range, ReadOf(pages, false));
  if (!rows) return rows.error();
  auto sums = SumByValue<3>(
      *rows, {&WebRollupRow::events, &WebRollupRow::timed_views, &WebRollupRow::view_ms});
  std::vector<PageDurationRow> out;
  for (auto& [path, sum] : PageOf(std::move(sums), limit, offset)) {
    out.push_back({std::move(path), sum[0], sum[1], sum[2]});
  }
  return out;
}

Result<std::vector<WebRollupRow>> ReportRepository::ListWebRollups(std::string_view project_id,
                                                                   std::string_view zone,
                                                                   const RollupPeriods& periods) {
  const RollupRange range{std::string(project_id), std::string(zone), periods.span, 0, 0,
                          {periods}};
  return ReadRollups(session_, range, RollupRead{std::nullopt, std::nullopt, true});
}

Result<void> ReportRepository::InsertWebRollups(std::string_view project_id,
                                                std::string_view zone,
                                                std::span<const WebRollupRow> rows) {
  // Per period, its visitor table and a block per dimension.
  std::map<std::pair<RollupSpan, std::int64_t>, std::map<std::int64_t, std::vector<const WebRollupRow*>>>
      periods;
  for (const WebRollupRow& row : rows) periods[{row.span, row.period_start}][row.dimension].push_back(&row);
  const std::string project(project_id), zone_name(zone);
  for (const auto& [period, dimensions] : periods) {
    const auto span = static_cast<std::int64_t>(period.first);
    std::vector<const WebRollupRow*> all;
    for (const auto& [dimension, of_dimension] : dimensions) {
      all.insert(all.end(), of_dimension.begin(), of_dimension.end());
    }
    auto table = VisitorTableOf(all);
    if (!table) return table.error();
    if (!table->empty()) {
      auto inserted = internal::ExecuteVoid(
          session_,
          "INSERT INTO web_rollup_visitors (project_id, zone, span, period_start, data) "
          "VALUES ($1, $2, $3, $4, $5)",
          {project, zone_name, span, period.second, SqlBlob{EncodeVisitorTable(*table)}});
      if (!inserted) return inserted;
    }
    for (const auto& [dimension, of_dimension] : dimensions) {
      auto inserted = internal::ExecuteVoid(
          session_,
          "INSERT INTO web_rollups (project_id, zone, span, period_start, dimension, data) "
          "VALUES ($1, $2, $3, $4, $5, $6)",
          {project, zone_name, span, period.second, dimension,
           SqlBlob{EncodeWebRollups(of_dimension, *table)}});
      if (!inserted) return inserted;
    }
  }
  return {};
}

}  // namespace sightline::storage
