// IP addresses and CIDR ranges (IPv4 and IPv6), for trusted proxies and, later, vendor IP
// ranges. IPv4 is held as an IPv4-mapped IPv6 address so one comparison serves both.
// Value types; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::core {

class IpAddress {
 public:
  // "203.0.113.7", "2001:db8::1", "[2001:db8::1]"; nullopt for anything else.
  static std::optional<IpAddress> Parse(std::string_view text);
  bool is_v4() const;
  std::string ToString() const;
  const std::array<std::uint8_t, 16>& bytes() const { return bytes_; }
  // False for loopback, private, link-local, shared, documentation, multicast, reserved and
  // unspecified addresses (IANA special-purpose registries): what an outbound fetch of a
  // URL someone else chose must never reach (SSRF).
  bool IsGlobal() const;
  auto operator<=>(const IpAddress&) const = default;

 private:
  std::array<std::uint8_t, 16> bytes_{};
};

class CidrRange {
 public:
  // "10.0.0.0/8", "2001:db8::/32", or a bare address (a /32 or /128). The prefix length is
  // read against the address's written form: "::ffff:0:0/96" is IPv6 notation, so 96 of 128.
  static std::optional<CidrRange> Parse(std::string_view text);
  bool Contains(const IpAddress& address) const;
  // The address as written (host bits not cleared) and the prefix over the 128-bit mapped
  // form: "10.0.0.0/8" has prefix_bits() 104.
  const IpAddress& network() const { return network_; }
  int prefix_bits() const { return prefix_bits_; }

 private:
  IpAddress network_;
  int prefix_bits_ = 128;  // over the 128-bit (mapped) form
};

// A comma-separated list of ranges; nullopt names the first entry that does not parse.
struct CidrList {
  std::vector<CidrRange> ranges;
  bool Contains(const IpAddress& address) const;
};
std::optional<CidrList> ParseCidrList(std::string_view text, std::string* bad_entry);

}  // namespace sightline::core
