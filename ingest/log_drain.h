// Hosting-platform log drains (/ingest/v1/{source}): each platform's own log batch format is
// read into server-side ingestion items. Pure functions; thread-safe.
//
// Rows that are not request logs (build output, function logs, a platform's setup probe) and
// rows without a usable client IP and User-Agent are counted as received and skipped: a drain
// retries a non-2xx answer, and resending a row can never make it usable.
#pragma once

#include "core/result.h"
#include "ingest/server_item.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::ingest {

enum class DrainSource { kVercel, kNetlify, kCloudflare, kFastly, kCloudFront };

// The `{source}` path segment: vercel, netlify, cloudflare, fastly, cloudfront.
std::optional<DrainSource> ParseDrainSource(std::string_view name);
std::span<const std::string_view> DrainSourceNames();

struct DrainBatch {
  std::vector<ServerItem> requests;  // the usable request rows
  std::int64_t received = 0;         // every log row in the batch
  // CloudFront real-time logs arrive through an Amazon Data Firehose HTTP-endpoint delivery,
  // whose answer must echo the envelope's requestId.
  std::optional<std::string> firehose_request_id;
};

// How a drain is configured beyond its source.
struct DrainOptions {
  // cloudfront: the real-time log configuration's field names in their configured order
  // ("timestamp", "c-ip", "cs-user-agent", …). When given, each record line is read as the
  // tab-separated values CloudFront writes; otherwise as a JSON object with those names.
  std::vector<std::string> cloudfront_fields;
};

// `fields` as sent (comma-separated CloudFront field names); VAL_003 naming `fields` for an
// empty, duplicated or unknown-looking name.
core::Result<std::vector<std::string>> ParseCloudFrontFields(std::string_view fields);

// VAL_002 when the body as a whole cannot be read (not JSON, not NDJSON, no Firehose envelope).
core::Result<DrainBatch> ParseDrain(DrainSource source, std::string_view body,
                                    std::int64_t now_millis, const DrainOptions& options = {});

// Unix milliseconds from an RFC 3339 timestamp ("2026-11-22T10:00:00.123Z", offsets allowed).
std::optional<std::int64_t> ParseRfc3339Millis(std::string_view text);

}  // namespace sightline::ingest
