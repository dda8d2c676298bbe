#include "features/ingestion/sdk_operations.h"

#include "ingest/ingest_service.h"
#include "tools/operation_helpers.h"

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

constexpr std::string_view kAcceptedEventSchema = R"({"type": "object",
    "required": ["id", "event", "timestamp"], "properties": {
      "id": {"type": "string", "format": "uuid"}, "event": {"type": "string"},
      "timestamp": {"type": "string", "format": "date-time"}}})";
constexpr std::string_view kIngestionOnly = "Ingestion is for SDKs, not for tools.";

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

}  // namespace sightline::tools
