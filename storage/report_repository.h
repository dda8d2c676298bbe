// Reports: the queries over the report rollups (marking changed hours, rolling local days, hours
// and blocks of days up) and the crawler and web analytics reports read from them, written once
// over SqlSession and run unchanged on SQLite and PostgreSQL. Reached from a Transaction
// (`tx.reports()`); lives for one transaction and is used by one thread. Lookups return nullopt for
// "not there"; errors are storage failures, or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/blocks/column_block.h"
#include "storage/event_records.h"
#include "storage/report_records.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class ReportRepository {
 public:
  explicit ReportRepository(SqlSession& session) : session_(session) {}

  // Report rollups, writing side (storage/report_repository_rollups.cpp). Inserting events or
  // crawler requests marks the UTC hours whose rollups they change (a visit's start hour for events
  // of a visit); a builder lists the marks, rolls the affected local days up again and clears
  // the marks whose generation it read.
  core::Result<std::vector<RollupMark>> ListRollupMarks(std::string_view project_id);
  core::Result<std::vector<std::string>> ListProjectsWithRollupMarks();
  core::Result<void> ClearRollupMarks(std::string_view project_id,
                                      std::span<const RollupMark> marks);
  // Starts of the local days of `zone` already rolled up, in [start_ms, end_ms).
  core::Result<std::vector<std::int64_t>> ListRollupDays(std::string_view project_id,
                                                         std::string_view zone,
                                                         std::int64_t start_ms,
                                                         std::int64_t end_ms);
  // Records the day as rolled up; first in a rebuild, so concurrent builders of a day queue.
  core::Result<void> ClaimRollupDay(std::string_view project_id, std::string_view zone,
                                    std::int64_t day_start, std::int64_t built_at);
  // Whether rollups of another zone than `zone` remain (the project's zone changed).
  core::Result<bool> HasRollupsOfOtherZones(std::string_view project_id, std::string_view zone);
  core::Result<void> DeleteRollupsOfOtherZones(std::string_view project_id,
                                               std::string_view zone);
  // Marks every day and block of the project's rollups, in every zone, never rolled up: the
  // next report rolls its days up again (a setting they are computed with changed). Their rows
  // stay until then.
  core::Result<void> ForgetRollups(std::string_view project_id);
  // Day and hour rows of the window (for web rows, with the visits that started in it).
  core::Result<void> DeleteRollups(std::string_view project_id, std::string_view zone,
                                   RollupSource source, std::int64_t start_ms,
                                   std::int64_t end_ms);
  // The human events (outside `__analytics`) of the visits that started in the window, and
  // the window's events that belong to no visit; with their tags when `with_tags` (a query
  // reading custom properties).
  core::Result<std::vector<RollupEvent>> ListRollupEvents(std::string_view project_id,
                                                          std::int64_t start_ms,
                                                          std::int64_t end_ms,
                                                          bool with_tags = false);
  // The same rows for a reader that decodes the blocks itself (`query`): the inbox's rows as
  // ListRollupEvents reads them, and the stored blocks of the window's hours
  // (storage/event_blocks.h; docs/storage.md). A block row may also be among the inbox rows
  // (a sealing that committed in between): a reader drops it by its id. With `columns`, the
  // blocks may hold only those columns (storage/block_reads.h), and the ids when the inbox
  // has rows.
  core::Result<WebWindowRows> ReadWebWindow(
      std::string_view project_id, std::int64_t start_ms, std::int64_t end_ms, bool with_tags,
      const std::vector<blocks::ColumnId>* columns = nullptr);
  // The crawler requests of the window as a query reads them: when, host, path, country and
  // the classification (bot name, vendor, category, actor type, AI flag); other fields empty.
  core::Result<std::vector<BotRequestRecord>> ListBotRequests(std::string_view project_id,
                                                              std::int64_t start_ms,
                                                              std::int64_t end_ms);
  // Writes rows of periods none of whose web rows are stored (deleted first): per period its
  // visitor table and a block per dimension (storage/report_repository_web.cpp).
  core::Result<void> InsertWebRollups(std::string_view project_id, std::string_view zone,
                                      std::span<const WebRollupRow> rows);
  // Rolls the crawler requests of one local day up, per day and per local hour; `hour_starts`
  // are the day's hours in order (the first is the day's start).
  core::Result<void> RollUpBotRequests(std::string_view project_id, std::string_view zone,
                                       std::span<const std::int64_t> hour_starts,
                                       std::int64_t day_end);
  // Blocks of days (RollupSpan::kDays2 … kDays32) of `zone` rolled up and current, starting
  // in [start_ms, end_ms).
  core::Result<std::vector<RollupBlock>> ListRollupBlocks(std::string_view project_id,
                                                          std::string_view zone,
                                                          std::int64_t start_ms,
                                                          std::int64_t end_ms);
  // Marks the block out of date and deletes its rows. The first statement locks the block's
  // row, so the rebuild of a day and the building of a block holding it take turns.
  core::Result<void> ResetRollupBlock(std::string_view project_id, std::string_view zone,
                                      const RollupBlock& block);
  // Marks the block, whose rows were just written, current.
  core::Result<void> FinishRollupBlock(std::string_view project_id, std::string_view zone,
                                       const RollupBlock& block, std::int64_t built_at);
  // Every web rollup row of the periods (all dimensions).
  core::Result<std::vector<WebRollupRow>> ListWebRollups(std::string_view project_id,
                                                         std::string_view zone,
                                                         const RollupPeriods& periods);
  // Writes the block's crawler rows as the sums of its two halves' rows.
  core::Result<void> RollUpBotBlock(std::string_view project_id, std::string_view zone,
                                    const RollupBlock& block, const RollupPeriods& halves);
  // Crawler reports (storage/report_repository_bots.cpp). Groups ordered by requests, then key.
  // With `totals`, also the number of groups and of requests over the whole ranking.
  core::Result<std::vector<BotGroupRow>> BotRequestGroups(const BotReportQuery& query,
                                                          BotGroupTotals* totals = nullptr);
  core::Result<BotGroupTotals> BotRequestTotals(const BotReportQuery& query);
  // The requests the query's filters keep, whatever its grouping and keys.
  core::Result<std::int64_t> BotRequestSum(const BotReportQuery& query);
  core::Result<std::vector<BotPeriodRow>> BotRequestPeriods(const BotReportQuery& query);
  // Web analytics (storage/report_repository_web.cpp).
  core::Result<std::vector<WebRollupRow>> WebRollupRows(const WebRollupQuery& query);
  // Values by their summed row count, then value, and how many there are.
  core::Result<WebValueRanking> RankWebValues(const WebRollupQuery& query, std::int64_t limit,
                                              std::int64_t offset);
  // Pages by pageviews, then path.
  core::Result<std::vector<PageDurationRow>> PageDurations(const WebRollupQuery& query,
                                                           std::int64_t limit,
                                                           std::int64_t offset);
  // Visits (storage/report_repository_visits.cpp): written with the web rollups of the local
  // day starting at `day_start`, as one block (storage/visit_blocks.h).
  core::Result<void> InsertWebVisits(std::string_view project_id, std::string_view zone,
                                     std::int64_t day_start, std::span<const WebVisitRow> rows);
  // Calls `each` with the visits that started in the window and pass the filter, a day's
  // block at a time (in day order; any order within a day).
  core::Result<void> EachWebVisit(const WebVisitQuery& query,
                                  const std::function<void(const WebVisitRow&)>& each);
  // The blocks that may hold visits that started in the window, for a reader that decodes
  // them itself (`query`), in day order.
  // With `columns`, the blocks may hold only those columns (storage/block_reads.h).
  core::Result<std::vector<std::string>> ReadVisitBlocks(
      std::string_view project_id, std::string_view zone, std::int64_t start_ms,
      std::int64_t end_ms, const std::vector<blocks::ColumnId>* columns = nullptr);

 private:
  core::Result<std::vector<RollupEvent>> ListInboxRollupEvents(std::string_view project_id,
                                                               std::int64_t start_ms,
                                                               std::int64_t end_ms,
                                                               bool with_tags);
  SqlSession& session_;
};

}  // namespace sightline::storage
