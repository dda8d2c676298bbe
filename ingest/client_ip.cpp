#include "ingest/client_ip.h"

#include <array>

namespace sightline::ingest {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
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
    // X-Forwarded-For lists client, proxy1, proxy2…: the client is the left-most entry.
    const std::string_view first = Trim(value->substr(0, value->find(',')));
    if (auto address = core::IpAddress::Parse(first)) return address->ToString();
  }
  return std::string(peer);
}

}  // namespace sightline::ingest
