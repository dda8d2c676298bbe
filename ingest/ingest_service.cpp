#include "ingest/ingest_service.h"

#include "core/clock.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "ingest/client_ip.h"
#include "ingest/enrichment.h"
#include "ingest/tracked_event.h"

namespace sightline::ingest {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

// Header values are arbitrary bytes (obs-text): stored ones must be valid UTF-8, and bounded.
std::optional<std::string> Header(const core::HttpHeaders& headers, std::string_view name) {
  constexpr std::size_t kMaxHeaderValue = 2000;
  if (auto value = headers.Get(name)) {
    return core::TruncateUtf8(core::ToValidUtf8(*value), kMaxHeaderValue);
  }
  return std::nullopt;
}

Error QueueFull() {
  return Error(ErrorCode::kUnavailable,
               "The ingestion queue is full; retry with backoff. Nothing was stored.");
}

// Applies the project's switches to one enriched row, adding what is kept to `batch`.
// Returns whether the event is kept (stored).
bool Keep(const storage::ProjectRecord& project, storage::EventRecord row, IngestBatch& batch,
          storage::UsageRecord& usage) {
  if (!project.event_storage) return false;  // accepted and discarded
  if (row.is_bot && !project.bot_detection) return false;  // bot traffic dropped entirely
  (row.is_bot ? usage.bot_events : usage.human_events) += 1;
  if (row.notify && !row.is_bot) {
    batch.notifications.push_back({core::NewUuidV7(row.received_at), row.project_id, row.id, row.event,
                                   row.channel, row.icon, row.description, row.user_id,
                                   row.received_at});
  }
  batch.events.push_back(std::move(row));
  return true;
}

json::object ErrorJson(const Error& error) {
  json::object out{{"code", error.info().id}, {"message", error.message()}};
  if (!error.details().empty()) out["details"] = error.details();
  return out;
}

}  // namespace

RequestSignals IngestService::ReadSignals(const core::HttpHeaders& headers,
                                          std::string_view peer) const {
  RequestSignals signals;
  signals.client_ip = ClientIp(headers, peer, options_.trusted_proxies);
  signals.user_agent = Header(headers, "User-Agent");
  signals.referer = Header(headers, "Referer");
  signals.hints.brands = Header(headers, "Sec-CH-UA");
  signals.hints.mobile = Header(headers, "Sec-CH-UA-Mobile");
  signals.hints.platform = Header(headers, "Sec-CH-UA-Platform");
  signals.hints.platform_version = Header(headers, "Sec-CH-UA-Platform-Version");
  signals.hints.model = Header(headers, "Sec-CH-UA-Model");
  signals.hints.form_factors = Header(headers, "Sec-CH-UA-Form-Factors");
  signals.hints.full_version_list = Header(headers, "Sec-CH-UA-Full-Version-List");
  if (options_.geo) signals.location = options_.geo->Lookup(signals.client_ip);
  return signals;
}

void IngestService::Submit(IngestBatch batch, json::value answer, JsonCallback done) {
  if (batch.events.empty() && batch.identities.empty()) return done(std::move(answer));
  const bool queued = writer_.Submit(
      std::move(batch), [answer = std::move(answer), done](Result<void> committed) mutable {
        if (!committed) return done(committed.error());
        done(std::move(answer));
      });
  if (!queued) done(QueueFull());
}

void IngestService::TrackOne(const storage::ProjectRecord& project, const json::object& body,
                             const RequestSignals& signals, JsonCallback done) {
  const std::int64_t now = clock_.NowMillis();
  auto event = ParseTrackedEvent(body, "", now);
  if (!event) return done(event.error());
  storage::EventRecord row = Enrich(*event, signals, project, now);
  json::value answer = json::object{{"id", row.id},
                                    {"event", row.event},
                                    {"timestamp", core::FormatRfc3339(row.occurred_at)}};
  IngestBatch batch;
  storage::UsageRecord usage{project.id, UsageMonth(now)};
  Keep(project, std::move(row), batch, usage);
  batch.usage.push_back(usage);
  Submit(std::move(batch), std::move(answer), std::move(done));
}

void IngestService::TrackBatch(const storage::ProjectRecord& project, const json::array& events,
                               const RequestSignals& signals, JsonCallback done) {
  if (events.size() > kMaxBatchEvents) {
    return done(Error::Invalid("events", "A batch holds at most 500 events."));
  }
  const std::int64_t now = clock_.NowMillis();
  IngestBatch batch;
  storage::UsageRecord usage{project.id, UsageMonth(now)};
  json::array errors;
  std::int64_t accepted = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string prefix = "events[" + std::to_string(i) + "].";
    Result<TrackedEvent> event =
        events[i].is_object()
            ? ParseTrackedEvent(events[i].as_object(), prefix, now)
            : Result<TrackedEvent>(Error::Invalid(prefix.substr(0, prefix.size() - 1),
                                                  "Each event must be an object."));
    if (!event) {
      errors.push_back(json::object{{"index", i}, {"error", ErrorJson(event.error())}});
      continue;
    }
    ++accepted;
    Keep(project, Enrich(*event, signals, project, now), batch, usage);
  }
  batch.usage.push_back(usage);
  json::value answer = json::object{{"accepted", accepted},
                                    {"total", static_cast<std::int64_t>(events.size())},
                                    {"errors", std::move(errors)}};
  Submit(std::move(batch), std::move(answer), std::move(done));
}

void IngestService::Identify(const storage::ProjectRecord& project, const json::object& body,
                             JsonCallback done) {
  auto input = ParseIdentify(body);
  if (!input) return done(input.error());
  const std::int64_t now = clock_.NowMillis();
  IngestBatch batch;
  batch.identities.push_back({project.id, input->anonymous_id, input->user_id,
                              core::ToJson(input->traits), now, now});
  Submit(std::move(batch), json::object{{"success", true}}, std::move(done));
}

}  // namespace sightline::ingest
