#include "identity/totp.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

#include "core/http_types.h"

namespace sightline::identity {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

bool SameDigits(std::string_view expected, std::string_view given) {
  // Constant time in the code's length: a timing difference would tell digits apart.
  if (expected.size() != given.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) diff |= expected[i] ^ given[i];
  return diff == 0;
}

}  // namespace

std::string Hotp(std::string_view key, std::uint64_t counter, int digits) {
  std::array<unsigned char, 8> message{};
  for (int i = 7; i >= 0; --i) {
    message[i] = static_cast<unsigned char>(counter & 0xFF);
    counter >>= 8;
  }
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), message.data(), message.size(), mac,
       &mac_size);
  // Dynamic truncation (RFC 4226 section 5.3).
  const int offset = mac[mac_size - 1] & 0x0F;
  const std::uint32_t binary = (static_cast<std::uint32_t>(mac[offset] & 0x7F) << 24) |
                               (static_cast<std::uint32_t>(mac[offset + 1]) << 16) |
                               (static_cast<std::uint32_t>(mac[offset + 2]) << 8) |
                               static_cast<std::uint32_t>(mac[offset + 3]);
  std::uint64_t modulus = 1;
  for (int i = 0; i < digits; ++i) modulus *= 10;
  std::string code = std::to_string(binary % modulus);
  return std::string(static_cast<std::size_t>(digits) - code.size(), '0') + code;
}

std::uint64_t TotpStep(std::int64_t unix_seconds) {
  return unix_seconds < 0 ? 0 : static_cast<std::uint64_t>(unix_seconds) / kTotpPeriodSeconds;
}

std::optional<std::uint64_t> MatchTotp(std::string_view key, std::string_view code,
                                       std::int64_t unix_seconds, int window) {
  std::string digits;
  for (const char c : code) {
    if (c == ' ') continue;
    if (c < '0' || c > '9') return std::nullopt;
    digits.push_back(c);
  }
  if (digits.size() != static_cast<std::size_t>(kTotpDigits)) return std::nullopt;
  const std::uint64_t now = TotpStep(unix_seconds);
  std::optional<std::uint64_t> matched;
  for (int delta = -window; delta <= window; ++delta) {
    if (delta < 0 && now < static_cast<std::uint64_t>(-delta)) continue;
    const std::uint64_t step = now + delta;
    // Every candidate is computed, matched or not, so the time taken says nothing.
    if (SameDigits(Hotp(key, step), digits) && !matched) matched = step;
  }
  return matched;
}

std::string Base32Encode(std::string_view bytes) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const unsigned char byte : bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 0x1F]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 0x1F]);
  return out;
}

std::optional<std::string> Base32Decode(std::string_view text) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=' || c == ' ' || c == '-') continue;
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    const auto value = kAlphabet.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
    bits += 5;
    if (bits >= 8) {
      out.push_back(static_cast<char>((buffer >> (bits - 8)) & 0xFF));
      bits -= 8;
    }
  }
  return out;
}

std::string OtpauthUri(std::string_view issuer, std::string_view account, std::string_view key) {
  const std::string label = core::PercentEncode(issuer) + ":" + core::PercentEncode(account);
  return "otpauth://totp/" + label + "?secret=" + Base32Encode(key) +
         "&issuer=" + core::PercentEncode(issuer) +
         "&algorithm=SHA1&digits=" + std::to_string(kTotpDigits) +
         "&period=" + std::to_string(kTotpPeriodSeconds);
}

}  // namespace sightline::identity
