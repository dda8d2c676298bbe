#include "tools/ingest_operations.h"

#include "core/clock.h"
#include "ingest/ingest_service.h"
#include "storage/event_repository.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/schema_fragments.h"
#include "tools/event_views.h"
#include "tools/notification_stream.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

void RunTrackEvent(OperationContext& context, const json::object& args, ResultCallback done) {
  auto project = KeyProject(context);
  if (!project) return done(project.error());
  const auto signals = context.services.ingest->ReadSignals(*context.request.headers,
                                                   context.request.client_ip);
  context.services.ingest->TrackOne(*project, args, signals, std::move(done));
}

void RunTrackEvents(OperationContext& context, const json::object& args, ResultCallback done) {
  auto project = KeyProject(context);
  if (!project) return done(project.error());
  const auto signals = context.services.ingest->ReadSignals(*context.request.headers,
                                                   context.request.client_ip);
  context.services.ingest->TrackBatch(*project, args.at("events").as_array(), signals, std::move(done));
}

void RunIdentify(OperationContext& context, const json::object& args, ResultCallback done) {
  auto project = KeyProject(context);
  if (!project) return done(project.error());
  context.services.ingest->Identify(*project, args, std::move(done));
}

constexpr std::string_view kEventList = "list_events";
constexpr std::string_view kNotificationList = "list_notifications";

Result<std::optional<std::int64_t>> TimeArg(const json::object& args, std::string_view name) {
  const auto text = OptionalString(args, name);
  if (!text) return std::optional<std::int64_t>();
  if (auto millis = core::ParseRfc3339(*text)) return std::optional(*millis);
  return core::Error::Invalid(std::string(name),
                              "'" + std::string(name) + "' must be an RFC 3339 date-time.");
}

Result<json::value> RunListEvents(OperationContext& context, const json::object& args) {
  storage::EventQuery query;
  query.project_id = context.project->id;
  query.channel = OptionalString(args, "channel");
  query.event = OptionalString(args, "event");
  query.user_id = OptionalString(args, "userId");
  auto from = TimeArg(args, "from");
  if (!from) return from.error();
  auto to = TimeArg(args, "to");
  if (!to) return to.error();
  auto request = ReadPageArgs(args, kEventList, kTimeIdShape, 50);
  if (!request) return request.error();
  query.from = *from;
  query.to = *to;
  if (request->after) query.before = TimeIdOf(*request->after);
  query.limit = request->limit + 1;  // one more tells whether there is a next page
  auto events =
      context.store.Read([&](storage::Transaction& tx) { return tx.events().ListEvents(query); });
  if (!events) return events.error();
  const auto last = TrimToPage(*events, request->limit, [](const storage::EventRecord& event) {
    return TimeIdKey(event.occurred_at, event.id);
  });
  json::array out;
  for (const auto& event : *events) out.push_back(EventView(event));
  json::object page{{"events", std::move(out)}};
  WriteNextCursor(page, kEventList, last);
  return json::value(std::move(page));
}

Result<json::value> RunGetUsage(OperationContext& context, const json::object&) {
  auto usage = context.store.Read([&](storage::Transaction& tx) {
    return tx.events().ListUsage(context.project->id);
  });
  if (!usage) return usage.error();
  json::array months;
  for (const auto& month : *usage) {
    months.push_back(json::object{{"month", month.month},
                                  {"humanEvents", month.human_events},
                                  {"botEvents", month.bot_events}});
  }
  return json::value(json::object{{"months", std::move(months)}});
}

Result<json::value> RunListNotifications(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kNotificationList, kTimeIdShape, 50);
  if (!request) return request.error();
  std::optional<std::pair<std::int64_t, std::string>> before;
  if (request->after) before = TimeIdOf(*request->after);
  auto rows = context.store.Read([&](storage::Transaction& tx) {
    return tx.events().ListNotifications(context.project->id, before, request->limit + 1);
  });
  if (!rows) return rows.error();
  const auto last = TrimToPage(*rows, request->limit, [](const auto& notification) {
    return TimeIdKey(notification.created_at, notification.id);
  });
  json::array out;
  for (const auto& n : *rows) out.push_back(NotificationView(n));
  json::object page{{"notifications", std::move(out)}};
  WriteNextCursor(page, kNotificationList, last);
  return json::value(std::move(page));
}

Result<std::shared_ptr<core::ResponseStream>> OpenNotificationStream(OperationContext& context,
                                                                     const json::object&) {
  // A reconnecting EventSource resumes after the last event it saw; otherwise only what is
  // raised from now on is sent.
  std::pair<std::int64_t, std::string> after{context.clock.NowMillis(), ""};
  if (context.request.headers) {
    if (auto last = context.request.headers->Get("Last-Event-ID")) {
      if (auto decoded = NotificationStream::DecodeId(*last)) after = *decoded;
    }
  }
  return std::shared_ptr<core::ResponseStream>(
      std::make_shared<NotificationStream>(context.store, context.project->id, after));
}

#define SIGHTLINE_TRACKED_EVENT_PROPERTIES                                                       \
  R"("event": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Event name."},)" \
  R"( "channel": {"type": "string", "minLength": 1, "maxLength": 100,)"                          \
  R"(   "description": "Category, e.g. payments; revenue events use __analytics."},)"          \
  R"( "user_id": {"type": "string", "maxLength": 200}, "anonymous_id": {"type": "string",)"     \
  R"(   "format": "uuid"}, "icon": {"type": "string", "maxLength": 64},)"                        \
  R"( "notify": {"type": "boolean", "description": "Raise a real-time notification."},)"        \
  R"( "description": {"type": "string", "maxLength": 2000},)"                                    \
  R"( "timestamp": {"type": "number", "description": "Unix time in milliseconds."},)"           \
  R"( "tags": {"type": "object", "description": "String, number or boolean values; $url and)"   \
  R"( $referrer are read for page attribution."},)"                                              \
  R"( "properties": {"type": "object", "description": "The guide's variant: channel and tags)" \
  R"( inside properties."})"

// A tag's value: what ingestion accepts (ingest/tracked_event.cpp).
#define SIGHTLINE_TAG_VALUE_SCHEMA                                                             \
  R"({"oneOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]})"
// An event as EventView shows it; `tags` holds the caller's tags and the enrichment
// (`__browser`, `__country`, `__is_bot`…), so it is a map.
#define SIGHTLINE_EVENT_SCHEMA                                                                 \
  R"({"type": "object", "required": ["id", "event", "channel", "timestamp", "receivedAt",)"    \
  R"( "notify", "tags"], "properties": {"id": {"type": "string", "format": "uuid"},)"         \
  R"( "event": {"type": "string"}, "channel": {"type": "string"},)"                            \
  R"( "timestamp": {"type": "string", "format": "date-time"},)"                                \
  R"( "receivedAt": {"type": "string", "format": "date-time"}, "notify": {"type": "boolean"},)" \
  R"( "userId": {"type": "string"}, "anonymousId": {"type": "string"},)"                       \
  R"( "icon": {"type": "string"}, "description": {"type": "string"}, "ip": {"type": "string"},)" \
  R"( "tags": {"type": "object", "additionalProperties": )" SIGHTLINE_TAG_VALUE_SCHEMA ","     \
  R"( "description": "The event's tags, named as sent, and its enrichment, named)"            \
  R"( __browser, __os, __country, __path, __utm_source, __bot_name, __is_bot (1 when true)…"}}})"
// A notification as NotificationView shows it (the list and each streamed event).
#define SIGHTLINE_NOTIFICATION_SCHEMA                                                          \
  R"({"type": "object", "required": ["id", "eventId", "event", "channel", "createdAt"],)"     \
  R"( "properties": {"id": {"type": "string"}, "eventId": {"type": "string"},)"                \
  R"( "event": {"type": "string"}, "channel": {"type": "string"},)"                            \
  R"( "createdAt": {"type": "string", "format": "date-time"}, "icon": {"type": "string"},)"   \
  R"( "description": {"type": "string"}, "userId": {"type": "string"}}})"

constexpr std::string_view kAcceptedEventSchema = R"({"type": "object",
    "required": ["id", "event", "timestamp"], "properties": {
      "id": {"type": "string", "format": "uuid"}, "event": {"type": "string"},
      "timestamp": {"type": "string", "format": "date-time"}}})";
constexpr std::string_view kIngestionOnly = "Ingestion is for SDKs, not for tools.";

#define SIGHTLINE_FEED_QUERY SIGHTLINE_PAGE_PROPERTIES("50", "500")

}  // namespace

const OperationSpec kSdkTrackEvent{
    .name = "sdk_track_event",
    .summary = "Track an event (SDK)",
    .description = "Stores one tracked event with server-side enrichment. 202 means the event "
                   "is committed. Takes the project's SDK key in x-sdk-key (or X-API-Key).",
    .tag = "Ingestion",
    .method = core::HttpMethod::kPost,
    .path = "/sdk/v1/logs",
    .input_schema = R"({"type": "object", "properties": {)" SIGHTLINE_TRACKED_EVENT_PROPERTIES R"(}})",
    .output_schema = kAcceptedEventSchema,
    .permission = identity::Permission::kEventsIngest,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kSdkKey,
    .success_status = 202,
    .rate_limited = false,
    .browser_cors = true,
    .mcp_exclusion_reason = kIngestionOnly,
    .run_async = RunTrackEvent,
};

const OperationSpec kSdkTrackEvents{
    .name = "sdk_track_events",
    .summary = "Track a batch of events (SDK)",
    .description = "Up to 500 tracked events. Valid events are stored (committed before the "
                   "answer) and invalid ones reported by index in `errors`, each with its "
                   "ErrorResponse error; one bad event never rejects the others.",
    .tag = "Ingestion",
    .method = core::HttpMethod::kPost,
    .path = "/sdk/v1/logs/batch",
    .input_schema = R"({"type": "object", "required": ["events"], "properties": {
        "events": {"type": "array", "maxItems": 500, "items": {"type": "object",
          "description": "A tracked event, as sdk_track_event takes it. Its fields are checked one event at a time: a bad event is reported in errors and never rejects the others."}}}})",
    .output_schema = R"({"type": "object", "required": ["accepted", "total"], "properties": {
        "accepted": {"type": "integer"}, "total": {"type": "integer"},
        "errors": {"type": "array", "items": {"type": "object", "required": ["index", "error"],
          "properties": {"index": {"type": "integer"}, "error": {"type": "object",
            "required": ["code", "message"], "properties": {"code": {"type": "string"},
            "message": {"type": "string"}, "details": {"type": "object",
              "additionalProperties": true, "description": "As in ErrorResponse."}}}}}}}})",
    .permission = identity::Permission::kEventsIngest,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kSdkKey,
    .success_status = 202,
    .rate_limited = false,
    .browser_cors = true,
    .mcp_exclusion_reason = kIngestionOnly,
    .run_async = RunTrackEvents,
};

const OperationSpec kSdkIdentify{
    .name = "sdk_identify",
    .summary = "Identify a visitor (SDK)",
    .description = "Links an anonymous id to a user id with traits; reports attribute the "
                   "anonymous history to the user. The last identify of an anonymous id wins.",
    .tag = "Ingestion",
    .method = core::HttpMethod::kPost,
    .path = "/sdk/v1/identify",
    .input_schema = R"({"type": "object", "required": ["anonymous_id", "user_id"], "properties": {
        "anonymous_id": {"type": "string", "format": "uuid"},
        "user_id": {"type": "string", "minLength": 1, "maxLength": 200},
        "traits": {"type": "object"}}})",
    .output_schema = R"({"type": "object", "required": ["success"], "properties": {
        "success": {"type": "boolean"}}})",
    .permission = identity::Permission::kEventsIngest,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kSdkKey,
    .rate_limited = false,
    .browser_cors = true,
    .mcp_exclusion_reason = kIngestionOnly,
    .run_async = RunIdentify,
};

const OperationSpec kListEvents{
    .name = "list_events",
    .summary = "List stored events",
    .description = "The project's events feed, newest first, with every enrichment tag "
                   "(`__browser`, `__device`, `__session_id`, …). Filter by channel, event, user "
                   "and time; page with `cursor`.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/events",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(,
        "channel": {"type": "string", "maxLength": 100},
        "event": {"type": "string", "maxLength": 200},
        "userId": {"type": "string", "maxLength": 200},
        "from": {"type": "string", "format": "date-time", "description": "Inclusive."},
        "to": {"type": "string", "format": "date-time", "description": "Exclusive."}, )"
        SIGHTLINE_FEED_QUERY R"(}})",
    .output_schema = R"({"type": "object", "required": ["events"], "properties": {
        "events": {"type": "array", "items": )" SIGHTLINE_EVENT_SCHEMA R"(},
        )" SIGHTLINE_NEXT_CURSOR_PROPERTY R"(}})",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListEvents,
};

const OperationSpec kGetUsage{
    .name = "get_usage",
    .summary = "Get monthly usage",
    .description = "Events counted per calendar month (UTC): humanEvents (billed) and botEvents "
                   "(stored when bot detection is on, never billed).",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/usage",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"],
        "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(}})",
    .output_schema = R"({"type": "object", "required": ["months"], "properties": {
        "months": {"type": "array", "items": {"type": "object",
          "required": ["month", "humanEvents", "botEvents"], "properties": {
          "month": {"type": "string"}, "humanEvents": {"type": "integer"},
          "botEvents": {"type": "integer"}}}}}})",
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunGetUsage,
};

const OperationSpec kListNotifications{
    .name = "list_notifications",
    .summary = "List notifications",
    .description = "Notifications raised by events sent with `notify: true`, newest first.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/notifications",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"], "properties": {)"
        SIGHTLINE_PROJECT_SCOPE_PROPERTIES ", " SIGHTLINE_FEED_QUERY R"(}})",
    .output_schema = R"({"type": "object", "required": ["notifications"], "properties": {
        "notifications": {"type": "array", "items": )" SIGHTLINE_NOTIFICATION_SCHEMA R"(},
        )" SIGHTLINE_NEXT_CURSOR_PROPERTY R"(}})",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListNotifications,
};

}  // namespace sightline::tools

namespace sightline::tools {

const OperationSpec kStreamNotifications{
    .name = "stream_notifications",
    .summary = "Stream notifications (Server-Sent Events)",
    .description = "A text/event-stream of `notification` events (the NotificationView JSON as "
                   "data) raised from now on, across every node; keep-alive comments every 15 "
                   "seconds. Reconnect with Last-Event-ID to resume where the stream stopped.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/notifications/stream",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"],
        "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(}})",
    .output_schema = R"({"type": "string", "description": "text/event-stream"})",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey,
    .mcp_exclusion_reason = "A stream, not a call with a result.",
    .open_stream = OpenNotificationStream,
};

}  // namespace sightline::tools
