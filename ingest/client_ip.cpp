#include "ingest/client_ip.h"

#include "core/text.h"

#include <array>
#include <optional>

namespace sightline::ingest {

namespace {

// "203.0.113.9", "203.0.113.9:5678", "[2001:db8::1]:443", "2001:db8::1".
std::optional<core::IpAddress> ParseWithPort(std::string_view text) {
  if (auto address = core::IpAddress::Parse(text)) return address;
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    return core::IpAddress::Parse(text.substr(0, close + 1));
  }
  const auto colon = text.rfind(':');
  if (colon != std::string_view::npos && text.find(':') == colon) {
    return core::IpAddress::Parse(text.substr(0, colon));
  }
  return std::nullopt;
}

// X-Forwarded-For is appended to by each proxy, so only its right end is trustworthy: walk
// from the right past our own proxies; the first other address is the client's. Anything the
// client wrote further left is ignored.
std::optional<core::IpAddress> FromForwardedFor(std::string_view list,
                                                const core::CidrList& trusted_proxies) {
  while (!list.empty()) {
    const auto comma = list.rfind(',');
    const std::string_view entry =
        core::TrimSpaces(comma == std::string_view::npos ? list : list.substr(comma + 1));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(0, comma);
    const auto address = ParseWithPort(entry);
    if (!address) return std::nullopt;  // garbage: trust nothing further left
    if (!trusted_proxies.Contains(*address)) return address;
  }
  return std::nullopt;
}

}  // namespace

std::string ClientIp(const core::HttpHeaders& headers, std::string_view peer,
                     const core::CidrList& trusted_proxies) {
  const auto peer_address = core::IpAddress::Parse(peer);
  if (!peer_address || !trusted_proxies.Contains(*peer_address)) return std::string(peer);
  static constexpr std::array<std::string_view, 4> kHeaders = {
      "CF-Connecting-IP", "X-Forwarded-For", "X-Real-IP", "True-Client-IP"};
  for (std::string_view name : kHeaders) {
    const auto value = headers.Get(name);
    if (!value) continue;
    const auto address = name == "X-Forwarded-For" ? FromForwardedFor(*value, trusted_proxies)
                                                   : ParseWithPort(core::TrimSpaces(*value));
    if (address) return address->ToString();
  }
  return std::string(peer);
}

}  // namespace sightline::ingest
