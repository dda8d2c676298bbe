#include "ingest/enrichment.h"

#include "core/clock.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "core/url.h"
#include "ingest/attribution.h"
#include "ingest/traffic_sources.h"

#include <algorithm>
#include <array>

namespace sightline::ingest {
namespace {

std::string TagText(const boost::json::object& tags, std::string_view name) {
  const boost::json::value* value = tags.if_contains(name);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::optional<std::string> NonEmpty(const std::string& text) {
  if (text.empty() || text == "unknown") return std::nullopt;
  return text;
}

void AddDevice(storage::EventRecord& row, const detection::UserAgentInfo& ua) {
  row.browser = ua.browser;
  row.browser_version = NonEmpty(ua.browser_version);
  row.os = ua.os;
  row.os_version = NonEmpty(ua.os_version);
  row.device = std::string(detection::DeviceTypeName(ua.device));
  row.brand = NonEmpty(ua.brand);
  row.model = NonEmpty(ua.model);
  row.device_confidence = ua.device_confidence;
  row.signal_source = std::string(detection::SignalSourceName(ua.signal_source));
  row.in_app = ua.in_app;
}

// HTTP client libraries and runtimes. On the SDK routes they are how servers and mobile apps
// send their events (a backend tracking a payment, an Android app on OkHttp, a Flutter app on
// Dart), so there they mean "client unknown", not "bot".
bool IsHttpLibrary(std::string_view product) {
  static constexpr std::array<std::string_view, 31> kLibraries = {
      "okhttp", "dart", "java", "python", "ruby", "php", "node", "libcurl", "curl", "wget",
      "reqwest", "got", "winhttp", "powershell", "python-requests", "python-urllib",
      "python-httpx", "httpx", "aiohttp", "go-http-client", "node-fetch", "undici", "axios",
      "libwww-perl", "lwp-trivial", "apache-httpclient", "guzzlehttp", "postmanruntime",
      "restsharp", "http_request2", "commons-httpclient"};
  const std::string lower = core::ToLowerAscii(product);
  return std::find(kLibraries.begin(), kLibraries.end(), lower) != kLibraries.end();
}

// A bot is named from the catalog when it is there; an SDK event can only be verified by the
// visitor's IP (a crawler that runs the tracking script, such as a search engine's renderer).
void AddActor(storage::EventRecord& row, const detection::BotAttribution& a) {
  const detection::UserAgentInfo& ua = a.user_agent;
  const bool plain_automation = a.actor_category.empty() || a.actor_category == "automation";
  if (a.is_bot && plain_automation && (ua.bot_name.empty() || IsHttpLibrary(ua.bot_name))) {
    row.is_bot = false;
    row.actor_type = "unknown";
    row.device = "unknown";
    row.signal_source = "NONE";
    row.device_confidence = 0.30;
    row.actor_confidence = 0.30;
    row.verification_method = "none";
    return;
  }
  row.is_bot = a.is_bot;
  row.actor_type = a.actor_type;
  row.actor_verified = a.verified;
  row.verification_method = a.verification_method;
  row.actor_confidence = a.is_bot ? a.confidence : ua.device_confidence;
  row.bot_name = NonEmpty(a.bot_name);
  row.bot_vendor = NonEmpty(a.bot_vendor);
  row.actor_category = NonEmpty(a.actor_category);
  row.is_ai = a.is_ai;
}

detection::BotAttribution UaOnly(const detection::UserAgentInfo& ua) {
  detection::BotAttribution a;
  a.user_agent = ua;
  a.is_bot = ua.is_bot;
  a.actor_type = ua.is_bot ? "suspected_bot" : "human";
  a.confidence = ua.is_bot ? 0.60 : ua.device_confidence;
  if (ua.is_bot) {
    a.bot_name = ua.bot_name;
    a.actor_category = "automation";
  }
  return a;
}

}  // namespace

std::string UsageMonth(std::int64_t unix_millis) {
  return core::FormatRfc3339(unix_millis).substr(0, 7);
}

storage::EventRecord Enrich(const TrackedEvent& event, const RequestSignals& signals,
                            const storage::ProjectRecord& project, std::int64_t now,
                            const detection::RequestClassifier* classifier) {
  storage::EventRecord row;
  // Time-ordered ids: the feed lists events received in the same millisecond in arrival order.
  row.id = core::NewUuidV7(now);
  row.project_id = project.id;
  row.received_at = now;
  // A client clock ahead of ours is clamped to the time of receipt: a future time would pin
  // the visitor's session and land in tomorrow's reports.
  row.occurred_at = std::min(event.timestamp_ms.value_or(now), now);
  row.event = event.event;
  row.channel = event.channel;
  row.user_id = event.user_id;
  row.anonymous_id = event.anonymous_id;
  row.icon = event.icon;
  row.description = event.description;
  row.notify = event.notify;
  row.tags_json = core::ToJson(event.tags);
  if (project.ip_logging && !signals.client_ip.empty()) row.ip = signals.client_ip;
  row.user_agent = signals.user_agent;
  const std::string agent = signals.user_agent.value_or("");
  const detection::BotAttribution actor =
      classifier ? classifier->Classify(agent, signals.client_ip, signals.hints)
                 : UaOnly(detection::ParseUserAgent(agent, signals.hints));
  AddDevice(row, actor.user_agent);
  AddActor(row, actor);
  if (signals.location) {
    row.country = NonEmpty(signals.location->country);
    row.region = NonEmpty(signals.location->region);
    row.city = NonEmpty(signals.location->city);
  }
  std::string page = TagText(event.tags, "$url");
  if (page.empty()) page = signals.referer.value_or("");
  const Attribution attribution = ParseAttribution(page, TagText(event.tags, "$referrer"));
  row.path = attribution.path;
  row.referrer = attribution.referrer;
  row.utm_source = attribution.utm_source;
  row.utm_medium = attribution.utm_medium;
  row.utm_campaign = attribution.utm_campaign;
  row.utm_term = attribution.utm_term;
  row.utm_content = attribution.utm_content;
  const TrafficSource origin = ClassifyTrafficSource(
      row.referrer.value_or(""), core::HostOfUrl(page), row.utm_source.value_or(""),
      row.utm_medium.value_or(""), row.utm_campaign.value_or(""), project.domains);
  row.traffic_source = origin.source;
  row.traffic_channel = origin.channel;
  return row;
}

}  // namespace sightline::ingest
