// Web analytics over the web rollups, written once for both backends: each period's rows of a
// dimension are one column block, with the period's visitor table beside them
// (storage/web_rollup_codec.h); reading, ranking and summing happen here, after decoding.
#include "storage/report_repository.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "core/distinct_sketch.h"
#include "storage/sql_helpers.h"
#include "storage/visitor_table_cache.h"
#include "storage/web_rollup_codec.h"

namespace sightline::storage {
namespace {

using core::Result;
using Sql = internal::SqlBuilder;
using internal::SharedTable;

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

// A period's visitor table carries a stamp (the hash of its bytes), and so does each of the
// period's blocks: on PostgreSQL a report reads the blocks and the tables in separate
// statements, so a day rolled up again in between would otherwise pair old positions with a
// new table. The stamp also finds a table in the process's cache (storage/visitor_table_cache.h).
std::int64_t StampOf(std::string_view table_bytes) {
  return table_bytes.empty() ? 0 : static_cast<std::int64_t>(core::StableHash64(table_bytes));
}

// The visitor tables of the periods of one span, by period start, as the blocks read name them
// (`stamps`, period start → stamp): from the cache, the others read in one statement. A period
// whose table has another stamp by now is left out.
Result<std::map<std::int64_t, SharedTable>> VisitorTables(
    SqlSession& session, const RollupRange& range, RollupSpan span,
    const std::map<std::int64_t, std::int64_t>& stamps) {
  auto& cache = internal::VisitorTableCache::Shared();
  const auto key = [&](std::int64_t period_start, std::int64_t stamp) {
    return internal::VisitorTableKey{range.project_id, range.zone,
                                     static_cast<std::int64_t>(span), period_start, stamp};
  };
  std::map<std::int64_t, SharedTable> tables;
  std::vector<std::int64_t> missing;
  for (const auto& [period_start, stamp] : stamps) {
    if (stamp == 0) continue;  // no exact sketch in the period
    if (SharedTable table = cache.Find(key(period_start, stamp))) {
      tables.emplace(period_start, std::move(table));
    } else {
      missing.push_back(period_start);
    }
  }
  if (missing.empty()) return tables;
  Sql sql;
  sql.text = "SELECT period_start, stamp, data " +
             FromPeriods(sql, "web_rollup_visitors", range, SpanPeriods{span, missing});
  auto rows = sql.Query(session);
  if (!rows) return rows.error();
  for (const SqlRow& row : *rows) {
    const std::int64_t period_start = row.Int(0), stamp = row.Int(1);
    if (stamps.at(period_start) != stamp) continue;
    auto hashes = DecodeVisitorTable(row.Text(2));
    if (!hashes) return hashes.error();
    auto table = std::make_shared<const std::vector<std::uint64_t>>(std::move(*hashes));
    cache.Keep(key(period_start, stamp), table);
    tables.emplace(period_start, std::move(table));
  }
  return tables;
}

// What a read of the rollups asks for.
struct RollupRead {
  std::optional<std::int64_t> dimension;           // every dimension when none
  std::optional<std::vector<std::string>> values;  // sorted; every value when none
  bool with_visitors = false;
};

// The rows of one span's periods. `stale` is set when a block's visitor table changed since the
// block was read (rolled up again in between): the read is then to be done again.
Result<void> ReadSpan(SqlSession& session, const RollupRange& range, const SpanPeriods& periods,
                      const RollupRead& read, std::vector<WebRollupRow>& out, bool& stale) {
  Sql sql;
  sql.text = "SELECT period_start, dimension, visitor_stamp, data " +
             FromPeriods(sql, "web_rollups", range, periods);
  if (read.dimension) sql.text += " AND dimension = " + sql.Next(*read.dimension);
  sql.text += " ORDER BY period_start, dimension";
  auto blocks = sql.Query(session);
  if (!blocks) return blocks.error();
  std::map<std::int64_t, std::int64_t> stamps;  // period start → its blocks' table stamp
  for (const SqlRow& block : *blocks) stamps.emplace(block.Int(0), block.Int(2));
  // The span's visitor tables, found when a row first needs one (rankings of large values read
  // dense sketches only and never do).
  std::optional<std::map<std::int64_t, SharedTable>> tables;
  for (const SqlRow& block : *blocks) {
    const std::int64_t period_start = block.Int(0);
    const VisitorTableSource table = [&]() -> Result<const std::vector<std::uint64_t>*> {
      if (!tables) {
        auto found = VisitorTables(session, range, periods.span, stamps);
        if (!found) return found.error();
        tables = std::move(*found);
      }
      const auto found = tables->find(period_start);
      // Another stamp among the period's blocks, or a table rebuilt since: read again.
      if (found == tables->end() || stamps.at(period_start) != block.Int(2)) {
        stale = true;
        return core::Error::Internal("web rollups changed while read");
      }
      return found->second.get();
    };
    auto rows = DecodeWebRollups(block.Text(3), read.with_visitors ? &table : nullptr,
                                 read.values ? &*read.values : nullptr);
    if (!rows) return rows.error();
    for (WebRollupRow& row : *rows) {
      row.span = periods.span;
      row.dimension = block.Int(1);
      row.period_start = period_start;
      out.push_back(std::move(row));
    }
  }
  return {};
}

// The range's rows, in period and dimension order, each period's rows in the order written.
Result<std::vector<WebRollupRow>> ReadRollups(SqlSession& session, const RollupRange& range,
                                              const RollupRead& read) {
  constexpr int kAttempts = 3;  // a day rolled up three times during one read is left an error
  for (int attempt = 1;; ++attempt) {
    std::vector<WebRollupRow> out;
    bool stale = false;
    Result<void> spans;
    for (const SpanPeriods& periods : PeriodsOf(range)) {
      spans = ReadSpan(session, range, periods, read, out, stale);
      if (!spans) break;
    }
    if (spans) return out;
    if (!stale || attempt == kAttempts) return spans.error();
  }
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
  std::ranges::stable_sort(ranked,
                           [](const auto& a, const auto& b) { return a.second[0] > b.second[0]; });
  const auto first = std::min<std::size_t>(
      static_cast<std::size_t>(std::max<std::int64_t>(offset, 0)), ranked.size());
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
    std::string table_bytes = EncodeVisitorTable(*table);
    const std::int64_t stamp = StampOf(table_bytes);
    if (!table->empty()) {
      auto inserted = internal::ExecuteVoid(
          session_,
          "INSERT INTO web_rollup_visitors (project_id, zone, span, period_start, stamp, data) "
          "VALUES ($1, $2, $3, $4, $5, $6)",
          {project, zone_name, span, period.second, stamp, SqlBlob{std::move(table_bytes)}});
      if (!inserted) return inserted;
    }
    for (const auto& [dimension, of_dimension] : dimensions) {
      auto inserted = internal::ExecuteVoid(
          session_,
          "INSERT INTO web_rollups (project_id, zone, span, period_start, dimension, "
          "visitor_stamp, data) VALUES ($1, $2, $3, $4, $5, $6, $7)",
          {project, zone_name, span, period.second, dimension, stamp,
           SqlBlob{EncodeWebRollups(of_dimension, *table)}});
      if (!inserted) return inserted;
    }
  }
  return {};
}

}  // namespace sightline::storage
