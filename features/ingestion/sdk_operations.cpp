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
    .permission = identity::Permission::kEventsIngest,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kSdkKey,
    .rate_limited = false,
    .browser_cors = true,
    .mcp_exclusion_reason = kIngestionOnly,
    .run_async = RunIdentify,
};

}  // namespace sightline::tools
