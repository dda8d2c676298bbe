#include "ingest/server_item.h"

#include "core/ip_address.h"
#include "core/text.h"

namespace sightline::ingest {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::size_t kMaxText = 2000;
constexpr std::int64_t kEarliest = 946684800000;  // 2000-01-01
constexpr std::int64_t kDayMs = 86400000;

Result<std::optional<std::string>> Text(const json::object& item, std::string_view name,
                                        const std::string& prefix, std::size_t max) {
  const json::value* value = item.if_contains(name);
  if (!value || value->is_null()) return std::optional<std::string>();
  const std::string field = prefix + std::string(name);
  if (!value->is_string()) return Error::Invalid(field, "'" + field + "' must be a string.");
  if (value->as_string().size() > max * 4) {
    return Error::Invalid(field, "'" + field + "' is too long.");
  }
  return std::optional<std::string>(core::TruncateUtf8(core::ToValidUtf8(value->as_string()), max));
}

}  // namespace

Result<ServerItem> ParseServerItem(const json::object& item, std::string_view field_prefix,
                                   std::int64_t now) {
  const std::string p(field_prefix);
  ServerItem out;
  auto agent = Text(item, "user_agent", p, kMaxText);
  if (!agent) return agent.error();
  if (!*agent) return Error::Invalid(p + "user_agent", "'" + p + "user_agent' is required.");
  out.user_agent = std::move(**agent);
  auto ip = Text(item, "ip_address", p, 64);
  if (!ip) return ip.error();
  if (!*ip) return Error::Invalid(p + "ip_address", "'" + p + "ip_address' is required.");
  const auto address = core::IpAddress::Parse(**ip);
  if (!address) {
    return Error::Invalid(p + "ip_address", "'" + p + "ip_address' must be an IPv4 or IPv6 address.");
  }
  out.ip_address = address->ToString();
  struct Optional {
    const char* name;
    std::optional<std::string>* into;
  };
  for (const Optional& o : {Optional{"method", &out.method}, Optional{"host", &out.host},
                            Optional{"path", &out.path}, Optional{"referrer", &out.referrer},
                            Optional{"signature", &out.signature},
                            Optional{"signature_input", &out.signature_input},
                            Optional{"signature_agent", &out.signature_agent}}) {
    auto text = Text(item, o.name, p, kMaxText);
    if (!text) return text.error();
    *o.into = std::move(*text);
  }
  auto event = Text(item, "event", p, 200);
  if (!event) return event.error();
  if (*event) out.event = std::move(**event);
  if (const json::value* ts = item.if_contains("client_timestamp"); ts && !ts->is_null()) {
    const std::string field = p + "client_timestamp";
    if (!ts->is_number()) return Error::Invalid(field, "'" + field + "' must be a number.");
    const double ms = ts->to_number<double>();
    if (!(ms >= kEarliest && ms <= static_cast<double>(now + kDayMs))) {
      return Error::Invalid(field, "'" + field + "' must be Unix milliseconds.");
    }
    out.client_timestamp = std::min(static_cast<std::int64_t>(ms), now);
  }
  return out;
}

}  // namespace sightline::ingest
