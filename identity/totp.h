// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA1, the algorithm every
// authenticator app supports) and the base32 secrets (RFC 4648) apps read from otpauth:// URIs.
// Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::identity {

inline constexpr int kTotpPeriodSeconds = 30;
inline constexpr int kTotpDigits = 6;

// HOTP value of `counter` for `key` (raw bytes), `digits` long with leading zeros.
std::string Hotp(std::string_view key, std::uint64_t counter, int digits = kTotpDigits);
// The time step of a Unix time (seconds).
std::uint64_t TotpStep(std::int64_t unix_seconds);

// The step within ±`window` steps of `unix_seconds` whose code `code` is (spaces ignored), or
// nullopt. A caller refuses a step it has seen already (a code is single-use).
std::optional<std::uint64_t> MatchTotp(std::string_view key, std::string_view code,
                                       std::int64_t unix_seconds, int window = 1);

std::string Base32Encode(std::string_view bytes);  // upper case, no padding
// Case-insensitive, padding and spaces ignored; nullopt on another character.
std::optional<std::string> Base32Decode(std::string_view text);

// otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30
std::string OtpauthUri(std::string_view issuer, std::string_view account, std::string_view key);

}  // namespace sightline::identity
