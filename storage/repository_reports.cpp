// Report aggregates, written once for both backends. Group keys and filters come from fixed
// fragments chosen by enum; every value the caller sent is a bound parameter.
#include "core/text.h"
#include "storage/repository.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;

std::string_view GroupKey(BotGrouping grouping) {
  switch (grouping) {
    case BotGrouping::kBot: return "COALESCE(bot_name, '')";
    case BotGrouping::kVendor: return "COALESCE(bot_vendor, '')";
    case BotGrouping::kCountry: return "COALESCE(country, '')";
    case BotGrouping::kCategory: return "COALESCE(actor_category, '')";
    case BotGrouping::kPath: return "COALESCE(path, '')";
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

// "FROM … WHERE …" shared by every crawler report: the window, the filters the query sets, and
// the group keys when it names them.
std::string BotWhere(const BotReportQuery& q, internal::SqlBuilder& sql) {
  std::string where = "FROM bot_requests WHERE project_id = " + sql.Next(q.project_id) +
                      " AND occurred_at >= " + sql.Next(q.start_ms) +
                      " AND occurred_at < " + sql.Next(q.end_ms) + " ";
  if (q.actor_type) where += "AND actor_type = " + sql.Next(*q.actor_type) + " ";
  if (q.is_ai) where += "AND is_ai = " + sql.Next(static_cast<std::int64_t>(*q.is_ai)) + " ";
  if (q.vendor) where += "AND bot_vendor = " + sql.Next(*q.vendor) + " ";
  if (q.search) {
    const std::string pattern = sql.Next(ContainsPattern(*q.search));
    where += "AND (LOWER(COALESCE(bot_name, '')) LIKE " + pattern +
             " ESCAPE '!' OR LOWER(COALESCE(bot_vendor, '')) LIKE " + pattern + " ESCAPE '!') ";
  }
  if (q.keys) where += "AND " + sql.In(GroupKey(q.grouping), *q.keys) + " ";
  return where;
}

}  // namespace

Result<std::vector<BotGroupRow>> Repository::BotRequestGroups(const BotReportQuery& q) {
  internal::SqlBuilder sql;
  const std::string key(GroupKey(q.grouping));
  const std::string where = BotWhere(q, sql);
  sql.text = "SELECT " + key + " AS group_key, COUNT(*) AS requests, "
             "COUNT(DISTINCT COALESCE(bot_name, '')), MAX(bot_vendor), MAX(actor_category), "
             "MAX(is_ai) " + where + "GROUP BY " + key +
             " ORDER BY requests DESC, group_key ASC LIMIT " + sql.Next(q.limit) + " OFFSET " +
             sql.Next(q.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<BotGroupRow> groups;
  groups.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    groups.push_back({r.Text(0), r.Int(1), r.Int(2), r.OptText(3), r.OptText(4), r.Bool(5)});
  }
  return groups;
}

Result<BotGroupTotals> Repository::BotRequestTotals(const BotReportQuery& q) {
  internal::SqlBuilder sql;
  const std::string where = BotWhere(q, sql);
  sql.text = "SELECT COUNT(DISTINCT " + std::string(GroupKey(q.grouping)) + "), COUNT(*) " + where;
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  return BotGroupTotals{rows->front().Int(0), rows->front().Int(1)};
}

Result<std::vector<BotQuarterRow>> Repository::BotRequestQuarters(const BotReportQuery& q) {
  internal::SqlBuilder sql;
  const std::string key(GroupKey(q.grouping));
  const std::string where = BotWhere(q, sql);
  sql.text = "SELECT occurred_at / 900000 AS quarter, " + key + " AS group_key, COUNT(*) " + where +
             "GROUP BY quarter, " + key + " ORDER BY quarter, group_key";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<BotQuarterRow> quarters;
  quarters.reserve(rows->size());
  for (const SqlRow& r : *rows) quarters.push_back({r.Int(0), r.Text(1), r.Int(2)});
  return quarters;
}

}  // namespace sightline::storage
