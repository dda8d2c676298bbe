// Small cryptographic helpers over OpenSSL: randomness, hashing, constant-time comparison and
// identifiers. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::core {

// `count` bytes from the OS CSPRNG. Aborts if the CSPRNG fails (nothing sensible to do).
std::string RandomBytes(std::size_t count);
// Random string over [0-9A-Za-z], unbiased; used for key secrets.
std::string RandomBase62(std::size_t length);
// A random (version 4) UUID in canonical lowercase form.
std::string NewUuidV4();
// A time-ordered (version 7, RFC 9562) UUID for `unix_millis`. Within one process every id is
// greater than the one before, even in the same millisecond, so ids sort in creation order.
std::string NewUuidV7(std::int64_t unix_millis);
bool IsUuid(std::string_view text);

std::string Sha256(std::string_view data);  // raw 32 bytes
std::string HexEncode(std::string_view bytes);
std::string Sha256Hex(std::string_view data);

bool ConstantTimeEquals(std::string_view a, std::string_view b);

// HMAC-SHA-256 of `data` under `key`: raw 32 bytes.
std::string HmacSha256(std::string_view key, std::string_view data);
// RFC 4648 §5 base64url without padding; Decode returns nullopt on any invalid character.
std::string Base64UrlEncode(std::string_view bytes);
std::optional<std::string> Base64UrlDecode(std::string_view text);
// RFC 4648 §4 base64, padded (as Amazon Data Firehose sends record data); Decode accepts
// missing padding.
std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace sightline::core
