#include "storage/event_rows.h"

#include "storage/sql_helpers.h"

namespace sightline::storage::internal {

std::vector<SqlValue> EventParams(const EventRecord& e) {
  return {e.id,          e.project_id,     e.occurred_at,  e.received_at,
          e.event,       e.channel,        Nullable(e.user_id),
          Nullable(e.anonymous_id),        Nullable(e.session_id),
          Nullable(e.icon),                Nullable(e.description),
          Flag(e.notify),                  e.tags_json,
          Nullable(e.ip),                  Nullable(e.user_agent),
          Nullable(e.browser),             Nullable(e.browser_version),
          Nullable(e.os),                  Nullable(e.os_version),
          Nullable(e.device),              Nullable(e.brand),
          Nullable(e.model),               Opt(e.device_confidence),
          Nullable(e.signal_source),       Flag(e.in_app),
          Nullable(e.country),             Nullable(e.region),
          Nullable(e.city),                Nullable(e.path),
          Nullable(e.referrer),            Nullable(e.utm_source),
          Nullable(e.utm_medium),          Nullable(e.utm_campaign),
          Nullable(e.utm_term),            Nullable(e.utm_content),
          Flag(e.is_bot),                  Nullable(e.actor_type),
          Nullable(e.bot_name),            Nullable(e.bot_vendor),
          Nullable(e.actor_category),      Flag(e.actor_verified),
          Nullable(e.verification_method), Opt(e.actor_confidence),
          Flag(e.is_ai),                   Nullable(e.traffic_source),
          Nullable(e.traffic_channel),     Nullable(e.daily_visitor)};
}

EventRecord MapEvent(const SqlRow& r) {
  EventRecord e;
  std::size_t i = 0;
  e.id = r.Text(i++);
  e.project_id = r.Text(i++);
  e.occurred_at = r.Int(i++);
  e.received_at = r.Int(i++);
  e.event = r.Text(i++);
  e.channel = r.Text(i++);
  for (auto* field : {&e.user_id, &e.anonymous_id, &e.session_id, &e.icon, &e.description}) {
    *field = r.OptText(i++);
  }
  e.notify = r.Bool(i++);
  e.tags_json = r.Text(i++);
  for (auto* field : {&e.ip, &e.user_agent, &e.browser, &e.browser_version, &e.os, &e.os_version,
                      &e.device, &e.brand, &e.model}) {
    *field = r.OptText(i++);
  }
  e.device_confidence = OptDouble(r, i++);
  e.signal_source = r.OptText(i++);
  e.in_app = r.Bool(i++);
  for (auto* field : {&e.country, &e.region, &e.city, &e.path, &e.referrer, &e.utm_source,
                      &e.utm_medium, &e.utm_campaign, &e.utm_term, &e.utm_content}) {
    *field = r.OptText(i++);
  }
  e.is_bot = r.Bool(i++);
  for (auto* field : {&e.actor_type, &e.bot_name, &e.bot_vendor, &e.actor_category}) {
    *field = r.OptText(i++);
  }
  e.actor_verified = r.Bool(i++);
  e.verification_method = r.OptText(i++);
  e.actor_confidence = OptDouble(r, i++);
  e.is_ai = r.Bool(i++);
  for (auto* field : {&e.traffic_source, &e.traffic_channel, &e.daily_visitor}) {
    *field = r.OptText(i++);
  }
  return e;
}

}  // namespace sightline::storage::internal
