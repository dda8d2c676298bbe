#include "storage/clickhouse/clickhouse_events.h"

#include "storage/clickhouse/clickhouse_columns.h"

namespace sightline::storage::clickhouse {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

using internal::Column;

// The columns of `events` that hold an EventRecord's fields.
const Column<EventRecord> kEventColumns[] = {
    {"id", &EventRecord::id},
    {"project_id", &EventRecord::project_id},
    {"occurred_at", &EventRecord::occurred_at},
    {"received_at", &EventRecord::received_at},
    {"event", &EventRecord::event},
    {"channel", &EventRecord::channel},
    {"user_id", &EventRecord::user_id},
    {"anonymous_id", &EventRecord::anonymous_id},
    {"session_id", &EventRecord::session_id},
    {"icon", &EventRecord::icon},
    {"description", &EventRecord::description},
    {"notify", &EventRecord::notify},
    {"tags", &EventRecord::tags_json},
    {"ip", &EventRecord::ip},
    {"user_agent", &EventRecord::user_agent},
    {"browser", &EventRecord::browser},
    {"browser_version", &EventRecord::browser_version},
    {"os", &EventRecord::os},
    {"os_version", &EventRecord::os_version},
    {"device", &EventRecord::device},
    {"brand", &EventRecord::brand},
    {"model", &EventRecord::model},
    {"device_confidence", &EventRecord::device_confidence},
    {"signal_source", &EventRecord::signal_source},
    {"in_app", &EventRecord::in_app},
    {"country", &EventRecord::country},
    {"region", &EventRecord::region},
    {"city", &EventRecord::city},
    {"path", &EventRecord::path},
    {"referrer", &EventRecord::referrer},
    {"utm_source", &EventRecord::utm_source},
    {"utm_medium", &EventRecord::utm_medium},
    {"utm_campaign", &EventRecord::utm_campaign},
    {"utm_term", &EventRecord::utm_term},
    {"utm_content", &EventRecord::utm_content},
    {"is_bot", &EventRecord::is_bot},
    {"actor_type", &EventRecord::actor_type},
    {"bot_name", &EventRecord::bot_name},
    {"bot_vendor", &EventRecord::bot_vendor},
    {"actor_category", &EventRecord::actor_category},
    {"actor_verified", &EventRecord::actor_verified},
    {"verification_method", &EventRecord::verification_method},
    {"actor_confidence", &EventRecord::actor_confidence},
    {"is_ai", &EventRecord::is_ai},
    {"traffic_source", &EventRecord::traffic_source},
    {"traffic_channel", &EventRecord::traffic_channel},
    {"daily_visitor", &EventRecord::daily_visitor},
};

// The columns of `bot_requests` that hold a BotRequestRecord's fields.
const Column<BotRequestRecord> kBotRequestColumns[] = {
    {"id", &BotRequestRecord::id},
    {"project_id", &BotRequestRecord::project_id},
    {"occurred_at", &BotRequestRecord::occurred_at},
    {"received_at", &BotRequestRecord::received_at},
    {"event", &BotRequestRecord::event},
    {"source", &BotRequestRecord::source},
    {"ip", &BotRequestRecord::ip},
    {"user_agent", &BotRequestRecord::user_agent},
    {"method", &BotRequestRecord::method},
    {"host", &BotRequestRecord::host},
    {"path", &BotRequestRecord::path},
    {"referrer", &BotRequestRecord::referrer},
    {"actor_type", &BotRequestRecord::actor_type},
    {"bot_name", &BotRequestRecord::bot_name},
    {"bot_vendor", &BotRequestRecord::bot_vendor},
    {"actor_category", &BotRequestRecord::actor_category},
    {"actor_verified", &BotRequestRecord::actor_verified},
    {"verification_method", &BotRequestRecord::verification_method},
    {"actor_confidence", &BotRequestRecord::actor_confidence},
    {"is_ai", &BotRequestRecord::is_ai},
    {"country", &BotRequestRecord::country},
    {"counts_toward_usage", &BotRequestRecord::counts_toward_usage},
};

// "table (a, b, c, extra…)": the columns an INSERT or SELECT names, in their binary order.
template <class Record>
std::string Target(std::string_view table, std::span<const Column<Record>> columns,
                   std::string_view extra) {
  return std::string(table) + " (" + internal::ColumnList<Record>(columns) + ", " +
         std::string(extra) + ")";
}

// " AND seal_batch NOT IN ('a', 'b')", or nothing.
std::string ExcludingBatches(std::span<const std::string> batches) {
  if (batches.empty()) return "";
  std::string sql = " AND seal_batch NOT IN (";
  for (std::size_t i = 0; i < batches.size(); ++i) {
    if (i > 0) sql += ", ";
    sql += Quote(batches[i]);
  }
  return sql + ")";
}

// One record's columns as RowBinary.
template <class Record>
void AppendRecord(std::string& rows, const Record& record, std::span<const Column<Record>> columns) {
  for (const Column<Record>& column : columns) internal::AppendValue(rows, record, column);
}

// One record's columns from RowBinary, consumed from `in`.
template <class Record>
Result<void> ReadRecord(std::string_view& in, Record& record,
                        std::span<const Column<Record>> columns, std::string_view table) {
  for (const Column<Record>& column : columns) {
    if (!internal::ReadValue(in, record, column)) {
      return Error(ErrorCode::kInternal, "ClickHouse sent a row of " + std::string(table) +
                                             " whose '" + std::string(column.name) +
                                             "' is unreadable");
    }
  }
  return {};
}

// " WHERE project_id = '…' AND <range> AND seal_batch NOT IN (…)": what a reader selects.
std::string Selecting(std::string_view project_id, const std::string& range,
                      std::span<const std::string> excluded_batches) {
  return " WHERE project_id = " + Quote(project_id) + " AND " + range +
         ExcludingBatches(excluded_batches);
}

template <class Record>
std::vector<std::string_view> NamesOf(std::span<const Column<Record>> columns) {
  std::vector<std::string_view> names;
  for (const Column<Record>& column : columns) names.push_back(column.name);
  return names;
}

}  // namespace

std::vector<std::string_view> EventColumnNames() { return NamesOf<EventRecord>(kEventColumns); }

std::vector<std::string_view> BotRequestColumnNames() {
  return NamesOf<BotRequestRecord>(kBotRequestColumns);
}

Result<void> InsertEvents(const Client& client, std::span<const SealedEvent> events,
                          std::string_view batch) {
  std::string rows;
  for (const SealedEvent& sealed : events) {
    AppendRecord<EventRecord>(rows, sealed.event, kEventColumns);
    internal::AppendFixed(rows, sealed.visit_hour);
    internal::AppendText(rows, batch);
  }
  return client.Insert(Target<EventRecord>("events", kEventColumns, "visit_hour, seal_batch"), rows,
                       !client.endpoint().cluster.empty(), "RowBinary");
}

Result<std::vector<SealedEvent>> ReadEvents(const Client& client, std::string_view project_id,
                                            std::int64_t from_hour, std::int64_t to_hour,
                                            std::span<const std::string> excluded_batches) {
  const std::string range = "visit_hour >= " + std::to_string(from_hour) +
                            " AND visit_hour <= " + std::to_string(to_hour);
  auto body = client.Execute("SELECT " + internal::ColumnList<EventRecord>(kEventColumns) +
                             ", visit_hour FROM events" +
                             Selecting(project_id, range, excluded_batches) +
                             " ORDER BY visit_hour, occurred_at, id FORMAT RowBinary");
  if (!body) return body.error();
  std::vector<SealedEvent> events;
  for (std::string_view in = *body; !in.empty();) {
    SealedEvent& sealed = events.emplace_back();
    if (auto read = ReadRecord<EventRecord>(in, sealed.event, kEventColumns, "events"); !read) {
      return read.error();
    }
    if (!internal::ReadFixed(in, sealed.visit_hour)) {
      return Error(ErrorCode::kInternal, "ClickHouse sent an event whose 'visit_hour' is unreadable");
    }
  }
  return events;
}

Result<void> InsertBotRequests(const Client& client, std::span<const BotRequestRecord> requests,
                               std::string_view batch) {
  std::string rows;
  for (const BotRequestRecord& request : requests) {
    AppendRecord<BotRequestRecord>(rows, request, kBotRequestColumns);
    internal::AppendText(rows, batch);
  }
  return client.Insert(Target<BotRequestRecord>("bot_requests", kBotRequestColumns, "seal_batch"),
                       rows, !client.endpoint().cluster.empty(), "RowBinary");
}

Result<std::vector<BotRequestRecord>> ReadBotRequests(
    const Client& client, std::string_view project_id, std::int64_t from_ms, std::int64_t to_ms,
    std::span<const std::string> excluded_batches) {
  const std::string range = "occurred_at >= " + std::to_string(from_ms) +
                            " AND occurred_at < " + std::to_string(to_ms);
  auto body = client.Execute("SELECT " + internal::ColumnList<BotRequestRecord>(kBotRequestColumns) +
                             " FROM bot_requests" + Selecting(project_id, range, excluded_batches) +
                             " ORDER BY occurred_at, id FORMAT RowBinary");
  if (!body) return body.error();
  std::vector<BotRequestRecord> requests;
  for (std::string_view in = *body; !in.empty();) {
    if (auto read = ReadRecord<BotRequestRecord>(in, requests.emplace_back(), kBotRequestColumns,
                                                 "bot_requests");
        !read) {
      return read.error();
    }
  }
  return requests;
}

}  // namespace sightline::storage::clickhouse
