// The server-side ingestion item (/ingest/v1/server): one original visitor request forwarded by
// a customer's server or edge, validated per the spec's field table.
#pragma once

#include "core/result.h"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::ingest {

struct ServerItem {
  std::string user_agent;  // required
  std::string ip_address;  // required, a valid IPv4 or IPv6 address
  std::optional<std::string> method, host, path, referrer;
  std::optional<std::string> signature, signature_input, signature_agent;  // Web Bot Auth
  std::optional<std::int64_t> client_timestamp;  // ms; defaults to receipt time
  std::string event = "server_request";
};

// VAL_003 with `details.field` (prefixed, e.g. "events[4].ip_address"). Strings must be at most
// 2,000 characters (event 200); every stored string is valid UTF-8.
core::Result<ServerItem> ParseServerItem(const boost::json::object& item,
                                         std::string_view field_prefix, std::int64_t now_millis);

}  // namespace sightline::ingest
