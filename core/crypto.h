// Small cryptographic helpers over OpenSSL: randomness, hashing, constant-time comparison and
// identifiers. Thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sightline::core {

// `count` bytes from the OS CSPRNG. Aborts if the CSPRNG fails (nothing sensible to do).
std::string RandomBytes(std::size_t count);
// Random string over [0-9A-Za-z], unbiased; used for key secrets.
std::string RandomBase62(std::size_t length);
// A random (version 4) UUID in canonical lowercase form.
std::string NewUuidV4();
bool IsUuid(std::string_view text);

std::string Sha256(std::string_view data);  // raw 32 bytes
std::string HexEncode(std::string_view bytes);
std::string Sha256Hex(std::string_view data);

bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace sightline::core
