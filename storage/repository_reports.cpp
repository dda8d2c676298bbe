// Report aggregates, written once for both backends. Group keys and filters come from fixed
// fragments chosen by enum; every value the caller sent is a bound parameter.
#include <array>

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
  for (char c : text) {
    if (c == '%' || c == '_' || c == '!') pattern += '!';
    pattern += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return pattern + "%";
}

// The WHERE clause shared by every crawler report, with its parameters ($1..$7, then the
// group keys when the query names them).
struct Where {
  std::string sql;
  std::vector<SqlValue> params;
};

Where BotWhere(const BotReportQuery& q) {
  Where where;
  where.sql =
      "FROM bot_requests WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3 "
      "AND (CAST($4 AS TEXT) IS NULL OR actor_type = $4) "
      "AND (CAST($5 AS BIGINT) IS NULL OR is_ai = $5) "
      "AND (CAST($6 AS TEXT) IS NULL OR bot_vendor = $6) "
      "AND (CAST($7 AS TEXT) IS NULL OR LOWER(COALESCE(bot_name, '')) LIKE $7 ESCAPE '!' "
      "     OR LOWER(COALESCE(bot_vendor, '')) LIKE $7 ESCAPE '!') ";
  // Appended one by one: an initializer list of variants trips GCC 12's uninitialized-use
  // warning.
  where.params.reserve(7 + (q.keys ? q.keys->size() : 0) + 2);
  where.params.emplace_back(q.project_id);
  where.params.emplace_back(q.start_ms);
  where.params.emplace_back(q.end_ms);
  where.params.push_back(Nullable(q.actor_type));
  if (q.is_ai) {
    where.params.emplace_back(static_cast<std::int64_t>(*q.is_ai));
  } else {
    where.params.emplace_back(nullptr);
  }
  where.params.push_back(Nullable(q.vendor));
  if (q.search) {
    where.params.emplace_back(ContainsPattern(*q.search));
  } else {
    where.params.emplace_back(nullptr);
  }
  if (q.keys) {
    // An empty list matches nothing; "IN ()" is not valid SQL on PostgreSQL.
    where.sql += std::string("AND ") + std::string(GroupKey(q.grouping)) + " IN (";
    if (q.keys->empty()) where.sql += "NULL";
    for (std::size_t i = 0; i < q.keys->size(); ++i) {
      where.params.push_back((*q.keys)[i]);
      where.sql += (i ? ", $" : "$") + std::to_string(where.params.size());
    }
    where.sql += ") ";
  }
  return where;
}

Result<std::vector<SqlRow>> Run(SqlSession& session, const std::string& sql,
                                const std::vector<SqlValue>& params) {
  return session.Query(sql, std::span<const SqlValue>(params.data(), params.size()));
}

}  // namespace

Result<std::vector<BotGroupRow>> Repository::BotRequestGroups(const BotReportQuery& q) {
  Where where = BotWhere(q);
  const std::string key(GroupKey(q.grouping));
  where.params.push_back(q.limit);
  where.params.push_back(q.offset);
  const std::string sql =
      "SELECT " + key + " AS group_key, COUNT(*) AS requests, "
      "COUNT(DISTINCT COALESCE(bot_name, '')), MAX(bot_vendor), MAX(actor_category), "
      "MAX(is_ai) " + where.sql + "GROUP BY " + key +
      " ORDER BY requests DESC, group_key ASC LIMIT $" + std::to_string(where.params.size() - 1) +
      " OFFSET $" + std::to_string(where.params.size());
  auto rows = Run(session_, sql, where.params);
  if (!rows) return rows.error();
  std::vector<BotGroupRow> groups;
  groups.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    groups.push_back({r.Text(0), r.Int(1), r.Int(2), r.OptText(3), r.OptText(4), r.Bool(5)});
  }
  return groups;
}

Result<BotGroupTotals> Repository::BotRequestTotals(const BotReportQuery& q) {
  const Where where = BotWhere(q);
  const std::string sql = "SELECT COUNT(DISTINCT " + std::string(GroupKey(q.grouping)) +
                          "), COUNT(*) " + where.sql;
  auto rows = Run(session_, sql, where.params);
  if (!rows) return rows.error();
  return BotGroupTotals{rows->front().Int(0), rows->front().Int(1)};
}

Result<std::vector<BotQuarterRow>> Repository::BotRequestQuarters(const BotReportQuery& q) {
  const Where where = BotWhere(q);
  const std::string key(GroupKey(q.grouping));
  const std::string sql = "SELECT occurred_at / 900000 AS quarter, " + key +
                          " AS group_key, COUNT(*) " + where.sql + "GROUP BY quarter, " + key +
                          " ORDER BY quarter, group_key";
  auto rows = Run(session_, sql, where.params);
  if (!rows) return rows.error();
  std::vector<BotQuarterRow> quarters;
  quarters.reserve(rows->size());
  for (const SqlRow& r : *rows) quarters.push_back({r.Int(0), r.Text(1), r.Int(2)});
  return quarters;
}

}  // namespace sightline::storage
