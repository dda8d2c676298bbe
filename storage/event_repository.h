// Events: the queries over tracked events, crawler requests, visitor sessions, identities, monthly
// usage, notifications and the vendors' IP-range lists, written once over SqlSession and run
// unchanged on SQLite and PostgreSQL. Reached from a Transaction (`tx.events()`); lives for one
// transaction and is used by one thread. Lookups return nullopt for "not there"; errors are storage
// failures, or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/event_records.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class EventRepository {
 public:
  explicit EventRepository(SqlSession& session) : session_(session) {}

  // The visitor's session at `at`: the current one when the visitor was last seen less than
  // `inactivity_ms` before, else `candidate_session_id`, which becomes current. One atomic
  // UPSERT, so concurrent writers (any process) agree. When `last_seen_after` is given, it
  // receives the visitor's last_seen_at after the upsert (never earlier than before it).
  core::Result<std::string> TouchVisitorSession(std::string_view project_id,
                                                std::string_view visitor_key,
                                                std::string_view candidate_session_id,
                                                std::int64_t at, std::int64_t inactivity_ms,
                                                std::int64_t* last_seen_after = nullptr);
  // Sets the visitor's session state outright (after TouchVisitorSession in the same
  // transaction has locked the row).
  core::Result<void> PutVisitorSession(std::string_view project_id, std::string_view visitor_key,
                                       std::string_view session_id, std::int64_t last_seen_at);
  // The visitor salt of UTC day `day` (days since 1970-01-01): `candidate` when this call
  // stores it first, else the one stored first by any node (INSERT … ON CONFLICT DO NOTHING,
  // then read), so nodes sharing a store agree. Also deletes the salts of days before
  // `day - 1`: a salt lives 48 hours at most. Salts never leave the store but through this.
  core::Result<std::string> DailyVisitorSalt(std::int64_t day, std::string_view candidate);
  // Inserts or replaces the link of an anonymous id (last identify wins).
  core::Result<void> PutIdentity(const IdentityRecord& identity);
  core::Result<std::optional<IdentityRecord>> FindIdentity(std::string_view project_id,
                                                           std::string_view anonymous_id);
  // Adds to the month's counters (creating them at zero).
  core::Result<void> AddUsage(const UsageRecord& delta);
  // Newest month first.
  core::Result<std::vector<UsageRecord>> ListUsage(std::string_view project_id);
  core::Result<void> InsertNotifications(std::span<const NotificationRecord> notifications);
  // Newest first; `before` (created_at, id) pages.
  core::Result<std::vector<NotificationRecord>> ListNotifications(
      std::string_view project_id, std::optional<std::pair<std::int64_t, std::string>> before,
      std::size_t limit);
  // Notifications after the cursor (created_at, id), oldest first: what a stream sends next.
  core::Result<std::vector<NotificationRecord>> ListNotificationsAfter(
      std::string_view project_id, std::pair<std::int64_t, std::string> after, std::size_t limit);
  // The events feed: filters, newest first (occurred_at, then id). Inbox and sealed events
  // alike.
  core::Result<std::vector<EventRecord>> ListEvents(const EventQuery& query);
  // Both also mark the rows' hours for the report rollups.
  core::Result<void> InsertEvents(std::span<const EventRecord> events);
  // Newest first (occurred_at, then id, descending).
  core::Result<std::vector<EventRecord>> ListRecentEvents(std::string_view project_id,
                                                          std::size_t limit);
  core::Result<void> InsertBotRequests(std::span<const BotRequestRecord> rows);
  core::Result<std::vector<BotRequestRecord>> ListRecentBotRequests(std::string_view project_id,
                                                                    std::size_t limit);
  // ---- The compact store (docs/storage.md, "Event blocks") ----
  // Projects with inbox events received before `received_before`.
  core::Result<std::vector<std::string>> ListProjectsToSeal(std::int64_t received_before);
  // Seals up to `limit` of the project's inbox events received before `received_before` (the
  // earliest first) into its blocks, moving a visit whose start moved to another hour, and
  // returns how many it sealed. Locks the project's sealing first (event_seals), so concurrent
  // sealers of one project run one after the other; run it in a write transaction. The call
  // that finds fewer than `limit` events (the inbox drained) also forgets the starts of the
  // visits sealed whole that started a week before `now`.
  core::Result<std::size_t> SealEvents(std::string_view project_id,
                                       std::int64_t received_before, std::size_t limit,
                                       std::int64_t now);
  // ---- Batches sealed into ClickHouse (docs/clickhouse.md, "Writes") ----
  // Up to `limit` of the project's crawler requests received before `received_before`, the
  // earliest first (time, then id), for sealing.
  core::Result<std::vector<BotRequestRecord>> ListBotRequestsToSeal(std::string_view project_id,
                                                                   std::int64_t received_before,
                                                                   std::size_t limit);
  // Deletes the project's crawler requests of these ids; returns how many.
  core::Result<std::size_t> DeleteBotRequests(std::string_view project_id,
                                              std::span<const std::string> ids);
  // Records a batch as pending, before its rows are sent.
  core::Result<void> InsertSealBatch(const SealBatchRecord& batch);
  // Marks a pending batch committed; false when it is not pending (committed already, or
  // abandoned: its rows in ClickHouse are to be deleted, so the caller must not delete them from
  // the inbox). Run it in the transaction that deletes the batch's rows from the inbox.
  core::Result<bool> CommitSealBatch(std::string_view id, std::int64_t now);
  // The ids of the project's batches that are not committed: the rows a reader of ClickHouse
  // leaves out. Read in the snapshot that reads the inbox.
  core::Result<std::vector<std::string>> ListUncommittedSealBatches(std::string_view project_id);
  // Abandons the batches still pending that were created before `created_before` (their sealer
  // failed or died); returns how many.
  core::Result<std::size_t> AbandonSealBatches(std::int64_t created_before);
  // Abandoned batches, the oldest first, at most `limit`: their rows are deleted from
  // ClickHouse, then the batches forgotten (ForgetSealBatches).
  core::Result<std::vector<SealBatchRecord>> ListAbandonedSealBatches(std::size_t limit);
  // Forgets abandoned batches (a committed or pending one is kept); returns how many.
  core::Result<std::size_t> ForgetSealBatches(std::span<const std::string> ids);
  core::Result<std::optional<SealBatchRecord>> FindSealBatch(std::string_view id);

  // The last good copy of each vendor IP-range list (one row per list id, replaced).
  core::Result<void> PutBotRangeList(const BotRangeListRecord& list);
  core::Result<std::vector<BotRangeListRecord>> ListBotRangeLists();

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
