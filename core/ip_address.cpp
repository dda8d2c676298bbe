#include "core/ip_address.h"

#include <arpa/inet.h>

#include <cstring>

namespace sightline::core {

std::optional<IpAddress> IpAddress::Parse(std::string_view text) {
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string copy(text);
  IpAddress address;
  in_addr v4{};
  if (inet_pton(AF_INET, copy.c_str(), &v4) == 1) {
    address.bytes_[10] = 0xFF;
    address.bytes_[11] = 0xFF;
    std::memcpy(address.bytes_.data() + 12, &v4, 4);
    return address;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, copy.c_str(), &v6) == 1) {
    std::memcpy(address.bytes_.data(), &v6, 16);
    return address;
  }
  return std::nullopt;
}

bool IpAddress::is_v4() const {
  static constexpr std::array<std::uint8_t, 12> kMapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
  return std::memcmp(bytes_.data(), kMapped.data(), kMapped.size()) == 0;
}

std::string IpAddress::ToString() const {
  char buffer[INET6_ADDRSTRLEN] = {};
  if (is_v4()) {
    inet_ntop(AF_INET, bytes_.data() + 12, buffer, sizeof buffer);
  } else {
    inet_ntop(AF_INET6, bytes_.data(), buffer, sizeof buffer);
  }
  return buffer;
}

std::optional<CidrRange> CidrRange::Parse(std::string_view text) {
  const auto slash = text.find('/');
  const auto address = IpAddress::Parse(text.substr(0, slash));
  if (!address) return std::nullopt;
  CidrRange range;
  range.network_ = *address;
  // By the written form, not is_v4(): "::ffff:0:0/96" is a mapped address in IPv6 notation.
  const bool ipv6_notation = text.substr(0, slash).find(':') != std::string_view::npos;
  const int width = ipv6_notation ? 128 : 32;
  int bits = width;
  if (slash != std::string_view::npos) {
    const std::string_view digits = text.substr(slash + 1);
    if (digits.empty() || digits.size() > 3) return std::nullopt;
    bits = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      bits = bits * 10 + (c - '0');
    }
    if (bits > width) return std::nullopt;
  }
  range.prefix_bits_ = bits + (128 - width);
  return range;
}

bool CidrRange::Contains(const IpAddress& address) const {
  const auto& a = address.bytes();
  const auto& n = network_.bytes();
  int bits = prefix_bits_;
  for (std::size_t i = 0; bits > 0; ++i, bits -= 8) {
    const std::uint8_t mask = bits >= 8 ? 0xFF : static_cast<std::uint8_t>(0xFF << (8 - bits));
    if ((a[i] & mask) != (n[i] & mask)) return false;
  }
  return true;
}

bool CidrList::Contains(const IpAddress& address) const {
  for (const auto& range : ranges) {
    if (range.Contains(address)) return true;
  }
  return false;
}

std::optional<CidrList> ParseCidrList(std::string_view text, std::string* bad_entry) {
  CidrList list;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view entry = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry.empty()) continue;
    auto range = CidrRange::Parse(entry);
    if (!range) {
      if (bad_entry) *bad_entry = std::string(entry);
      return std::nullopt;
    }
    list.ranges.push_back(*range);
  }
  return list;
}

bool IpAddress::IsGlobal() const {
  static const std::vector<CidrRange> kSpecial = [] {
    std::vector<CidrRange> out;
    for (const char* text :
         {"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
          "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
          "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3", "::/127",
          "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
          "fe80::/10", "ff00::/8"}) {
      out.push_back(*CidrRange::Parse(text));
    }
    return out;
  }();
  for (const CidrRange& range : kSpecial) {
    if (range.Contains(*this)) return false;
  }
  return true;
}

}  // namespace sightline::core
