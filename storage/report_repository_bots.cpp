// Crawler reports over the bot rollups (storage/report_repository_rollups.cpp), written once for
// both backends. Group keys and filters come from fixed fragments chosen by enum; every value the
// caller sent is a bound parameter.
#include "storage/report_repository.h"

#include "core/text.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;

std::string_view GroupKey(BotGrouping grouping) {
  switch (grouping) {
    case BotGrouping::kBot: return "bot_name";
    case BotGrouping::kVendor: return "bot_vendor";
    case BotGrouping::kCountry:
    case BotGrouping::kPath: return "value";
    case BotGrouping::kCategory: return "actor_category";
  }
  return "''";
}

// "%text%" for LIKE with '!' as the escape character, lower-cased like the compared columns.
std::string ContainsPattern(std::string_view text) {
  std::string pattern = "%";
  for (char c : core::ToLowerAscii(text)) {
    if (c == '%' || c == '_' || c == '!') pattern += '!';
    pattern += c;
  }
  return pattern + "%";
}

bool Filtered(const BotReportQuery& q) {
  return q.actor_type || q.is_ai || q.vendor || q.bot_name || q.search;
}

// The rollup rows that hold the grouping's key and the query's filters: narrow rows where the
// query filters nothing but what they keep.
BotRollupKind KindFor(const BotReportQuery& q) {
  switch (q.grouping) {
    case BotGrouping::kCountry:
      return Filtered(q) ? BotRollupKind::kCountry : BotRollupKind::kCountryBot;
    case BotGrouping::kPath:
      if (!Filtered(q)) return BotRollupKind::kPathOnly;
      if (q.vendor && !q.actor_type && !q.is_ai && !q.search && !q.bot_name) {
        return BotRollupKind::kPathVendor;
      }
      return BotRollupKind::kPath;
    default: return BotRollupKind::kAgent;
  }
}

// A group's requests by verification outcome (BotGroupRow::verified…), summed only for the
// rankings that show them: the others' narrow rows drop the outcome, and every ranking would
// pay for three more sums per row.
std::string_view OutcomeSums(BotGrouping grouping) {
  if (grouping != BotGrouping::kBot) return "0, 0, 0";
  return "SUM(CASE WHEN actor_type = 'verified_bot' THEN requests ELSE 0 END), "
         "SUM(CASE WHEN actor_type = 'spoofed_bot' THEN requests ELSE 0 END), "
         "SUM(CASE WHEN actor_type = 'suspected_bot' THEN requests ELSE 0 END)";
}

constexpr std::string_view kBotColumns =
    "period_start, bot_name, bot_vendor, actor_category, is_ai, actor_type, value, requests";

// "FROM …" shared by every crawler report: the periods, the filters the query sets, and the
// group keys when it names them.
std::string BotFrom(const BotReportQuery& q, internal::SqlBuilder& sql) {
  const BotRollupKind kind = KindFor(q);
  std::string where = " AND kind = " + std::to_string(static_cast<std::int64_t>(kind));
  // Narrow rows keep "" in the columns they drop; naming it lets the key's index reach vendor.
  if (kind == BotRollupKind::kPathVendor) where += " AND bot_name = ''";
  if (q.actor_type) where += " AND actor_type = " + sql.Next(*q.actor_type);
  if (q.is_ai) where += " AND is_ai = " + sql.Next(static_cast<std::int64_t>(*q.is_ai));
  if (q.vendor) where += " AND bot_vendor = " + sql.Next(*q.vendor);
  if (q.bot_name) where += " AND bot_name = " + sql.Next(*q.bot_name);
  if (q.search) {
    const std::string pattern = sql.Next(ContainsPattern(*q.search));
    where += " AND (LOWER(bot_name) LIKE " + pattern + " ESCAPE '!' OR LOWER(bot_vendor) LIKE " +
             pattern + " ESCAPE '!')";
  }
  if (q.keys) where += " AND " + sql.In(GroupKey(q.grouping), *q.keys);
  const bool has_blocks = kind != BotRollupKind::kPath && kind != BotRollupKind::kPathVendor;
  return internal::RollupRowsFrom(sql, "bot_rollups", kBotColumns, q.range, where, has_blocks);
}

}  // namespace

Result<std::vector<BotGroupRow>> ReportRepository::BotRequestGroups(const BotReportQuery& q,
                                                              BotGroupTotals* totals) {
  internal::SqlBuilder sql;
  const std::string key(GroupKey(q.grouping));
  const std::string from = BotFrom(q, sql);
  // With `totals`, window functions add them up in the same pass (they run before LIMIT).
  const std::string bots = q.grouping == BotGrouping::kPath ? "0" : "COUNT(DISTINCT bot_name)";
  sql.text = "SELECT " + key + " AS group_key, SUM(requests) AS total, " + bots +
             ", NULLIF(MAX(bot_vendor), ''), "
             "NULLIF(MAX(actor_category), ''), MAX(is_ai), " + std::string(OutcomeSums(q.grouping)) +
             std::string(totals ? ", COUNT(*) OVER (), SUM(SUM(requests)) OVER () " : " ") +
             from + "GROUP BY " + key +
             " ORDER BY total DESC, group_key ASC LIMIT " + sql.Next(q.limit) + " OFFSET " +
             sql.Next(q.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<BotGroupRow> groups;
  groups.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    groups.push_back({r.Text(0), r.Int(1), r.Int(2), r.OptText(3), r.OptText(4), r.Bool(5),
                      r.Int(6), r.Int(7), r.Int(8)});
  }
  if (totals == nullptr) return groups;
  if (rows->empty()) {  // a page past the end has no row to carry the totals
    auto counted = BotRequestTotals(q);
    if (!counted) return counted.error();
    *totals = *counted;
  } else {
    *totals = {rows->front().Int(9), rows->front().Int(10)};
  }
  return groups;
}

Result<BotGroupTotals> ReportRepository::BotRequestTotals(const BotReportQuery& q) {
  internal::SqlBuilder sql;
  const std::string from = BotFrom(q, sql);
  sql.text = "SELECT COUNT(DISTINCT " + std::string(GroupKey(q.grouping)) + "), " +
             "COALESCE(SUM(requests), 0) " + from;
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  return BotGroupTotals{rows->front().Int(0), rows->front().Int(1)};
}

Result<std::int64_t> ReportRepository::BotRequestSum(const BotReportQuery& q) {
  // Every filter is a column of the per-bot rows, the fewest rows that hold them all.
  BotReportQuery agents = q;
  agents.grouping = BotGrouping::kBot;
  agents.keys.reset();
  internal::SqlBuilder sql;
  const std::string from = BotFrom(agents, sql);
  sql.text = "SELECT COALESCE(SUM(requests), 0) " + from;
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  return rows->front().Int(0);
}

Result<std::vector<BotPeriodRow>> ReportRepository::BotRequestPeriods(const BotReportQuery& q) {
  internal::SqlBuilder sql;
  const std::string key(GroupKey(q.grouping));
  const std::string from = BotFrom(q, sql);
  sql.text = "SELECT period_start, " + key + " AS group_key, SUM(requests) " + from +
             "GROUP BY period_start, " + key + " ORDER BY period_start, group_key";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<BotPeriodRow> periods;
  periods.reserve(rows->size());
  for (const SqlRow& r : *rows) periods.push_back({r.Int(0), r.Text(1), r.Int(2)});
  return periods;
}

}  // namespace sightline::storage
