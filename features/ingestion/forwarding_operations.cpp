#include "features/ingestion/forwarding_operations.h"

#include "ingest/ingest_service.h"
#include "tools/operation_helpers.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

Result<json::value> RunClassify(OperationContext& context, const json::object& args) {
  return context.services.ingest->Classify(args);
}

void RunIngestServer(OperationContext& context, const json::object& args, ResultCallback done) {
  auto project = KeyProject(context);
  if (!project) return done(project.error());
  context.services.ingest->TrackServerEvents(*project, args.at("events").as_array(), std::move(done));
}

void RunIngestLogDrain(OperationContext& context, const json::object& args, ResultCallback done) {
  auto project = KeyProject(context);
  if (!project) return done(project.error());
  ingest::DrainOptions options;
  if (const json::value* fields = args.if_contains("fields")) {
    if (args.at("source").as_string() != "cloudfront") {
      return done(core::Error::Invalid("fields", "'fields' configures the cloudfront drain only."));
    }
    auto names = ingest::ParseCloudFrontFields(fields->as_string());
    if (!names) return done(names.error());
    options.cloudfront_fields = std::move(*names);
  }
  context.services.ingest->TrackLogDrain(*project, args.at("source").as_string(),
                                args.at("body").as_string(), options, std::move(done));
}

}  // namespace

const OperationSpec kClassifyRequest{
    .name = "classify_request",
    .summary = "Classify a request (stores nothing)",
    .description =
        "The full attribution of one request description (the server-side ingestion item): "
        "human, verified_bot, spoofed_bot or suspected_bot, with the bot's name, vendor, "
        "category, AI flag, verification method and confidence. For debugging a setup.",
    .tag = "Crawler detection",
    .method = core::HttpMethod::kPost,
    .path = "/bots/classify",
    .permission = identity::Permission::kBotsClassify,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kPrivateApiKey | CredentialKind::kUserSession,
    .run = RunClassify,
};

const OperationSpec kIngestServerEvents{
    .name = "ingest_server_events",
    .summary = "Forward request signals (server-side crawler detection)",
    .description =
        "Up to 500 original visitor requests from your server or edge. Each is classified; bots "
        "are stored with their attribution (committed before the 202), humans are skipped, and "
        "nothing is stored while the project's bot detection is off. An invalid item rejects "
        "the request with VAL_003 naming events[i].field.",
    .tag = "Crawler detection",
    .method = core::HttpMethod::kPost,
    .path = "/ingest/v1/server",
    .permission = identity::Permission::kBotsIngest,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kPrivateApiKey,
    .success_status = 202,
    .rate_limited = false,
    .mcp_exclusion_reason = "Ingestion is for servers, not for tools.",
    .run_async = RunIngestServer,
};

const OperationSpec kIngestLogDrain{
    .name = "ingest_log_drain",
    .summary = "Receive a hosting platform's log drain",
    .description =
        "Point a platform's log drain here: vercel (JSON array or NDJSON), netlify (JSON array "
        "or NDJSON), cloudflare (Logpush HTTP destination, NDJSON, gzip), fastly (JSON lines) or "
        "cloudfront (CloudFront real-time logs through an Amazon Data Firehose HTTP endpoint; "
        "the key may be sent as X-Amz-Firehose-Access-Key). Each request log is classified like "
        "a server-side item and bots are stored; other logs and rows without a usable IP and "
        "User-Agent are skipped. Answers {accepted, received}, or {requestId, timestamp} for "
        "cloudfront. Setup per platform: docs/log-drains.md.",
    .tag = "Crawler detection",
    .method = core::HttpMethod::kPost,
    .path = "/ingest/v1/{source}",
    .permission = identity::Permission::kBotsIngest,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kPrivateApiKey,
    .rate_limited = false,
    .raw_body = true,
    .mcp_exclusion_reason = "Log drains are for hosting platforms, not for tools.",
    .run_async = RunIngestLogDrain,
};

}  // namespace sightline::tools
