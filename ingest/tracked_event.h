// The tracked-event body of /sdk/v1/logs (and each item of /sdk/v1/logs/batch), validated.
// Two shapes are accepted: the documented one, and the REST guide's variant where `channel`
// and `tags` sit inside a `properties` object. Limits (docs/ingestion.md): event ≤ 200
// characters, channel ≤ 100, ids ≤ 200, description ≤ 2,000, icon ≤ 64 bytes, ≤ 100 tags with
// names ≤ 100 characters and string values ≤ 2,000; tag values string, number or boolean.
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::ingest {

struct TrackedEvent {
  std::string event;
  std::string channel;
  std::optional<std::string> user_id, anonymous_id, icon, description;
  bool notify = false;
  std::optional<std::int64_t> timestamp_ms;  // the client's, when sent
  boost::json::object tags;                  // includes the client-reserved $url, $referrer
};

// VAL_003 with `details.field` (prefixed by `field_prefix`, e.g. "events[3].") naming the first
// offending field. Timestamps must be Unix milliseconds between 2000-01-01 and a day after `now`.
core::Result<TrackedEvent> ParseTrackedEvent(const boost::json::object& body,
                                             std::string_view field_prefix,
                                             std::int64_t now_millis);

struct IdentifyInput {
  std::string anonymous_id;
  std::string user_id;
  boost::json::object traits;
};
core::Result<IdentifyInput> ParseIdentify(const boost::json::object& body);

}  // namespace sightline::ingest
