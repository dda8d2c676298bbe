// Report rollups, the writing side: marking the hours whose raw rows changed (called by every
// insert of events and crawler requests), and what a builder needs to roll a local day up
// again. The reading side is in report_repository_bots.cpp and report_repository_web.cpp.
#include <algorithm>
#include <map>
#include <set>

#include "storage/report_repository.h"

#include "storage/event_blocks.h"
#include "storage/event_records.h"
#include "storage/event_rows.h"
#include "storage/rollup_marks.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

// Every bot_rollups.kind, as a condition that lets a statement on one period seek through the
// table's key (the kind comes before the period's start).
constexpr std::string_view kEveryKind = "kind IN (0, 1, 2, 3, 4, 5)";
// The kinds rolled up into blocks of days: all but those per path and bot or vendor, nearly
// one row per request on a busy day (a block would hold about as many rows as its days).
constexpr std::string_view kBlockKinds = "kind IN (0, 1, 3, 4)";

bool CountsForWeb(const EventRecord& e) { return !e.is_bot && e.channel != "__analytics"; }

// Visit starts the store already has for `sessions`.
Result<std::map<std::string, std::int64_t>> KnownVisitStarts(
    SqlSession& session, const std::string& project_id,
    const std::map<std::string, std::int64_t>& sessions) {
  std::set<std::string> ids;
  for (const auto& [id, at] : sessions) ids.insert(id);
  // Ingestion's statement reads only the starts (the block hours are the sealing's).
  auto places = ReadVisitPlaces(session, project_id, ids, /*with_block_hour=*/false);
  if (!places) return places.error();
  std::map<std::string, std::int64_t> known;
  for (const auto& [id, place] : *places) known.emplace(id, place.started_at);
  return known;
}

struct VisitStart {
  std::string session_id;
  std::int64_t started_at = 0;
};

Result<void> UpsertVisitStarts(SqlSession& session, const std::string& project_id,
                               const std::vector<VisitStart>& starts) {
  // The earlier start wins whichever process writes first.
  constexpr std::string_view kOnConflict =
      " ON CONFLICT (project_id, session_id) DO UPDATE SET started_at = CASE WHEN "
      "excluded.started_at < visit_starts.started_at THEN excluded.started_at ELSE "
      "visit_starts.started_at END";
  struct Row {
    const std::string* project;
    const VisitStart* start;
  };
  std::vector<Row> rows;
  for (const VisitStart& start : starts) rows.push_back({&project_id, &start});
  for (std::size_t from = 0; from < rows.size(); from += 128) {
    const std::size_t count = std::min<std::size_t>(128, rows.size() - from);
    std::vector<SqlValue> values;
    for (std::size_t i = from; i < from + count; ++i) {
      values.insert(values.end(), {*rows[i].project, rows[i].start->session_id,
                                   rows[i].start->started_at});
    }
    const std::string sql =
        InsertStatement("visit_starts", "project_id, session_id, started_at", count) +
        std::string(kOnConflict);
    auto done = session.Execute(sql, std::span<const SqlValue>(values));
    if (!done) return done.error();
  }
  return {};
}

Result<void> MarkHours(SqlSession& session, const std::string& project_id, RollupSource source,
                       const std::set<std::int64_t>& hours) {
  const std::string source_text(1, static_cast<char>(source));
  std::vector<std::int64_t> list(hours.begin(), hours.end());
  for (std::size_t from = 0; from < list.size(); from += 128) {
    const std::size_t count = std::min<std::size_t>(128, list.size() - from);
    std::vector<SqlValue> values;
    for (std::size_t i = from; i < from + count; ++i) {
      values.insert(values.end(), {project_id, source_text, list[i], std::int64_t{1}});
    }
    const std::string sql =
        InsertStatement("rollup_dirty", "project_id, source, hour, generation", count) +
        " ON CONFLICT (project_id, source, hour) DO UPDATE SET generation = "
        "rollup_dirty.generation + 1";
    auto done = session.Execute(sql, std::span<const SqlValue>(values));
    if (!done) return done.error();
  }
  return {};
}

// Adds to `rows` (the inbox's) the sealed human events of the visits that started in the
// window and those outside every visit that happened in it. A visit starts at its earliest
// human event, sealed or not: a block holds all of a visit's sealed events.
void AddSealedVisits(std::vector<RollupEvent>& sealed, std::int64_t start_ms,
                     std::int64_t end_ms, std::vector<RollupEvent>& rows) {
  std::set<std::string> seen;
  std::map<std::string, std::int64_t> starts;
  const auto started = [&](const std::string& session, std::int64_t at) {
    auto [it, added] = starts.emplace(session, at);
    if (!added) it->second = std::min(it->second, at);
  };
  for (const RollupEvent& r : rows) {
    seen.insert(r.id);
    if (r.session_id) started(*r.session_id, r.occurred_at);
  }
  for (const RollupEvent& e : sealed) {
    if (e.session_id) started(*e.session_id, e.occurred_at);
  }
  for (RollupEvent& e : sealed) {
    if (seen.contains(e.id)) continue;
    const std::int64_t at = e.session_id ? starts[*e.session_id] : e.occurred_at;
    if (at >= start_ms && at < end_ms) rows.push_back(std::move(e));
  }
}

}  // namespace

namespace internal {

Result<void> MarkEventsForRollup(SqlSession& session, std::span<const EventRecord> events) {
  // Per project: each visit's earliest event in the batch, and the hours of events without one.
  std::map<std::string, std::map<std::string, std::int64_t>> visits;
  std::map<std::string, std::set<std::int64_t>> hours;
  for (const EventRecord& e : events) {
    if (!CountsForWeb(e)) continue;
    if (!e.session_id) {
      hours[e.project_id].insert(HourOf(e.occurred_at));
      continue;
    }
    auto [it, inserted] = visits[e.project_id].emplace(*e.session_id, e.occurred_at);
    if (!inserted) it->second = std::min(it->second, e.occurred_at);
  }
  for (const auto& [project_id, sessions] : visits) {
    auto known = KnownVisitStarts(session, project_id, sessions);
    if (!known) return known.error();
    std::vector<VisitStart> moved;  // new visits, and visits that now start earlier
    for (const auto& [session_id, earliest] : sessions) {
      const auto found = known->find(session_id);
      const bool starts_here = found == known->end() || earliest < found->second;
      // A visit's figures belong to the day it started: that day changes, and so does the day
      // it no longer starts on.
      if (found != known->end() && starts_here) hours[project_id].insert(HourOf(found->second));
      hours[project_id].insert(HourOf(starts_here ? earliest : found->second));
      if (starts_here) moved.push_back({session_id, earliest});
    }
    auto upserted = UpsertVisitStarts(session, project_id, moved);
    if (!upserted) return upserted;
  }
  for (const auto& [project_id, project_hours] : hours) {
    auto marked = MarkHours(session, project_id, RollupSource::kWeb, project_hours);
    if (!marked) return marked;
  }
  return {};
}

Result<void> MarkBotRequestsForRollup(SqlSession& session, std::span<const BotRequestRecord> rows) {
  std::map<std::string, std::set<std::int64_t>> hours;
  for (const BotRequestRecord& row : rows) hours[row.project_id].insert(HourOf(row.occurred_at));
  for (const auto& [project_id, project_hours] : hours) {
    auto marked = MarkHours(session, project_id, RollupSource::kBots, project_hours);
    if (!marked) return marked;
  }
  return {};
}

Result<std::map<std::string, VisitPlace>> ReadVisitPlaces(SqlSession& session,
                                                          const std::string& project_id,
                                                          const std::set<std::string>& sessions,
                                                          bool with_block_hour) {
  std::map<std::string, VisitPlace> places;
  const std::vector<std::string> ids(sessions.begin(), sessions.end());
  for (std::size_t from = 0; from < ids.size(); from += kInListChunk) {
    SqlBuilder sql;
    const std::string project = sql.Next(project_id);
    const std::vector<std::string> chunk(
        ids.begin() + static_cast<std::ptrdiff_t>(from),
        ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), from + kInListChunk)));
    sql.text = std::string("SELECT session_id, started_at, ") +
               (with_block_hour ? "block_hour" : "NULL") +
               " FROM visit_starts WHERE project_id = " + project + " AND " +
               sql.In("session_id", chunk);
    auto rows = sql.Query(session);
    if (!rows) return rows.error();
    for (const SqlRow& r : *rows) places.emplace(r.Text(0), VisitPlace{r.Int(1), r.OptInt(2)});
  }
  return places;
}

Result<void> MarkWebHours(SqlSession& session, const std::string& project_id,
                          const std::set<std::int64_t>& hours) {
  return MarkHours(session, project_id, RollupSource::kWeb, hours);
}

}  // namespace internal

Result<std::vector<RollupMark>> ReportRepository::ListRollupMarks(std::string_view project_id) {
  return FindAll<RollupMark>(
      session_,
      "SELECT source, hour, generation FROM rollup_dirty WHERE project_id = $1 ORDER BY hour",
      {std::string(project_id)}, [](const SqlRow& r) {
        const std::string source = r.Text(0);
        return RollupMark{source == "b" ? RollupSource::kBots : RollupSource::kWeb, r.Int(1),
                          r.Int(2)};
      });
}

Result<std::vector<std::string>> ReportRepository::ListProjectsWithRollupMarks() {
  return FindAll<std::string>(session_, "SELECT DISTINCT project_id FROM rollup_dirty", {},
                              [](const SqlRow& r) { return r.Text(0); });
}

Result<void> ReportRepository::ClearRollupMarks(std::string_view project_id,
                                          std::span<const RollupMark> marks) {
  for (const RollupMark& mark : marks) {
    const std::string source(1, static_cast<char>(mark.source));
    auto done = ExecuteVoid(session_,
                            "DELETE FROM rollup_dirty WHERE project_id = $1 AND source = $2 AND "
                            "hour = $3 AND generation = $4",
                            {std::string(project_id), source, mark.hour, mark.generation});
    if (!done) return done;
  }
  return {};
}

Result<std::vector<std::int64_t>> ReportRepository::ListRollupDays(std::string_view project_id,
                                                             std::string_view zone,
                                                             std::int64_t start_ms,
                                                             std::int64_t end_ms) {
  return FindAll<std::int64_t>(
      session_,
      "SELECT day_start FROM rollup_days WHERE project_id = $1 AND zone = $2 AND day_start >= $3 "
      "AND day_start < $4 ORDER BY day_start",
      {std::string(project_id), std::string(zone), start_ms, end_ms},
      [](const SqlRow& r) { return r.Int(0); });
}

Result<void> ReportRepository::ClaimRollupDay(std::string_view project_id, std::string_view zone,
                                        std::int64_t day_start, std::int64_t built_at) {
  // Writing the row first locks it (PostgreSQL), so two builders of one day take turns.
  return ExecuteVoid(session_,
                     "INSERT INTO rollup_days (project_id, zone, day_start, built_at) VALUES ($1, "
                     "$2, $3, $4) ON CONFLICT (project_id, zone, day_start) DO UPDATE SET "
                     "built_at = excluded.built_at",
                     {std::string(project_id), std::string(zone), day_start, built_at});
}

Result<bool> ReportRepository::HasRollupsOfOtherZones(std::string_view project_id,
                                                std::string_view zone) {
  auto found = FindOne<bool>(
      session_, "SELECT 1 FROM rollup_days WHERE project_id = $1 AND zone <> $2 LIMIT 1",
      {std::string(project_id), std::string(zone)}, [](const SqlRow&) { return true; });
  if (!found) return found.error();
  return found->has_value();
}

Result<void> ReportRepository::DeleteRollupsOfOtherZones(std::string_view project_id,
                                                   std::string_view zone) {
  for (std::string_view table :
       {"web_rollups", "web_rollup_visitors", "visit_blocks", "bot_rollups", "rollup_days",
        "rollup_blocks"}) {
    auto done = ExecuteVoid(session_,
                            "DELETE FROM " + std::string(table) +
                                " WHERE project_id = $1 AND zone <> $2",
                            {std::string(project_id), std::string(zone)});
    if (!done) return done;
  }
  return {};
}

Result<void> ReportRepository::ForgetRollups(std::string_view project_id) {
  for (std::string_view table : {"rollup_days", "rollup_blocks"}) {
    auto done = ExecuteVoid(session_, "DELETE FROM " + std::string(table) + " WHERE project_id = $1",
                            {std::string(project_id)});
    if (!done) return done;
  }
  return {};
}

Result<void> ReportRepository::DeleteRollups(std::string_view project_id, std::string_view zone,
                                       RollupSource source, std::int64_t start_ms,
                                       std::int64_t end_ms) {
  // Days and hours only (a block starting on the day stays).
  const std::string project(project_id), zone_name(zone);
  if (source == RollupSource::kBots) {
    // Every key column before the start time is named so that the delete seeks instead of
    // scanning the project's rollups.
    return ExecuteVoid(session_,
                       "DELETE FROM bot_rollups WHERE project_id = $1 AND zone = $2 AND span IN "
                       "(0, 1) AND " + std::string(kEveryKind) +
                           " AND period_start >= $3 AND period_start < $4",
                       {project, zone_name, start_ms, end_ms});
  }
  for (std::string_view table : {"web_rollups", "web_rollup_visitors"}) {
    auto deleted = ExecuteVoid(session_,
                               "DELETE FROM " + std::string(table) +
                                   " WHERE project_id = $1 AND zone = $2 AND span IN (0, 1) AND "
                                   "period_start >= $3 AND period_start < $4",
                               {project, zone_name, start_ms, end_ms});
    if (!deleted) return deleted;
  }
  return ExecuteVoid(session_,
                     "DELETE FROM visit_blocks WHERE project_id = $1 AND zone = $2 AND "
                     "day_start >= $3 AND day_start < $4",
                     {project, zone_name, start_ms, end_ms});
}

// An inbox with at most this many events of a project from a window's start on is read by
// scanning them (ListInboxRollupEvents).
constexpr std::int64_t kInboxScanRows = 20'000;

// The inbox's part of ListRollupEvents: every event of the visits that started in the
// window, wherever they happened, and the window's events that belong to no visit.
Result<std::vector<RollupEvent>> ReportRepository::ListInboxRollupEvents(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms, bool with_tags) {
  const std::string columns =
      "SELECT id, events.session_id, COALESCE(anonymous_id, user_id, daily_visitor, ''), "
      "occurred_at, "
      "event, channel, COALESCE(traffic_source, ''), COALESCE(traffic_channel, ''), "
      "COALESCE(path, ''), COALESCE(referrer, ''), COALESCE(utm_source, ''), "
      "COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), "
      "COALESCE(utm_content, ''), COALESCE(country, ''), COALESCE(region, ''), "
      "COALESCE(city, ''), COALESCE(browser, ''), COALESCE(os, ''), COALESCE(device, '')" +
      std::string(with_tags ? ", tags " : " ") + "FROM events ";
  constexpr std::string_view kHuman = "AND is_bot = 0 AND channel <> '__analytics'";
  const auto map = [with_tags](const SqlRow& r) {
    RollupEvent e;
    std::size_t i = 0;
    e.id = r.Text(i++);
    e.session_id = r.OptText(i++);
    e.visitor = r.Text(i++);
    e.occurred_at = r.Int(i++);
    for (std::string* field : {&e.event, &e.event_channel, &e.source, &e.channel, &e.path,
                               &e.referrer, &e.utm_source, &e.utm_medium, &e.utm_campaign,
                               &e.utm_term, &e.utm_content, &e.country, &e.region, &e.city,
                               &e.browser, &e.os, &e.device}) {
      *field = r.Text(i++);
    }
    if (with_tags) e.tags = r.Text(i++);
    return e;
  };
  // Which side drives the join. The inbox holds the last minutes, while visit_starts remembers
  // a week of sealed visits: probing the inbox once per visit start of the window cost seconds
  // a query at 10M events, so a small inbox is read by its own events from the window's start
  // on (a visit's events all happened at or after its start; CROSS JOIN fixes SQLite's order).
  // A large one (a backlog being sealed, as after an upgrade) would be read again for every
  // day of a window that way, so it is probed by the window's visit starts instead.
  auto recent = session_.Query(
      "SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE project_id = $1 AND occurred_at >= $2 "
      "LIMIT $3) AS recent",
      {std::string(project_id), start_ms, kInboxScanRows + 1});
  if (!recent) return recent.error();
  const bool small = recent->empty() || recent->front().Int(0) <= kInboxScanRows;
  const std::string visits_of_window =
      small ? "CROSS JOIN visit_starts v WHERE events.project_id = $1 AND occurred_at >= $2 AND "
              "v.project_id = events.project_id AND v.session_id = events.session_id AND "
              "v.started_at >= $2 AND v.started_at < $3 "
            : "WHERE project_id = $1 AND events.session_id IN (SELECT session_id FROM "
              "visit_starts WHERE project_id = $1 AND started_at >= $2 AND started_at < $3) ";
  auto visits = FindAll<RollupEvent>(session_, columns + visits_of_window + std::string(kHuman),
                                     {std::string(project_id), start_ms, end_ms}, map);
  if (!visits) return visits.error();
  auto loose = FindAll<RollupEvent>(
      session_,
      columns +
          "WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3 AND session_id IS "
          "NULL " + std::string(kHuman),
      {std::string(project_id), start_ms, end_ms}, map);
  if (!loose) return loose.error();
  visits->insert(visits->end(), std::make_move_iterator(loose->begin()),
                 std::make_move_iterator(loose->end()));
  return visits;
}

Result<std::vector<RollupEvent>> ReportRepository::ListRollupEvents(std::string_view project_id,
                                                              std::int64_t start_ms,
                                                              std::int64_t end_ms,
                                                              bool with_tags) {
  auto visits = ListInboxRollupEvents(project_id, start_ms, end_ms, with_tags);
  if (!visits) return visits.error();
  // Then the sealed events of the window's hours; a sealing that committed since the inbox
  // was read moved rows there, which are dropped as seen.
  auto sealed = ReadSealedWebEvents(session_, std::string(project_id), HourOf(start_ms),
                                    HourOf(end_ms - 1), with_tags);
  if (!sealed) return sealed.error();
  AddSealedVisits(*sealed, start_ms, end_ms, *visits);
  return visits;
}

Result<WebWindowRows> ReportRepository::ReadWebWindow(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms, bool with_tags,
    const std::vector<blocks::ColumnId>* columns) {
  WebWindowRows rows;
  auto inbox = ListInboxRollupEvents(project_id, start_ms, end_ms, with_tags);
  if (!inbox) return inbox.error();
  rows.inbox = std::move(*inbox);
  std::vector<blocks::ColumnId> read;
  if (columns != nullptr) {
    read = *columns;
    if (!rows.inbox.empty()) read.push_back(static_cast<blocks::ColumnId>(EventColumn::kId));
  }
  auto blocks = ReadBlocksOfHours(session_, std::string(project_id), HourOf(start_ms),
                                  HourOf(end_ms - 1), columns != nullptr ? &read : nullptr);
  if (!blocks) return blocks.error();
  rows.blocks = std::move(*blocks);
  return rows;
}

Result<std::vector<BotRequestRecord>> ReportRepository::ListBotRequests(
    std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms) {
  return FindAll<BotRequestRecord>(
      session_,
      "SELECT occurred_at, host, path, country, bot_name, bot_vendor, actor_category, "
      "actor_type, is_ai FROM bot_requests WHERE project_id = $1 AND occurred_at >= $2 AND "
      "occurred_at < $3",
      {std::string(project_id), start_ms, end_ms}, [](const SqlRow& r) {
        BotRequestRecord row;
        row.occurred_at = r.Int(0);
        row.host = r.OptText(1);
        row.path = r.OptText(2);
        row.country = r.OptText(3);
        row.bot_name = r.OptText(4);
        row.bot_vendor = r.OptText(5);
        row.actor_category = r.OptText(6);
        row.actor_type = r.Text(7);
        row.is_ai = r.Bool(8);
        return row;
      });
}

Result<void> ReportRepository::RollUpBotRequests(std::string_view project_id, std::string_view zone,
                                           std::span<const std::int64_t> hour_starts,
                                           std::int64_t day_end) {
  if (hour_starts.empty()) return {};
  // What each kind keeps of a request: `agent` (bot_name, bot_vendor, actor_category, is_ai,
  // actor_type) and `value`, constants for the columns it drops; `key` is what it groups by
  // (PostgreSQL refuses a literal in GROUP BY, so the constants are left out).
  struct Kind {
    RollupSpan span;
    BotRollupKind kind;
    std::string_view agent;
    std::string_view value;
    std::string_view key;
  };
  constexpr std::string_view kAgent =
      "COALESCE(bot_name, ''), COALESCE(bot_vendor, ''), COALESCE(actor_category, ''), is_ai, "
      "actor_type";
  constexpr std::string_view kBotOnly = "COALESCE(bot_name, ''), '', '', 0, ''";
  constexpr std::string_view kVendorOnly = "'', COALESCE(bot_vendor, ''), '', 0, ''";
  constexpr std::string_view kNoAgent = "'', '', '', 0, ''";
  constexpr std::string_view kCountry = "COALESCE(country, '')";
  constexpr std::string_view kPath = "COALESCE(path, '')";
  const std::string agent_and_country = std::string(kAgent) + ", " + std::string(kCountry);
  const std::string agent_and_path = std::string(kAgent) + ", " + std::string(kPath);
  const std::string bot_and_country = "COALESCE(bot_name, ''), " + std::string(kCountry);
  const std::string vendor_and_path = "COALESCE(bot_vendor, ''), " + std::string(kPath);
  const Kind kinds[] = {
      {RollupSpan::kDay, BotRollupKind::kAgent, kAgent, "''", kAgent},
      {RollupSpan::kHour, BotRollupKind::kAgent, kAgent, "''", kAgent},
      {RollupSpan::kDay, BotRollupKind::kCountry, kAgent, kCountry, agent_and_country},
      {RollupSpan::kDay, BotRollupKind::kPath, kAgent, kPath, agent_and_path},
      {RollupSpan::kDay, BotRollupKind::kCountryBot, kBotOnly, kCountry, bot_and_country},
      {RollupSpan::kDay, BotRollupKind::kPathOnly, kNoAgent, kPath, kPath},
      {RollupSpan::kDay, BotRollupKind::kPathVendor, kVendorOnly, kPath, vendor_and_path},
  };
  for (const Kind& k : kinds) {
    SqlBuilder sql;
    const std::string project = sql.Next(std::string(project_id));
    const std::string zone_param = sql.Next(std::string(zone));
    std::string period;
    if (k.span == RollupSpan::kDay) {
      period = "CAST(" + sql.Next(hour_starts.front()) + " AS BIGINT)";
    } else {
      // The local hour holding the request: the last hour start at or before it.
      period = "CASE";
      for (std::size_t i = hour_starts.size() - 1; i > 0; --i) {
        period += " WHEN occurred_at >= " + sql.Next(hour_starts[i]) + " THEN CAST(" +
                  sql.Next(hour_starts[i]) + " AS BIGINT)";
      }
      period += " ELSE CAST(" + sql.Next(hour_starts.front()) + " AS BIGINT) END";
    }
    const std::string start = sql.Next(hour_starts.front());
    const std::string end = sql.Next(day_end);
    const std::string group_by =
        std::string(k.key) + (k.span == RollupSpan::kHour ? ", " + period : "");
    sql.text = "INSERT INTO bot_rollups (project_id, zone, span, kind, period_start, bot_name, "
               "bot_vendor, actor_category, is_ai, actor_type, value, requests) SELECT CAST(" +
               project + " AS TEXT), CAST(" + zone_param + " AS TEXT), " +
               std::to_string(static_cast<std::int64_t>(k.span)) + ", " +
               std::to_string(static_cast<std::int64_t>(k.kind)) + ", " + period + ", " +
               std::string(k.agent) + ", " + std::string(k.value) +
               ", COUNT(*) FROM bot_requests WHERE project_id = " + project +
               " AND occurred_at >= " + start + " AND occurred_at < " + end + " GROUP BY " +
               group_by;
    auto done = session_.QueryOnce(sql.text, std::span<const SqlValue>(sql.params));
    if (!done) return done.error();
  }
  return {};
}

// ---- Blocks of days

Result<std::vector<RollupBlock>> ReportRepository::ListRollupBlocks(std::string_view project_id,
                                                              std::string_view zone,
                                                              std::int64_t start_ms,
                                                              std::int64_t end_ms) {
  return FindAll<RollupBlock>(
      session_,
      "SELECT span, block_start FROM rollup_blocks WHERE project_id = $1 AND zone = $2 AND "
      "block_start >= $3 AND block_start < $4 AND built_at > 0 ORDER BY span, block_start",
      {std::string(project_id), std::string(zone), start_ms, end_ms},
      [](const SqlRow& r) { return RollupBlock{static_cast<RollupSpan>(r.Int(0)), r.Int(1)}; });
}

Result<void> ReportRepository::ResetRollupBlock(std::string_view project_id, std::string_view zone,
                                          const RollupBlock& block) {
  // The upsert comes first: it locks the block's row (PostgreSQL), so a builder of the block
  // and a rebuild of one of its days take turns.
  const std::string project(project_id), zone_name(zone);
  const auto span = static_cast<std::int64_t>(block.span);
  auto reset = ExecuteVoid(session_,
                           "INSERT INTO rollup_blocks (project_id, zone, span, block_start, "
                           "built_at) VALUES ($1, $2, $3, $4, 0) ON CONFLICT (project_id, zone, "
                           "span, block_start) DO UPDATE SET built_at = 0",
                           {project, zone_name, span, block.start_ms});
  if (!reset) return reset;
  for (std::string_view table : {"web_rollups", "web_rollup_visitors"}) {
    auto web = ExecuteVoid(session_,
                           "DELETE FROM " + std::string(table) +
                               " WHERE project_id = $1 AND zone = $2 AND span = $3 AND "
                               "period_start = $4",
                           {project, zone_name, span, block.start_ms});
    if (!web) return web;
  }
  return ExecuteVoid(session_,
                     "DELETE FROM bot_rollups WHERE project_id = $1 AND zone = $2 AND span = $3 "
                     "AND " + std::string(kEveryKind) + " AND period_start = $4",
                     {project, zone_name, span, block.start_ms});
}

Result<void> ReportRepository::FinishRollupBlock(std::string_view project_id, std::string_view zone,
                                           const RollupBlock& block, std::int64_t built_at) {
  return ExecuteVoid(session_,
                     "UPDATE rollup_blocks SET built_at = $5 WHERE project_id = $1 AND zone = $2 "
                     "AND span = $3 AND block_start = $4",
                     {std::string(project_id), std::string(zone),
                      static_cast<std::int64_t>(block.span), block.start_ms, built_at});
}

Result<void> ReportRepository::RollUpBotBlock(std::string_view project_id, std::string_view zone,
                                        const RollupBlock& block, const RollupPeriods& halves) {
  SqlBuilder sql;
  const std::string project = sql.Next(std::string(project_id));
  const std::string zone_param = sql.Next(std::string(zone));
  constexpr std::string_view kKey =
      "kind, bot_name, bot_vendor, actor_category, is_ai, actor_type, value";
  sql.text = "INSERT INTO bot_rollups (project_id, zone, span, kind, period_start, bot_name, "
             "bot_vendor, actor_category, is_ai, actor_type, value, requests) SELECT CAST(" +
             project + " AS TEXT), CAST(" + zone_param + " AS TEXT), " +
             std::to_string(static_cast<std::int64_t>(block.span)) + ", kind, CAST(" +
             sql.Next(block.start_ms) + " AS BIGINT), bot_name, bot_vendor, actor_category, "
             "is_ai, actor_type, value, SUM(requests) FROM bot_rollups WHERE project_id = " +
             project + " AND zone = " + zone_param + " AND span = " +
             std::to_string(static_cast<std::int64_t>(halves.span)) + " AND " +
             std::string(kBlockKinds) + " AND " + sql.In("period_start", halves.starts) +
             " GROUP BY " + std::string(kKey);
  auto done = sql.Query(session_);
  if (!done) return done.error();
  return {};
}

}  // namespace sightline::storage
