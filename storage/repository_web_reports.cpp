// Web analytics aggregates over the events table, written once for both backends. A visitor
// is the anonymous id (the user id when there is none), a visit is a session id; only human
// events outside the `__analytics` channel count. Dimension columns and bucket expressions come
// from fixed fragments; every value the caller sent is a bound parameter.
#include "storage/bucket_sql.h"
#include "storage/repository.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;

constexpr std::string_view kVisitor = "COALESCE(anonymous_id, user_id)";

using Sql = internal::SqlBuilder;

std::string BaseWhere(const WebReportQuery& q, Sql& sql) {
  const std::string project = sql.Next(q.project_id);
  const std::string start = sql.Next(q.start_ms);
  const std::string end = sql.Next(q.end_ms);
  return "FROM events WHERE project_id = " + project + " AND occurred_at >= " + start +
         " AND occurred_at < " + end + " AND is_bot = 0 AND channel <> '__analytics' ";
}

std::string BucketColumn(const WebReportQuery& q, Sql& sql) {
  return q.buckets ? BucketKeySql(*q.buckets, sql) : "0";
}

std::string_view DimensionColumn(WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage:
    case WebDimension::kEntryPage:
    case WebDimension::kExitPage: return "COALESCE(path, '')";
    case WebDimension::kReferrer: return "COALESCE(referrer, '')";
    case WebDimension::kUtmSource: return "COALESCE(utm_source, '')";
    case WebDimension::kUtmMedium: return "COALESCE(utm_medium, '')";
    case WebDimension::kUtmCampaign: return "COALESCE(utm_campaign, '')";
    case WebDimension::kUtmTerm: return "COALESCE(utm_term, '')";
    case WebDimension::kUtmContent: return "COALESCE(utm_content, '')";
    case WebDimension::kCountry: return "COALESCE(country, '')";
    case WebDimension::kRegion: return "COALESCE(region, '')";
    case WebDimension::kCity: return "COALESCE(city, '')";
    case WebDimension::kBrowser: return "COALESCE(browser, '')";
    case WebDimension::kOs: return "COALESCE(os, '')";
    case WebDimension::kDevice: return "COALESCE(device, '')";
    case WebDimension::kChannel: return "channel";
    case WebDimension::kEvent: return "event";
  }
  return "''";
}

// What a breakdown row counts (see WebDimension).
std::string_view CountExpression(WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage:
    case WebDimension::kEntryPage:
    case WebDimension::kExitPage:
    case WebDimension::kChannel:
    case WebDimension::kEvent: return "COUNT(*)";
    default: return "COUNT(DISTINCT visitor_key)";
  }
}

// The rows a breakdown groups, one per event (or per visit's first/last pageview), with
// bucket_key, group_key, visitor_key and is_pageview; `keep` is the outer filter.
struct Source {
  std::string relation;
  std::string keep = "1 = 1";
};

Source BreakdownSource(const WebReportQuery& q, Sql& sql) {
  const std::string bucket = BucketColumn(q, sql);
  const std::string where = BaseWhere(q, sql);
  const std::string columns = "SELECT " + bucket + " AS bucket_key, " +
                              std::string(DimensionColumn(q.dimension)) + " AS group_key, " +
                              std::string(kVisitor) +
                              " AS visitor_key, CASE WHEN event = 'screen_view' THEN 1 ELSE 0 "
                              "END AS is_pageview";
  Source source;
  switch (q.dimension) {
    case WebDimension::kPage:
      source.relation = columns + " " + where + "AND event = 'screen_view'";
      break;
    case WebDimension::kEntryPage:
    case WebDimension::kExitPage: {
      const std::string order = q.dimension == WebDimension::kEntryPage
                                    ? "occurred_at ASC, id ASC"
                                    : "occurred_at DESC, id DESC";
      source.relation = columns + ", ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY " +
                        order + ") AS visit_rank " + where +
                        "AND event = 'screen_view' AND session_id IS NOT NULL";
      source.keep = "visit_rank = 1";
      break;
    }
    default:
      source.relation = columns + " " + where;
  }
  if (q.keys) source.keep += " AND " + sql.In("group_key", *q.keys);
  return source;
}

}  // namespace

Result<std::vector<WebTotalsRow>> Repository::WebTotals(const WebReportQuery& q) {
  Sql sql;
  const std::string bucket = BucketColumn(q, sql);
  const std::string where = BaseWhere(q, sql);
  // Per visit (and bucket) first, then per bucket: a visit's pageviews, whether it did
  // anything beyond viewing one page, and its length.
  sql.text =
      "SELECT bucket_key, COUNT(DISTINCT visitor_key), COUNT(session_id), SUM(pageviews), "
      "SUM(CASE WHEN session_id IS NOT NULL AND pageviews <= 1 AND engaged = 0 THEN 1 ELSE 0 "
      "END), SUM(CASE WHEN session_id IS NULL THEN 0 ELSE last_at - first_at END), SUM(events) "
      "FROM (SELECT " + bucket + " AS bucket_key, session_id, " + std::string(kVisitor) +
      " AS visitor_key, SUM(CASE WHEN event = 'screen_view' THEN 1 ELSE 0 END) AS pageviews, "
      "SUM(CASE WHEN event IN ('screen_view', 'session_start', 'scroll_depth') THEN 0 ELSE 1 "
      "END) AS engaged, MIN(occurred_at) AS first_at, MAX(occurred_at) AS last_at, "
      "COUNT(*) AS events " + where +
      "GROUP BY bucket_key, session_id, visitor_key) visits GROUP BY bucket_key "
      "ORDER BY bucket_key";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<WebTotalsRow> out;
  for (const SqlRow& r : *rows) {
    out.push_back({r.Int(0), r.Int(1), r.Int(2), r.Int(3), r.Int(4), r.Int(5), r.Int(6)});
  }
  return out;
}

Result<std::vector<WebBreakdownRow>> Repository::WebBreakdown(const WebReportQuery& q) {
  Sql sql;
  const Source source = BreakdownSource(q, sql);
  sql.text = "SELECT bucket_key, group_key, " + std::string(CountExpression(q.dimension)) +
             " AS row_count, COUNT(DISTINCT visitor_key), SUM(is_pageview) FROM (" +
             source.relation + ") source_rows WHERE " + source.keep +
             " GROUP BY bucket_key, group_key ORDER BY ";
  if (q.buckets) {
    sql.text += "bucket_key, group_key";
  } else {
    sql.text += "row_count DESC, group_key ASC LIMIT " + sql.Next(q.limit) + " OFFSET " +
                sql.Next(q.offset);
  }
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<WebBreakdownRow> out;
  for (const SqlRow& r : *rows) out.push_back({r.Int(0), r.Text(1), r.Int(2), r.Int(3), r.Int(4)});
  return out;
}

Result<WebGroupTotals> Repository::WebBreakdownTotals(const WebReportQuery& q) {
  WebReportQuery whole = q;
  whole.buckets.reset();
  Sql sql;
  const Source source = BreakdownSource(whole, sql);
  sql.text = "SELECT COUNT(DISTINCT group_key) FROM (" + source.relation + ") source_rows WHERE " +
             source.keep;
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  return WebGroupTotals{rows->front().Int(0)};
}

Result<std::vector<PageDurationRow>> Repository::PageDurations(const WebReportQuery& q) {
  Sql sql;
  const std::string where = BaseWhere(q, sql);
  const std::string keep = q.keys ? sql.In("group_key", *q.keys) : "1 = 1";
  // A pageview lasts until the visit's next pageview; the last one of a visit is unmeasured.
  sql.text =
      "SELECT group_key, COUNT(*) AS views, SUM(CASE WHEN next_at IS NULL THEN 0 ELSE 1 END), "
      "SUM(CASE WHEN next_at IS NULL THEN 0 ELSE next_at - occurred_at END) FROM (SELECT "
      "COALESCE(path, '') AS group_key, occurred_at, LEAD(occurred_at) OVER (PARTITION BY "
      "session_id ORDER BY occurred_at, id) AS next_at " + where +
      "AND event = 'screen_view' AND session_id IS NOT NULL) pageviews WHERE " + keep +
      " GROUP BY group_key ORDER BY views DESC, group_key ASC LIMIT " + sql.Next(q.limit) +
      " OFFSET " + sql.Next(q.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<PageDurationRow> out;
  for (const SqlRow& r : *rows) out.push_back({r.Text(0), r.Int(1), r.Int(2), r.Int(3)});
  return out;
}

}  // namespace sightline::storage
