// Data access for tracked events, crawler requests and the ingestion pipeline's state
// (sessions, identities, usage counters, notifications). See event_repository.h for the contracts.
#include "storage/event_repository.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "storage/event_rows.h"
#include "storage/rollup_marks.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kBotColumns =
    "id, project_id, occurred_at, received_at, event, source, ip, user_agent, method, host, "
    "path, referrer, actor_type, bot_name, bot_vendor, actor_category, actor_verified, "
    "verification_method, actor_confidence, is_ai, country, counts_toward_usage";

std::vector<SqlValue> BotParams(const BotRequestRecord& b) {
  return {b.id,
          b.project_id,
          b.occurred_at,
          b.received_at,
          b.event,
          b.source,
          Nullable(b.ip),
          b.user_agent,
          Nullable(b.method),
          Nullable(b.host),
          Nullable(b.path),
          Nullable(b.referrer),
          b.actor_type,
          Nullable(b.bot_name),
          Nullable(b.bot_vendor),
          Nullable(b.actor_category),
          Flag(b.actor_verified),
          b.verification_method,
          b.actor_confidence,
          Flag(b.is_ai),
          Nullable(b.country),
          Flag(b.counts_toward_usage)};
}

BotRequestRecord MapBot(const SqlRow& r) {
  BotRequestRecord b;
  b.id = r.Text(0);
  b.project_id = r.Text(1);
  b.occurred_at = r.Int(2);
  b.received_at = r.Int(3);
  b.event = r.Text(4);
  b.source = r.Text(5);
  b.ip = r.OptText(6);
  b.user_agent = r.Text(7);
  b.method = r.OptText(8);
  b.host = r.OptText(9);
  b.path = r.OptText(10);
  b.referrer = r.OptText(11);
  b.actor_type = r.Text(12);
  b.bot_name = r.OptText(13);
  b.bot_vendor = r.OptText(14);
  b.actor_category = r.OptText(15);
  b.actor_verified = r.Bool(16);
  b.verification_method = r.Text(17);
  b.actor_confidence = r.Double(18);
  b.is_ai = r.Bool(19);
  b.country = r.OptText(20);
  b.counts_toward_usage = r.Bool(21);
  return b;
}

}  // namespace

// ---- Events and bot requests ----------------------------------------------------------------

Result<void> EventRepository::InsertEvents(std::span<const EventRecord> events) {
  auto inserted = InsertRows(session_, "events", kEventColumns, events, EventParams);
  if (!inserted) return inserted;
  return internal::MarkEventsForRollup(session_, events);
}

Result<std::vector<EventRecord>> EventRepository::ListRecentEvents(std::string_view project_id,
                                                              std::size_t limit) {
  return ListEvents({.project_id = std::string(project_id), .limit = limit});
}

Result<void> EventRepository::InsertBotRequests(std::span<const BotRequestRecord> rows) {
  auto inserted = InsertRows(session_, "bot_requests", kBotColumns, rows, BotParams);
  if (!inserted) return inserted;
  return internal::MarkBotRequestsForRollup(session_, rows);
}

Result<std::vector<BotRequestRecord>> EventRepository::ListRecentBotRequests(
    std::string_view project_id, std::size_t limit) {
  return FindAll<BotRequestRecord>(
      session_,
      Select(kBotColumns,
             "FROM bot_requests WHERE project_id = $1 ORDER BY occurred_at DESC, id DESC "
             "LIMIT $2"),
      {std::string(project_id), static_cast<std::int64_t>(limit)}, MapBot);
}

Result<std::vector<BotRequestRecord>> EventRepository::ListBotRequestsToSeal(
    std::string_view project_id, std::int64_t received_before, std::size_t limit) {
  static const std::string sql =
      Select(kBotColumns,
             "FROM bot_requests WHERE project_id = $1 AND received_at < $2 "
             "ORDER BY occurred_at, id LIMIT $3");
  return FindAll<BotRequestRecord>(
      session_, sql,
      {std::string(project_id), received_before, static_cast<std::int64_t>(limit)}, MapBot);
}

Result<std::size_t> EventRepository::DeleteBotRequests(std::string_view project_id,
                                                       std::span<const std::string> ids) {
  std::size_t deleted = 0;
  auto done = InChunks(ids, [&](const std::vector<std::string>& chunk) -> Result<void> {
    SqlBuilder sql;
    const std::string project = sql.Next(std::string(project_id));
    sql.text = "DELETE FROM bot_requests WHERE project_id = " + project + " AND " +
               sql.In("id", chunk);
    auto changed = session_.Execute(sql.text, sql.params);
    if (!changed) return changed.error();
    deleted += static_cast<std::size_t>(*changed);
    return {};
  });
  if (!done) return done.error();
  return deleted;
}

// ---- Sessions, identities, usage, notifications, the events feed -----------------------------

Result<std::string> EventRepository::TouchVisitorSession(std::string_view project_id,
                                                    std::string_view visitor_key,
                                                    std::string_view candidate_session_id,
                                                    std::int64_t at, std::int64_t inactivity_ms,
                                                    std::int64_t* last_seen_after) {
  // The decision happens inside the UPSERT, so it is atomic whichever process runs it.
  auto session = FindOne<std::pair<std::string, std::int64_t>>(
      session_,
      "INSERT INTO visitor_sessions (project_id, visitor_key, session_id, last_seen_at) "
      "VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, visitor_key) DO UPDATE SET "
      "session_id = CASE WHEN excluded.last_seen_at - visitor_sessions.last_seen_at >= $5 "
      "THEN excluded.session_id ELSE visitor_sessions.session_id END, "
      "last_seen_at = CASE WHEN excluded.last_seen_at > visitor_sessions.last_seen_at "
      "THEN excluded.last_seen_at ELSE visitor_sessions.last_seen_at END "
      "RETURNING session_id, last_seen_at",
      {std::string(project_id), std::string(visitor_key), std::string(candidate_session_id), at,
       inactivity_ms},
      [](const SqlRow& r) { return std::make_pair(r.Text(0), r.Int(1)); });
  if (!session) return session.error();
  if (!*session) return core::Error::Internal("visitor session upsert returned no row");
  if (last_seen_after) *last_seen_after = (*session)->second;
  return std::move((*session)->first);
}

Result<std::string> EventRepository::DailyVisitorSalt(std::int64_t day,
                                                     std::string_view candidate) {
  if (auto old = ExecuteVoid(session_, "DELETE FROM visitor_salts WHERE day < $1", {day - 1});
      !old) {
    return old.error();
  }
  if (auto put = ExecuteVoid(session_,
                             "INSERT INTO visitor_salts (day, salt) VALUES ($1, $2) "
                             "ON CONFLICT (day) DO NOTHING",
                             {day, std::string(candidate)});
      !put) {
    return put.error();
  }
  auto salt = FindOne<std::string>(session_, "SELECT salt FROM visitor_salts WHERE day = $1",
                                   {day}, [](const SqlRow& r) { return r.Text(0); });
  if (!salt) return salt.error();
  if (!*salt) return core::Error::Internal("visitor salt missing after its insert");
  return std::move(**salt);
}

Result<void> EventRepository::PutVisitorSession(std::string_view project_id,
                                           std::string_view visitor_key,
                                           std::string_view session_id,
                                           std::int64_t last_seen_at) {
  return ExecuteVoid(session_,
                     "INSERT INTO visitor_sessions (project_id, visitor_key, session_id, "
                     "last_seen_at) VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, visitor_key) "
                     "DO UPDATE SET session_id = excluded.session_id, "
                     "last_seen_at = excluded.last_seen_at",
                     {std::string(project_id), std::string(visitor_key), std::string(session_id),
                      last_seen_at});
}

Result<void> EventRepository::PutIdentity(const IdentityRecord& i) {
  return ExecuteVoid(session_,
                     "INSERT INTO identities (project_id, anonymous_id, user_id, traits, "
                     "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) "
                     "ON CONFLICT (project_id, anonymous_id) DO UPDATE SET "
                     "user_id = excluded.user_id, traits = excluded.traits, "
                     "updated_at = excluded.updated_at",
                     {i.project_id, i.anonymous_id, i.user_id, i.traits_json, i.created_at,
                      i.updated_at});
}

Result<std::optional<IdentityRecord>> EventRepository::FindIdentity(std::string_view project_id,
                                                               std::string_view anonymous_id) {
  return FindOne<IdentityRecord>(
      session_,
      "SELECT project_id, anonymous_id, user_id, traits, created_at, updated_at FROM identities "
      "WHERE project_id = $1 AND anonymous_id = $2",
      {std::string(project_id), std::string(anonymous_id)}, [](const SqlRow& r) {
        return IdentityRecord{r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Int(4), r.Int(5)};
      });
}

Result<void> EventRepository::AddUsage(const UsageRecord& d) {
  return ExecuteVoid(session_,
                     "INSERT INTO usage_counters (project_id, month, human_events, bot_events) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, month) DO UPDATE SET "
                     "human_events = usage_counters.human_events + excluded.human_events, "
                     "bot_events = usage_counters.bot_events + excluded.bot_events",
                     {d.project_id, d.month, d.human_events, d.bot_events});
}

Result<std::vector<UsageRecord>> EventRepository::ListUsage(std::string_view project_id) {
  return FindAll<UsageRecord>(
      session_,
      "SELECT project_id, month, human_events, bot_events FROM usage_counters "
      "WHERE project_id = $1 ORDER BY month DESC",
      {std::string(project_id)},
      [](const SqlRow& r) { return UsageRecord{r.Text(0), r.Text(1), r.Int(2), r.Int(3)}; });
}

namespace {
constexpr std::string_view kNotificationColumns =
    "id, project_id, event_id, event, channel, icon, description, user_id, created_at";
std::vector<SqlValue> NotificationParams(const NotificationRecord& n) {
  return {n.id,          n.project_id,          n.event_id,        n.event,
          n.channel,     Nullable(n.icon),      Nullable(n.description),
          Nullable(n.user_id), n.created_at};
}
NotificationRecord MapNotification(const SqlRow& r) {
  return {r.Text(0),    r.Text(1),    r.Text(2),    r.Text(3), r.Text(4),
          r.OptText(5), r.OptText(6), r.OptText(7), r.Int(8)};
}
}  // namespace

Result<void> EventRepository::InsertNotifications(std::span<const NotificationRecord> rows) {
  return InsertRows(session_, "notifications", kNotificationColumns, rows, NotificationParams);
}

Result<std::vector<NotificationRecord>> EventRepository::ListNotifications(
    std::string_view project_id, std::optional<std::pair<std::int64_t, std::string>> before,
    std::size_t limit) {
  static const std::string sql = Select(
      kNotificationColumns,
      "FROM notifications WHERE project_id = $1 "
      "AND (CAST($2 AS BIGINT) IS NULL OR created_at < $2 OR (created_at = $2 AND id < $3)) "
      "ORDER BY created_at DESC, id DESC LIMIT $4");
  return FindAll<NotificationRecord>(
      session_, sql,
      {std::string(project_id), Nullable(before ? std::optional(before->first) : std::nullopt),
       Nullable(before ? std::optional(before->second) : std::nullopt),
       static_cast<std::int64_t>(limit)},
      MapNotification);
}

Result<std::vector<NotificationRecord>> EventRepository::ListNotificationsAfter(
    std::string_view project_id, std::pair<std::int64_t, std::string> after, std::size_t limit) {
  static const std::string sql = Select(
      kNotificationColumns,
      "FROM notifications WHERE project_id = $1 "
      "AND (created_at > $2 OR (created_at = $2 AND id > $3)) "
      "ORDER BY created_at, id LIMIT $4");
  return FindAll<NotificationRecord>(
      session_, sql,
      {std::string(project_id), after.first, after.second, static_cast<std::int64_t>(limit)},
      MapNotification);
}

// One statement for every combination of filters: an absent filter is a NULL parameter (the
// CASTs type the parameters for PostgreSQL).
Result<std::vector<EventRecord>> EventRepository::ListEvents(const EventQuery& q) {
  static const std::string sql =
      Select(kEventColumns,
             "FROM events WHERE project_id = $1 "
             "AND (CAST($2 AS TEXT) IS NULL OR channel = $2) "
             "AND (CAST($3 AS TEXT) IS NULL OR event = $3) "
             "AND (CAST($4 AS TEXT) IS NULL OR user_id = $4) "
             "AND (CAST($5 AS BIGINT) IS NULL OR occurred_at >= $5) "
             "AND (CAST($6 AS BIGINT) IS NULL OR occurred_at < $6) "
             "AND (CAST($7 AS BIGINT) IS NULL OR occurred_at < $7 "
             "     OR (occurred_at = $7 AND id < $8)) "
             "ORDER BY occurred_at DESC, id DESC LIMIT $9");
  auto inbox = FindAll<EventRecord>(
      session_, sql,
      {q.project_id, Nullable(q.channel), Nullable(q.event), Nullable(q.user_id),
       Nullable(q.from), Nullable(q.to),
       Nullable(q.before ? std::optional(q.before->first) : std::nullopt),
       Nullable(q.before ? std::optional(q.before->second) : std::nullopt),
       static_cast<std::int64_t>(q.limit)},
      MapEvent);
  if (!inbox) return inbox.error();
  // The inbox first: a sealing that commits in between moves rows into a block, where they
  // are found again (and dropped as seen), never lost.
  auto sealed = ListSealedEvents(session_, q);
  if (!sealed) return sealed.error();
  std::set<std::string> seen;
  for (const EventRecord& e : *inbox) seen.insert(e.id);
  for (EventRecord& e : *sealed) {
    if (!seen.contains(e.id)) inbox->push_back(std::move(e));
  }
  std::sort(inbox->begin(), inbox->end(), [](const EventRecord& a, const EventRecord& b) {
    return std::tie(a.occurred_at, a.id) > std::tie(b.occurred_at, b.id);
  });
  if (inbox->size() > q.limit) inbox->resize(q.limit);
  return inbox;
}

Result<void> EventRepository::PutBotRangeList(const BotRangeListRecord& list) {
  return ExecuteVoid(session_,
                     "INSERT INTO bot_ip_ranges (list_id, body, fetched_at) VALUES ($1, $2, $3) "
                     "ON CONFLICT (list_id) DO UPDATE SET body = excluded.body, "
                     "fetched_at = excluded.fetched_at",
                     {list.list_id, list.body, list.fetched_at});
}

Result<std::vector<BotRangeListRecord>> EventRepository::ListBotRangeLists() {
  return FindAll<BotRangeListRecord>(
      session_, "SELECT list_id, body, fetched_at FROM bot_ip_ranges ORDER BY list_id", {},
      [](const SqlRow& r) { return BotRangeListRecord{r.Text(0), r.Text(1), r.Int(2)}; });
}

}  // namespace sightline::storage
