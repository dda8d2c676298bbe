#include "ingest/ingest_service.h"

#include "core/clock.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "core/url.h"
#include "ingest/client_ip.h"
#include "ingest/enrichment.h"
#include "ingest/log_drain.h"
#include "ingest/server_item.h"
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
  if (batch.events.empty() && batch.identities.empty() && batch.bot_requests.empty()) {
    return done(std::move(answer));
  }
  const bool queued = writer_.Submit(
      std::move(batch), [answer = std::move(answer), done](Result<void> committed) mutable {
        if (!committed) return done(committed.error());
        done(std::move(answer));
      });
  if (!queued) done(QueueFull());
}

Result<void> IngestService::AddDailyVisitors(IngestBatch& batch, const RequestSignals& signals,
                                            std::int64_t now) {
  for (storage::EventRecord& row : batch.events) {
    if (row.anonymous_id || row.user_id || row.is_bot) continue;
    auto id = daily_ids_.IdFor(row.project_id, signals.client_ip,
                               signals.user_agent.value_or(""), now);
    if (!id) return id.error();
    row.daily_visitor = std::move(*id);
  }
  return {};
}

void IngestService::TrackOne(const storage::ProjectRecord& project, const json::object& body,
                             const RequestSignals& signals, JsonCallback done) {
  const std::int64_t now = clock_.NowMillis();
  auto event = ParseTrackedEvent(body, "", now);
  if (!event) return done(event.error());
  storage::EventRecord row = Enrich(*event, signals, project, now, options_.classifier);
  json::value answer = json::object{{"id", row.id},
                                    {"event", row.event},
                                    {"timestamp", core::FormatRfc3339(row.occurred_at)}};
  IngestBatch batch;
  storage::UsageRecord usage{project.id, UsageMonth(now)};
  Keep(project, std::move(row), batch, usage);
  batch.usage.push_back(usage);
  if (auto added = AddDailyVisitors(batch, signals, now); !added) return done(added.error());
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
    Keep(project, Enrich(*event, signals, project, now, options_.classifier), batch, usage);
  }
  batch.usage.push_back(usage);
  if (auto added = AddDailyVisitors(batch, signals, now); !added) return done(added.error());
  json::value answer = json::object{{"accepted", accepted},
                                    {"total", static_cast<std::int64_t>(events.size())},
                                    {"errors", std::move(errors)}};
  Submit(std::move(batch), std::move(answer), std::move(done));
}

namespace {

json::object AttributionJson(const detection::BotAttribution& a,
                             const std::optional<detection::GeoLocation>& location) {
  json::object out{{"actorType", a.actor_type},
                   {"isBot", a.is_bot},
                   {"isAi", a.is_ai},
                   {"verified", a.verified},
                   {"verificationMethod", a.verification_method},
                   {"confidence", a.confidence},
                   {"browser", a.user_agent.browser},
                   {"os", a.user_agent.os},
                   {"device", std::string(detection::DeviceTypeName(a.user_agent.device))}};
  if (!a.bot_name.empty()) out["botName"] = a.bot_name;
  if (!a.bot_vendor.empty()) out["botVendor"] = a.bot_vendor;
  if (!a.actor_category.empty()) out["actorCategory"] = a.actor_category;
  if (location) out["country"] = location->country;
  return out;
}

std::optional<std::string> NonEmpty(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

// What the classifier may check of a forwarded request: its Web Bot Auth signature (against the
// host, method and path it was made with) at the time it was observed.
detection::RequestEvidence EvidenceOf(const ServerItem& item, std::int64_t now) {
  // Views into `item`, which outlives the evidence.
  auto view = [](const std::optional<std::string>& text, std::string_view absent) {
    return text ? std::string_view(*text) : absent;
  };
  detection::RequestEvidence evidence;
  evidence.observed_millis = item.client_timestamp.value_or(now);
  evidence.signed_request = {.method = view(item.method, "GET"),
                             .authority = view(item.host, ""),
                             .target = view(item.path, "/"),
                             .signature = view(item.signature, ""),
                             .signature_input = view(item.signature_input, ""),
                             .signature_agent = view(item.signature_agent, "")};
  return evidence;
}

storage::BotRequestRecord BotRow(const storage::ProjectRecord& project, const ServerItem& item,
                                 const detection::BotAttribution& a,
                                 const std::optional<detection::GeoLocation>& location,
                                 std::int64_t now, std::string_view source) {
  storage::BotRequestRecord row;
  row.id = core::NewUuidV7(now);
  row.project_id = project.id;
  row.received_at = now;
  row.occurred_at = item.client_timestamp.value_or(now);
  row.event = item.event;
  row.source = std::string(source);
  if (project.ip_logging) row.ip = item.ip_address;
  row.user_agent = item.user_agent;
  row.method = item.method;
  // One spelling per site, so reports can select a site's requests: "Example.com:443" is
  // "example.com".
  if (item.host) row.host = NonEmpty(core::NormalizeHost(*item.host));
  row.path = item.path;
  row.referrer = item.referrer;
  row.actor_type = a.actor_type;
  row.bot_name = NonEmpty(a.bot_name);
  row.bot_vendor = NonEmpty(a.bot_vendor);
  row.actor_category = NonEmpty(a.actor_category);
  row.actor_verified = a.verified;
  row.verification_method = a.verification_method;
  row.actor_confidence = a.confidence;
  row.is_ai = a.is_ai;
  if (location) row.country = NonEmpty(location->country);
  return row;
}

}  // namespace

Result<json::value> IngestService::Classify(const json::object& body) const {
  auto item = ParseServerItem(body, "", clock_.NowMillis());
  if (!item) return item.error();
  const auto attribution = options_.classifier->Classify(item->user_agent, item->ip_address,
                                                         EvidenceOf(*item, clock_.NowMillis()));
  const auto location = options_.geo ? options_.geo->Lookup(item->ip_address) : std::nullopt;
  return json::value(AttributionJson(attribution, location));
}

void IngestService::TrackServerEvents(const storage::ProjectRecord& project,
                                      const json::array& events, JsonCallback done) {
  if (events.size() > kMaxBatchEvents) {
    return done(Error::Invalid("events", "A request holds at most 500 events."));
  }
  const std::int64_t now = clock_.NowMillis();
  std::vector<ServerItem> items;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string prefix = "events[" + std::to_string(i) + "].";
    if (!events[i].is_object()) {
      return done(Error::Invalid(prefix.substr(0, prefix.size() - 1), "Each event must be an object."));
    }
    auto item = ParseServerItem(events[i].as_object(), prefix, now);
    if (!item) return done(item.error());
    items.push_back(std::move(*item));
  }
  IngestBatch batch;
  const std::int64_t accepted = AddBotRequests(project, items, "server", now, batch);
  json::value answer = json::object{{"accepted", accepted},
                                    {"total", static_cast<std::int64_t>(events.size())}};
  Submit(std::move(batch), std::move(answer), std::move(done));
}

std::int64_t IngestService::AddBotRequests(const storage::ProjectRecord& project,
                                           const std::vector<ServerItem>& items,
                                           std::string_view source, std::int64_t now,
                                           IngestBatch& batch) const {
  storage::UsageRecord usage{project.id, UsageMonth(now)};
  if (project.bot_detection) {  // off: bot traffic is dropped entirely
    for (const ServerItem& item : items) {
      const auto attribution =
          options_.classifier->Classify(item.user_agent, item.ip_address, EvidenceOf(item, now));
      if (!attribution.is_bot) continue;  // humans are not stored
      const auto location = options_.geo ? options_.geo->Lookup(item.ip_address) : std::nullopt;
      batch.bot_requests.push_back(BotRow(project, item, attribution, location, now, source));
      if (!attribution.own_crawler) usage.bot_events += 1;  // the product's own audits are free
    }
  }
  batch.usage.push_back(usage);
  return static_cast<std::int64_t>(batch.bot_requests.size());
}

void IngestService::TrackLogDrain(const storage::ProjectRecord& project, std::string_view source,
                                  std::string_view body, const DrainOptions& options,
                                  JsonCallback done) {
  const auto drain_source = ParseDrainSource(source);
  if (!drain_source) {
    return done(Error(ErrorCode::kRouteNotFound, "No log drain is called '" +
                                                     core::TruncateUtf8(std::string(source), 64) +
                                                     "'."));
  }
  const std::int64_t now = clock_.NowMillis();
  auto drain = ParseDrain(*drain_source, body, now, options);
  if (!drain) return done(drain.error());
  IngestBatch batch;
  const std::int64_t accepted = AddBotRequests(project, drain->requests, source, now, batch);
  json::value answer;
  if (drain->firehose_request_id) {
    answer = json::object{{"requestId", *drain->firehose_request_id}, {"timestamp", now}};
  } else {
    answer = json::object{{"accepted", accepted}, {"received", drain->received}};
  }
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
