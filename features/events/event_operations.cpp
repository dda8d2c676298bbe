#include "features/events/event_operations.h"

#include "core/clock.h"
#include "features/events/event_views.h"
#include "storage/event_repository.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/schema_fragments.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kEventList = "list_events";

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
#define SIGHTLINE_FEED_QUERY SIGHTLINE_PAGE_PROPERTIES("50", "500")

}  // namespace

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

}  // namespace sightline::tools
