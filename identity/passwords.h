// Password hashing with libsodium's argon2id (crypto_pwhash_str, "interactive" limits).
// Thread-safe.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

namespace sightline::identity {

constexpr std::size_t kMinPasswordLength = 8;
constexpr std::size_t kMaxPasswordLength = 1024;

core::Result<std::string> HashPassword(std::string_view password);
bool VerifyPassword(std::string_view stored_hash, std::string_view password);

}  // namespace sightline::identity
