#include "storage/clickhouse/clickhouse_schema.h"

#include <algorithm>

#include "core/clock.h"

namespace sightline::storage::clickhouse {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

// Tracked events: the inbox table's columns (storage/event_rows.h), times in milliseconds as
// there, so every figure read back is the same number; plus the UTC hour the event's visit
// started (what the reports read by) and the sealing batch that wrote the row (a batch that
// did not commit on the transactional store is left out of every read). Partitions by month of
// the event; the ordering key puts a project's visits together, hour by hour.
constexpr std::string_view kEvents = R"(CREATE TABLE IF NOT EXISTS events{local} (
  id String, project_id String, occurred_at Int64, received_at Int64, event String,
  channel String, user_id Nullable(String), anonymous_id Nullable(String),
  session_id Nullable(String), icon Nullable(String), description Nullable(String),
  notify UInt8, tags String, ip Nullable(String), user_agent Nullable(String),
  browser Nullable(String), browser_version Nullable(String), os Nullable(String),
  os_version Nullable(String), device Nullable(String), brand Nullable(String),
  model Nullable(String), device_confidence Nullable(Float64), signal_source Nullable(String),
  in_app UInt8, country Nullable(String), region Nullable(String), city Nullable(String),
  path Nullable(String), referrer Nullable(String), utm_source Nullable(String),
  utm_medium Nullable(String), utm_campaign Nullable(String), utm_term Nullable(String),
  utm_content Nullable(String), is_bot UInt8, actor_type Nullable(String),
  bot_name Nullable(String), bot_vendor Nullable(String), actor_category Nullable(String),
  actor_verified UInt8, verification_method Nullable(String),
  actor_confidence Nullable(Float64), is_ai UInt8, traffic_source Nullable(String),
  traffic_channel Nullable(String), daily_visitor Nullable(String),
  visit_hour Int64, seal_batch String
) ENGINE = MergeTree PARTITION BY toYYYYMM(toDateTime(intDiv(occurred_at, 1000)))
ORDER BY (project_id, visit_hour, occurred_at, id))";

// The shard of an event is its visitor's: the anonymous id, else the user id, else the event
// (an event with neither has no visit).
constexpr std::string_view kEventsDistributed =
    "CREATE TABLE IF NOT EXISTS events AS events_local ENGINE = Distributed({cluster}, "
    "{database}, events_local, cityHash64(project_id, ifNull(anonymous_id, ifNull(user_id, "
    "id))))";

// Crawler requests: the bot_requests table's columns, partitioned by month, ordered for the
// crawler reports (a project's requests by vendor over time).
constexpr std::string_view kBotRequests = R"(CREATE TABLE IF NOT EXISTS bot_requests{local} (
  id String, project_id String, occurred_at Int64, received_at Int64, event String,
  source String, ip Nullable(String), user_agent String, method Nullable(String),
  host Nullable(String), path Nullable(String), referrer Nullable(String), actor_type String,
  bot_name Nullable(String), bot_vendor Nullable(String), actor_category Nullable(String),
  actor_verified UInt8, verification_method String, actor_confidence Float64, is_ai UInt8,
  country Nullable(String), counts_toward_usage UInt8, seal_batch String
) ENGINE = MergeTree PARTITION BY toYYYYMM(toDateTime(intDiv(occurred_at, 1000)))
ORDER BY (project_id, occurred_at, id))";

constexpr std::string_view kBotRequestsDistributed =
    "CREATE TABLE IF NOT EXISTS bot_requests AS bot_requests_local ENGINE = "
    "Distributed({cluster}, {database}, bot_requests_local, cityHash64(id))";

constexpr std::string_view kSchemaTable =
    "CREATE TABLE IF NOT EXISTS sightline_schema (version UInt32, name String, applied_at "
    "Int64) ENGINE = MergeTree ORDER BY version";

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The newest step recorded on `node`, 0 for none.
Result<int> AppliedVersion(const Client& client, std::size_t node) {
  auto made = client.Execute(kSchemaTable, {}, node);
  if (!made) return made.error();
  auto max = client.Execute("SELECT max(version) FROM sightline_schema", {}, node);
  if (!max) return max.error();
  try {
    return std::stoi(*max);
  } catch (const std::exception&) {
    return Error(ErrorCode::kInternal, "sightline_schema holds no version ClickHouse can read");
  }
}

}  // namespace

const std::vector<SchemaStep>& EventSchemaSteps() {
  static const std::vector<SchemaStep> steps = {
      {1,
       "events and bot requests",
       {{kEvents}, {kEventsDistributed, true}, {kBotRequests}, {kBotRequestsDistributed, true}}},
  };
  return steps;
}

int LatestEventSchemaVersion() { return EventSchemaSteps().back().version; }

std::string RenderStatement(const SchemaStatement& statement, const Endpoint& endpoint) {
  std::string sql(statement.sql);
  ReplaceAll(sql, "{local}", endpoint.cluster.empty() ? "" : "_local");
  ReplaceAll(sql, "{cluster}", endpoint.cluster);
  ReplaceAll(sql, "{database}", endpoint.database);
  return sql;
}

Result<int> MigrateEventSchema(const Client& client) {
  const Endpoint& endpoint = client.endpoint();
  int applied = 0;
  for (std::size_t node = 0; node < endpoint.nodes.size(); ++node) {
    auto version = AppliedVersion(client, node);
    if (!version) return version.error();
    if (*version > LatestEventSchemaVersion()) {
      return Error(ErrorCode::kInternal,
                   "the ClickHouse schema at " + endpoint.nodes[node] + " is version " +
                       std::to_string(*version) + ", newer than this binary's " +
                       std::to_string(LatestEventSchemaVersion()) + ": upgrade Sightline");
    }
    for (const SchemaStep& step : EventSchemaSteps()) {
      if (step.version <= *version) continue;
      for (const SchemaStatement& statement : step.statements) {
        if (statement.cluster_only && endpoint.cluster.empty()) continue;
        auto ran = client.Execute(RenderStatement(statement, endpoint), {}, node);
        if (!ran) return ran.error();
      }
      auto recorded =
          client.Execute("INSERT INTO sightline_schema (version, name, applied_at) VALUES (" +
                             std::to_string(step.version) + ", " + Quote(step.name) + ", " +
                             std::to_string(core::SystemClock().NowMillis()) + ")",
                         {}, node);
      if (!recorded) return recorded.error();
      ++applied;
    }
  }
  return applied;
}

}  // namespace sightline::storage::clickhouse
