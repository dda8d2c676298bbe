// The compact event store's writing side: sealing inbox events into the project's column
// blocks (docs/storage.md, "Event blocks"), and the reads every events query shares.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "storage/block_reads.h"
#include "storage/event_blocks.h"
#include "storage/event_repository.h"
#include "storage/event_rows.h"
#include "storage/rollup_marks.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

// A block takes at most this many events; an hour's events beyond it stay in the inbox, where
// every reader still finds them (a project would need 280 events a second for an hour).
constexpr std::size_t kMaxSealedRows = 1'000'000;
// How long the start of a sealed visit is remembered (docs/storage.md).
constexpr std::int64_t kVisitMemoryMs = 7 * 24 * kHourMs;

// The block an event belongs in: its visit's start hour, else the hour it happened in (events
// outside every visit, and a session's events that count for no visit, such as a bot's).
std::int64_t TargetHour(const EventRecord& e, const std::map<std::string, VisitPlace>& places) {
  if (e.session_id) {
    if (const auto found = places.find(*e.session_id); found != places.end()) {
      return HourOf(found->second.started_at);
    }
  }
  return HourOf(e.occurred_at);
}

Result<std::vector<EventRecord>> LoadBlock(SqlSession& session, const std::string& project_id,
                                           std::int64_t hour) {
  auto data = FindOne<std::string>(
      session, "SELECT data FROM event_blocks WHERE project_id = $1 AND hour = $2",
      {project_id, hour}, [](const SqlRow& r) { return r.Text(0); });
  if (!data) return data.error();
  if (!*data) return std::vector<EventRecord>();
  return DecodeEvents(**data, project_id);
}

// A visit's events together and in time order; events outside every visit after them.
void SortVisitMajor(std::vector<EventRecord>& rows) {
  std::sort(rows.begin(), rows.end(), [](const EventRecord& a, const EventRecord& b) {
    // References, not copies: a sort compares each row many times.
    const bool a_outside = !a.session_id, b_outside = !b.session_id;
    return std::tie(a_outside, a.session_id, a.occurred_at, a.id) <
           std::tie(b_outside, b.session_id, b.occurred_at, b.id);
  });
}

Result<void> StoreBlock(SqlSession& session, const std::string& project_id, std::int64_t hour,
                        std::vector<EventRecord>& rows) {
  if (rows.empty()) {
    return ExecuteVoid(session, "DELETE FROM event_blocks WHERE project_id = $1 AND hour = $2",
                       {project_id, hour});
  }
  SortVisitMajor(rows);
  const auto [first, last] = std::minmax_element(
      rows.begin(), rows.end(),
      [](const EventRecord& a, const EventRecord& b) { return a.occurred_at < b.occurred_at; });
  return ExecuteVoid(
      session,
      "INSERT INTO event_blocks (project_id, hour, row_count, first_at, last_at, data) "
      "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, hour) DO UPDATE SET "
      "row_count = excluded.row_count, first_at = excluded.first_at, "
      "last_at = excluded.last_at, data = excluded.data",
      {project_id, hour, static_cast<std::int64_t>(rows.size()), first->occurred_at,
       last->occurred_at, SqlBlob{EncodeEvents(rows)}});
}

Result<void> DeleteInboxRows(SqlSession& session, const std::vector<std::string>& ids) {
  return InChunks(ids, [&](const std::vector<std::string>& chunk) -> Result<void> {
    SqlBuilder sql;
    sql.text = "DELETE FROM events WHERE " + sql.In("id", chunk);
    auto done = session.Execute(sql.text, sql.params);
    if (!done) return done.error();
    return {};
  });
}

Result<void> SetBlockHours(SqlSession& session, const std::string& project_id,
                           const std::map<std::int64_t, std::vector<std::string>>& by_hour) {
  for (const auto& [hour, sessions] : by_hour) {
    auto set = InChunks(sessions, [&](const std::vector<std::string>& chunk) -> Result<void> {
      SqlBuilder sql;
      const std::string hour_param = sql.Next(hour);
      const std::string project = sql.Next(project_id);
      sql.text = "UPDATE visit_starts SET block_hour = " + hour_param +
                 " WHERE project_id = " + project + " AND " + sql.In("session_id", chunk);
      auto done = session.Execute(sql.text, sql.params);
      if (!done) return done.error();
      return {};
    });
    if (!set) return set.error();
  }
  return {};
}

// Forgets the starts of visits sealed whole that started more than kVisitMemoryMs before `now`:
// a visit's events are in its block, and visit_starts would otherwise keep a row per visit
// forever. An event of such a visit arriving later counts as a visit of its own.
Result<void> ForgetOldVisits(SqlSession& session, const std::string& project_id,
                             std::int64_t now) {
  return ExecuteVoid(session,
                     "DELETE FROM visit_starts WHERE project_id = $1 AND started_at < $2 AND "
                     "block_hour IS NOT NULL AND NOT EXISTS (SELECT 1 FROM events e WHERE "
                     "e.project_id = visit_starts.project_id AND "
                     "e.session_id = visit_starts.session_id)",
                     {project_id, now - kVisitMemoryMs});
}

// What one sealing changes: each touched block's rows, and the visits it moves.
class Sealing {
 public:
  Sealing(SqlSession& session, std::string project_id)
      : session_(session), project_id_(std::move(project_id)) {}

  Result<std::size_t> Run(std::vector<EventRecord> inbox) {
    std::set<std::string> sessions;
    for (const EventRecord& e : inbox) {
      if (e.session_id) sessions.insert(*e.session_id);
    }
    auto places = ReadVisitPlaces(session_, project_id_, sessions);
    if (!places) return places.error();
    places_ = std::move(*places);
    for (EventRecord& e : inbox) {
      const std::int64_t hour = TargetHour(e, places_);
      if (auto moved = MoveVisit(e, hour); !moved) return moved.error();
      auto rows = Block(hour);
      if (!rows) return rows.error();
      if ((*rows)->size() >= kMaxSealedRows) continue;
      ids_.push_back(e.id);
      (*rows)->push_back(std::move(e));
    }
    return Finish();
  }

 private:
  // The rows of the block at `hour`, loaded once.
  Result<std::vector<EventRecord>*> Block(std::int64_t hour) {
    auto [it, added] = blocks_.try_emplace(hour);
    if (added) {
      auto rows = LoadBlock(session_, project_id_, hour);
      if (!rows) return rows.error();
      it->second = std::move(*rows);
    }
    return &it->second;
  }

  // A visit whose sealed events sit in another block than its start's (it now starts earlier,
  // in another hour) moves there whole; both hours' rollups are built again.
  Result<void> MoveVisit(const EventRecord& e, std::int64_t hour) {
    if (!e.session_id) return {};
    const auto place = places_.find(*e.session_id);
    if (place == places_.end()) return {};
    sealed_sessions_[hour].push_back(*e.session_id);
    if (!place->second.block_hour || *place->second.block_hour == hour) return {};
    auto from = Block(*place->second.block_hour);
    if (!from) return from.error();
    auto to = Block(hour);
    if (!to) return to.error();
    const auto moving = std::stable_partition(
        (*from)->begin(), (*from)->end(),
        [&](const EventRecord& row) { return row.session_id != e.session_id; });
    std::move(moving, (*from)->end(), std::back_inserter(**to));
    (*from)->erase(moving, (*from)->end());
    moved_hours_.insert({*place->second.block_hour, hour});
    place->second.block_hour = hour;
    return {};
  }

  Result<std::size_t> Finish() {
    for (auto& [hour, rows] : blocks_) {
      if (auto stored = StoreBlock(session_, project_id_, hour, rows); !stored) {
        return stored.error();
      }
    }
    if (auto deleted = DeleteInboxRows(session_, ids_); !deleted) return deleted.error();
    for (auto& [hour, sessions] : sealed_sessions_) {
      std::sort(sessions.begin(), sessions.end());
      sessions.erase(std::unique(sessions.begin(), sessions.end()), sessions.end());
    }
    if (auto set = SetBlockHours(session_, project_id_, sealed_sessions_); !set) {
      return set.error();
    }
    if (!moved_hours_.empty()) {
      if (auto marked = MarkWebHours(session_, project_id_, moved_hours_); !marked) {
        return marked.error();
      }
    }
    return ids_.size();
  }

  SqlSession& session_;
  const std::string project_id_;
  std::map<std::string, VisitPlace> places_;
  std::map<std::int64_t, std::vector<EventRecord>> blocks_;
  std::map<std::int64_t, std::vector<std::string>> sealed_sessions_;
  std::set<std::int64_t> moved_hours_;
  std::vector<std::string> ids_;
};

}  // namespace

namespace internal {

Result<std::vector<std::string>> ReadBlocksOfHours(SqlSession& session,
                                                  const std::string& project_id,
                                                  std::int64_t from_hour, std::int64_t to_hour,
                                                  const std::vector<blocks::ColumnId>* columns) {
  return ReadBlocks(session,
                    {"event_blocks", "project_id = $1 AND hour >= $2 AND hour <= $3",
                     {project_id, from_hour, to_hour}, "hour"},
                    columns);
}

Result<std::vector<RollupEvent>> ReadSealedWebEvents(SqlSession& session,
                                                     const std::string& project_id,
                                                     std::int64_t from_hour, std::int64_t to_hour,
                                                     bool with_tags) {
  auto blocks = ReadBlocksOfHours(session, project_id, from_hour, to_hour);
  if (!blocks) return blocks.error();
  std::vector<RollupEvent> rows;
  for (const std::string& block : *blocks) {
    auto decoded = DecodeWebEvents(block, with_tags);
    if (!decoded) return decoded.error();
    std::move(decoded->begin(), decoded->end(), std::back_inserter(rows));
  }
  return rows;
}

namespace {

bool InFeed(const EventKey& e, const EventQuery& q) {
  if (q.channel && e.channel != *q.channel) return false;
  if (q.event && e.event != *q.event) return false;
  if (q.user_id && e.user_id != q.user_id) return false;
  if (q.from && e.occurred_at < *q.from) return false;
  if (q.to && e.occurred_at >= *q.to) return false;
  return !q.before || std::tie(e.occurred_at, e.id) < std::tie(q.before->first, q.before->second);
}

// Newest first, as the feed pages; ties by id.
bool NewerFirst(const EventRecord& a, const EventRecord& b) {
  return std::tie(a.occurred_at, a.id) > std::tie(b.occurred_at, b.id);
}

// Keeps the `limit` newest.
void KeepNewest(std::vector<EventRecord>& rows, std::size_t limit) {
  if (rows.size() > limit) {
    std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(limit), rows.end(),
                      NewerFirst);
    rows.resize(limit);
  } else {
    std::sort(rows.begin(), rows.end(), NewerFirst);
  }
}

// The rows of one block the feed can show: those its filters pass, the `limit` newest of them.
EventRowChoice FeedRows(const EventQuery& q) {
  return [&q](std::span<const EventKey> keys) {
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < keys.size(); ++r) {
      if (InFeed(keys[r], q)) rows.push_back(r);
    }
    const auto newer = [&keys](std::size_t a, std::size_t b) {
      return std::tie(keys[a].occurred_at, keys[a].id) > std::tie(keys[b].occurred_at, keys[b].id);
    };
    if (rows.size() > q.limit) {
      std::nth_element(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(q.limit),
                       rows.end(), newer);
      rows.resize(q.limit);
    }
    return rows;
  };
}

}  // namespace

Result<std::vector<EventRecord>> ListSealedEvents(SqlSession& session, const EventQuery& q) {
  if (q.limit == 0) return std::vector<EventRecord>();
  // The blocks that may hold a row of the feed's window, the newest last event first: once
  // `limit` rows are found, a block whose last event is older than all of them adds nothing.
  SqlBuilder sql;
  sql.text = "SELECT hour, last_at FROM event_blocks WHERE project_id = " + sql.Next(q.project_id);
  if (q.from) sql.text += " AND last_at >= " + sql.Next(*q.from);
  if (q.to) sql.text += " AND first_at < " + sql.Next(*q.to);
  if (q.before) sql.text += " AND first_at <= " + sql.Next(q.before->first);
  sql.text += " ORDER BY last_at DESC, hour DESC";
  auto blocks = sql.Query(session);
  if (!blocks) return blocks.error();
  std::vector<EventRecord> found;
  const EventRowChoice choose = FeedRows(q);
  for (const SqlRow& block : *blocks) {
    if (found.size() >= q.limit) {
      KeepNewest(found, q.limit);
      if (block.Int(1) < found.back().occurred_at) break;
    }
    auto data = ReadBlocksOfHours(session, q.project_id, block.Int(0), block.Int(0));
    if (!data) return data.error();
    for (const std::string& bytes : *data) {
      auto rows = DecodeEvents(bytes, q.project_id, choose);
      if (!rows) return rows.error();
      std::move(rows->begin(), rows->end(), std::back_inserter(found));
    }
  }
  KeepNewest(found, q.limit);
  return found;
}

}  // namespace internal

Result<std::vector<std::string>> EventRepository::ListProjectsToSeal(
    std::int64_t received_before) {
  return FindAll<std::string>(
      session_,
      "SELECT id FROM projects p WHERE EXISTS (SELECT 1 FROM events e WHERE e.project_id = p.id "
      "AND e.received_at < $1) ORDER BY id",
      {received_before}, [](const SqlRow& r) { return r.Text(0); });
}

Result<std::size_t> EventRepository::SealEvents(std::string_view project_id,
                                                std::int64_t received_before, std::size_t limit,
                                                std::int64_t now) {
  const std::string project(project_id);
  // The lock first: a second sealer of the project waits here, then finds the rows gone.
  if (auto locked = ExecuteVoid(session_,
                                "INSERT INTO event_seals (project_id, sealed_at) VALUES ($1, $2) "
                                "ON CONFLICT (project_id) DO UPDATE SET sealed_at = "
                                "excluded.sealed_at",
                                {project, now});
      !locked) {
    return locked.error();
  }
  auto inbox = FindAll<EventRecord>(
      session_,
      Select(kEventColumns,
             "FROM events WHERE project_id = $1 AND received_at < $2 ORDER BY occurred_at, id "
             "LIMIT $3"),
      {project, received_before, static_cast<std::int64_t>(limit)}, MapEvent);
  if (!inbox) return inbox.error();
  const bool drained = inbox->size() < limit;
  auto sealed = inbox->empty() ? Result<std::size_t>(std::size_t{0})
                               : Sealing(session_, project).Run(std::move(*inbox));
  if (!sealed) return sealed.error();
  // Once the inbox is drained, not after every batch: forgetting reads every old visit start
  // not yet sealed, so a backlog of millions sealed batch by batch (a store upgraded from the
  // previous release) would read them all again each time, quadratic in the backlog.
  if (drained) {
    if (auto forgotten = ForgetOldVisits(session_, project, now); !forgotten) {
      return forgotten.error();
    }
  }
  return sealed;
}

}  // namespace sightline::storage
