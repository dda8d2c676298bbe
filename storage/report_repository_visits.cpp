// The visit rows filtered web reports read (web_visits), written once for both backends.
#include "storage/report_repository.h"

#include "storage/sql_helpers.h"
#include "storage/visit_lists.h"

namespace sightline::storage {
namespace {

using core::Result;
using Sql = internal::SqlBuilder;

constexpr std::string_view kVisitColumns =
    "project_id, zone, started_at, in_visit, session_id, visitor, events, pageviews, bounce, "
    "duration_ms, entry_page, exit_page, referrer, utm_source, utm_medium, utm_campaign, "
    "utm_term, utm_content, country, region, city, browser, os, device, pages, event_names, "
    "channels, source, channel";

// What every report over visits reads.
constexpr std::string_view kFigureColumns =
    "started_at, in_visit, visitor, events, pageviews, bounce, duration_ms";

// The column holding a dimension's value of a visit (a list for pages, events and event
// channels).
std::string_view ColumnOf(WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage: return "pages";
    case WebDimension::kEntryPage: return "entry_page";
    case WebDimension::kExitPage: return "exit_page";
    case WebDimension::kReferrer: return "referrer";
    case WebDimension::kUtmSource: return "utm_source";
    case WebDimension::kUtmMedium: return "utm_medium";
    case WebDimension::kUtmCampaign: return "utm_campaign";
    case WebDimension::kUtmTerm: return "utm_term";
    case WebDimension::kUtmContent: return "utm_content";
    case WebDimension::kCountry: return "country";
    case WebDimension::kRegion: return "region";
    case WebDimension::kCity: return "city";
    case WebDimension::kBrowser: return "browser";
    case WebDimension::kOs: return "os";
    case WebDimension::kDevice: return "device";
    case WebDimension::kEventChannel: return "channels";
    case WebDimension::kSource: return "source";
    case WebDimension::kChannel: return "channel";
    case WebDimension::kEvent: return "event_names";
  }
  return "pages";
}

bool IsList(WebDimension dimension) {
  return dimension == WebDimension::kPage || dimension == WebDimension::kEvent ||
         dimension == WebDimension::kEventChannel;
}

std::string& FieldOf(WebVisitRow& row, WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage: return row.pages;
    case WebDimension::kEntryPage: return row.entry_page;
    case WebDimension::kExitPage: return row.exit_page;
    case WebDimension::kReferrer: return row.referrer;
    case WebDimension::kUtmSource: return row.utm_source;
    case WebDimension::kUtmMedium: return row.utm_medium;
    case WebDimension::kUtmCampaign: return row.utm_campaign;
    case WebDimension::kUtmTerm: return row.utm_term;
    case WebDimension::kUtmContent: return row.utm_content;
    case WebDimension::kCountry: return row.country;
    case WebDimension::kRegion: return row.region;
    case WebDimension::kCity: return row.city;
    case WebDimension::kBrowser: return row.browser;
    case WebDimension::kOs: return row.os;
    case WebDimension::kDevice: return row.device;
    case WebDimension::kEventChannel: return row.channels;
    case WebDimension::kSource: return row.source;
    case WebDimension::kChannel: return row.channel;
    case WebDimension::kEvent: return row.event_names;
  }
  return row.pages;
}

// " AND …" keeping the visits with the filter's value: equality, or for a list an item of that
// value (found by its marker, which cannot occur across items).
std::string FilterCondition(SqlSession& session, const WebFilter& filter, Sql& sql) {
  const std::string column(ColumnOf(filter.dimension));
  if (!IsList(filter.dimension)) return " AND " + column + " = " + sql.Next(filter.value);
  const std::string marker = sql.Next(ItemMarker(filter.value));
  return session.dialect() == Dialect::kPostgres
             ? " AND strpos(" + column + ", " + marker + ") > 0"
             : " AND instr(" + column + ", " + marker + ") > 0";
}

}  // namespace

Result<void> ReportRepository::InsertWebVisits(std::string_view project_id, std::string_view zone,
                                               std::span<const WebVisitRow> rows) {
  const std::string project(project_id), zone_name(zone);
  return internal::InsertRows(session_, "web_visits", kVisitColumns, rows,
                    [&](const WebVisitRow& r) -> std::vector<SqlValue> {
    return {project, zone_name, r.started_at, internal::Flag(r.in_visit), r.session_id,
            r.visitor, r.events, r.pageviews, internal::Flag(r.bounce), r.duration_ms,
            r.entry_page, r.exit_page, r.referrer, r.utm_source, r.utm_medium, r.utm_campaign,
            r.utm_term, r.utm_content, r.country, r.region, r.city, r.browser, r.os, r.device,
            r.pages, r.event_names, r.channels, r.source, r.channel};
  });
}

Result<std::vector<WebVisitRow>> ReportRepository::ListWebVisits(const WebVisitQuery& q) {
  Sql sql;
  std::string columns(kFigureColumns);
  if (q.values_of) columns += ", " + std::string(ColumnOf(*q.values_of));
  sql.text = "SELECT " + columns + " FROM web_visits WHERE project_id = " +
             sql.Next(q.project_id) + " AND zone = " + sql.Next(q.zone) +
             " AND started_at >= " + sql.Next(q.start_ms) + " AND started_at < " +
             sql.Next(q.end_ms);
  if (q.filter) sql.text += FilterCondition(session_, *q.filter, sql);
  sql.text += " ORDER BY started_at, in_visit, session_id";
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<WebVisitRow> out;
  out.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    WebVisitRow visit;
    visit.started_at = r.Int(0);
    visit.in_visit = r.Bool(1);
    visit.visitor = r.Text(2);
    visit.events = r.Int(3);
    visit.pageviews = r.Int(4);
    visit.bounce = r.Bool(5);
    visit.duration_ms = r.Int(6);
    if (q.values_of) FieldOf(visit, *q.values_of) = r.Text(7);
    out.push_back(std::move(visit));
  }
  return out;
}

}  // namespace sightline::storage
