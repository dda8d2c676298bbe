// Rows of the events area (storage/event_repository.h), as plain values: tracked events, crawler
// requests, identities, monthly usage, notifications, the vendors' IP-range lists. Times are Unix
// milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

// Links a visitor's anonymous id to an identified user (identify).
struct IdentityRecord {
  std::string project_id;
  std::string anonymous_id;
  std::string user_id;
  std::string traits_json = "{}";
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

// Events counted for a project in one calendar month (UTC), for usage and billing figures.
struct UsageRecord {
  std::string project_id;
  std::string month;  // "2026-11"
  std::int64_t human_events = 0;
  std::int64_t bot_events = 0;
};

// A real-time notification raised by an event sent with `notify: true`.
struct NotificationRecord {
  std::string id;
  std::string project_id;
  std::string event_id;
  std::string event;
  std::string channel;
  std::optional<std::string> icon;
  std::optional<std::string> description;
  std::optional<std::string> user_id;
  std::int64_t created_at = 0;
};

// Filters of the events feed; newest first, `before` is the cursor of the last row seen.
struct EventQuery {
  std::string project_id;
  std::optional<std::string> channel;
  std::optional<std::string> event;
  std::optional<std::string> user_id;
  std::optional<std::int64_t> from;  // inclusive, ms
  std::optional<std::int64_t> to;    // exclusive, ms
  std::optional<std::pair<std::int64_t, std::string>> before;  // (occurred_at, id), exclusive
  std::size_t limit = 50;
};

// One tracked event as stored, enrichment included (the spec's `__` tags, unprefixed).
struct EventRecord {
  std::string id;
  std::string project_id;
  std::int64_t occurred_at = 0;  // client timestamp, or receipt time
  std::int64_t received_at = 0;
  std::string event;
  std::string channel;
  std::optional<std::string> user_id, anonymous_id, session_id;
  std::optional<std::string> icon, description;
  bool notify = false;
  std::string tags_json = "{}";  // the client's own tags, a JSON object
  std::optional<std::string> ip;  // kept only when the project logs IPs
  std::optional<std::string> user_agent;
  std::optional<std::string> browser, browser_version, os, os_version, device, brand, model;
  std::optional<double> device_confidence;
  std::optional<std::string> signal_source;
  bool in_app = false;
  std::optional<std::string> country, region, city;
  std::optional<std::string> path, referrer;
  std::optional<std::string> utm_source, utm_medium, utm_campaign, utm_term, utm_content;
  bool is_bot = false;
  std::optional<std::string> actor_type, bot_name, bot_vendor, actor_category;
  bool actor_verified = false;
  std::optional<std::string> verification_method;
  std::optional<double> actor_confidence;
  bool is_ai = false;
  // Where the visit came from (ingest/traffic_sources.h): "Google", "Organic Search".
  std::optional<std::string> traffic_source, traffic_channel;
  // For events with neither an anonymous nor a user id: the daily keyed hash of project, IP
  // and User-Agent that counts them as a visitor (docs/metrics.md).
  std::optional<std::string> daily_visitor;

  bool operator==(const EventRecord&) const = default;
};

// One classified crawler request forwarded by a customer's server, edge or log drain.
struct BotRequestRecord {
  std::string id;
  std::string project_id;
  std::int64_t occurred_at = 0;
  std::int64_t received_at = 0;
  std::string event = "server_request";
  std::string source = "server";  // "server" or the log-drain source name
  std::optional<std::string> ip;
  std::string user_agent;
  std::optional<std::string> method, host, path, referrer;
  std::string actor_type;
  std::optional<std::string> bot_name, bot_vendor, actor_category;
  bool actor_verified = false;
  std::string verification_method = "none";
  double actor_confidence = 0;
  bool is_ai = false;
  std::optional<std::string> country;
  bool counts_toward_usage = true;  // false for the service's own verified crawler

  bool operator==(const BotRequestRecord&) const = default;
};

// A batch of a project's inbox rows moved to ClickHouse (docs/clickhouse.md, "Writes"): recorded
// pending before its rows are sent, committed with their removal from the inbox.
enum class SealBatchState { kPending, kCommitted, kAbandoned };
struct SealBatchRecord {
  std::string id;  // the `seal_batch` its rows carry in ClickHouse
  std::string project_id;
  std::string row_kind;  // "events" or "bot_requests"
  std::int64_t row_count = 0;
  SealBatchState state = SealBatchState::kPending;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> committed_at;

  bool operator==(const SealBatchRecord&) const = default;
};

// A vendor's IP-range list as last fetched (the vendor's own JSON).
struct BotRangeListRecord {
  std::string list_id;
  std::string body;
  std::int64_t fetched_at = 0;
};

}  // namespace sightline::storage
