#include "storage/clickhouse/clickhouse_events.h"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <variant>

namespace sightline::storage::clickhouse {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

// The columns of `events` that hold an EventRecord's fields, as data: one row per column, the
// field it holds and so how it is written and read.
using Text = std::string EventRecord::*;
using OptionalText = std::optional<std::string> EventRecord::*;
using Number = std::int64_t EventRecord::*;
using Flag = bool EventRecord::*;
using OptionalReal = std::optional<double> EventRecord::*;
struct Column {
  std::string_view name;
  std::variant<Text, OptionalText, Number, Flag, OptionalReal> field;
};

const Column kColumns[] = {
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

boost::json::value ValueOf(const EventRecord& event, const Column& column) {
  return std::visit(
      [&](auto field) -> boost::json::value {
        const auto& value = event.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) {
          return value ? 1 : 0;
        } else if constexpr (std::is_same_v<T, std::optional<std::string>> ||
                             std::is_same_v<T, std::optional<double>>) {
          return value ? boost::json::value(*value) : boost::json::value(nullptr);
        } else {
          return boost::json::value(value);
        }
      },
      column.field);
}

// Sets the column's field from ClickHouse's JSON; false when the value has the wrong type.
bool Assign(EventRecord& event, const Column& column, const boost::json::value& value) {
  return std::visit(
      [&](auto field) -> bool {
        auto& target = event.*field;
        using T = std::decay_t<decltype(target)>;
        boost::system::error_code error;
        if constexpr (std::is_same_v<T, std::string>) {
          if (!value.is_string()) return false;
          target = value.as_string();
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          if (value.is_null())
            target.reset();
          else if (value.is_string())
            target = std::string(value.as_string());
          else
            return false;
        } else if constexpr (std::is_same_v<T, std::optional<double>>) {
          if (value.is_null())
            target.reset();
          else
            target = value.to_number<double>(error);
        } else if constexpr (std::is_same_v<T, bool>) {
          target = value.to_number<std::int64_t>(error) != 0;
        } else {
          target = value.to_number<std::int64_t>(error);
        }
        return !error;
      },
      column.field);
}

Result<SealedEvent> EventOf(const boost::json::object& row) {
  SealedEvent sealed;
  for (const Column& column : kColumns) {
    const boost::json::value* value = row.if_contains(column.name);
    if (value == nullptr || !Assign(sealed.event, column, *value)) {
      return Error(ErrorCode::kInternal, "ClickHouse sent an event whose '" +
                                             std::string(column.name) + "' is unreadable");
    }
  }
  const boost::json::value* hour = row.if_contains("visit_hour");
  boost::system::error_code error;
  if (hour != nullptr) sealed.visit_hour = hour->to_number<std::int64_t>(error);
  if (hour == nullptr || error) {
    return Error(ErrorCode::kInternal, "ClickHouse sent an event without its visit hour");
  }
  return sealed;
}

}  // namespace

Result<void> InsertEvents(const Client& client, std::span<const SealedEvent> events,
                          std::string_view batch) {
  std::string rows;
  for (const SealedEvent& sealed : events) {
    boost::json::object row;
    for (const Column& column : kColumns) row[column.name] = ValueOf(sealed.event, column);
    row["visit_hour"] = sealed.visit_hour;
    row["seal_batch"] = batch;
    rows += boost::json::serialize(row);
    rows += '\n';
  }
  if (rows.empty()) return {};
  return client.Insert("events", rows, !client.endpoint().cluster.empty());
}

Result<std::vector<SealedEvent>> ReadEvents(const Client& client, std::string_view project_id,
                                            std::int64_t from_hour, std::int64_t to_hour,
                                            std::span<const std::string> excluded_batches) {
  std::string sql = "SELECT ";
  for (const Column& column : kColumns) {
    sql += column.name;
    sql += ", ";
  }
  sql += "visit_hour FROM events WHERE project_id = " + Quote(project_id) +
         " AND visit_hour >= " + std::to_string(from_hour) +
         " AND visit_hour <= " + std::to_string(to_hour);
  if (!excluded_batches.empty()) {
    sql += " AND seal_batch NOT IN (";
    for (std::size_t i = 0; i < excluded_batches.size(); ++i) {
      if (i > 0) sql += ", ";
      sql += Quote(excluded_batches[i]);
    }
    sql += ")";
  }
  sql += " ORDER BY visit_hour, occurred_at, id";
  // Int64 as JSON numbers (boost::json reads them exactly), not the quoted default.
  auto rows = client.Select(sql, {{"output_format_json_quote_64bit_integers", "0"}});
  if (!rows) return rows.error();
  std::vector<SealedEvent> events;
  events.reserve(rows->size());
  for (const boost::json::object& row : *rows) {
    auto sealed = EventOf(row);
    if (!sealed) return sealed.error();
    events.push_back(std::move(*sealed));
  }
  return events;
}

}  // namespace sightline::storage::clickhouse
