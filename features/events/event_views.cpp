#include "features/events/event_views.h"

#include "core/clock.h"

#include <boost/json/parse.hpp>

namespace sightline::tools {
namespace {

namespace json = boost::json;

void Put(json::object& out, std::string_view name, const std::optional<std::string>& value) {
  if (value) out[name] = *value;
}

json::object EnrichedTags(const storage::EventRecord& e) {
  boost::system::error_code ec;
  json::value parsed = json::parse(e.tags_json, ec);
  json::object tags = !ec && parsed.is_object() ? std::move(parsed.as_object()) : json::object();
  const std::pair<std::string_view, const std::optional<std::string>*> text[] = {
      {"__browser", &e.browser},       {"__browser_version", &e.browser_version},
      {"__os", &e.os},                 {"__os_version", &e.os_version},
      {"__device", &e.device},         {"__brand", &e.brand},
      {"__model", &e.model},           {"__signal_source", &e.signal_source},
      {"__country", &e.country},       {"__region", &e.region},
      {"__city", &e.city},             {"__path", &e.path},
      {"__referrer", &e.referrer},     {"__utm_source", &e.utm_source},
      {"__utm_medium", &e.utm_medium}, {"__utm_campaign", &e.utm_campaign},
      {"__utm_term", &e.utm_term},     {"__utm_content", &e.utm_content},
      {"__session_id", &e.session_id}, {"__actor_type", &e.actor_type},
      {"__bot_name", &e.bot_name},     {"__bot_vendor", &e.bot_vendor},
      {"__actor_category", &e.actor_category},
      {"__verification_method", &e.verification_method}};
  for (const auto& [name, value] : text) Put(tags, name, *value);
  if (e.device_confidence) tags["__device_confidence"] = *e.device_confidence;
  if (e.actor_confidence) tags["__actor_confidence"] = *e.actor_confidence;
  // Flags follow the spec: 1 when true, absent otherwise.
  if (e.in_app) tags["__in_app"] = 1;
  if (e.is_bot) tags["__is_bot"] = 1;
  if (e.actor_verified) tags["__actor_verified"] = 1;
  if (e.is_ai) tags["__is_ai"] = 1;
  return tags;
}

}  // namespace

json::object EventView(const storage::EventRecord& e) {
  json::object out{{"id", e.id},
                   {"event", e.event},
                   {"channel", e.channel},
                   {"timestamp", core::FormatRfc3339(e.occurred_at)},
                   {"receivedAt", core::FormatRfc3339(e.received_at)},
                   {"notify", e.notify}};
  Put(out, "userId", e.user_id);
  Put(out, "anonymousId", e.anonymous_id);
  Put(out, "icon", e.icon);
  Put(out, "description", e.description);
  Put(out, "ip", e.ip);
  out["tags"] = EnrichedTags(e);
  return out;
}
}  // namespace sightline::tools
