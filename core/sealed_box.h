// Secrets the server must read back later (a provider's API key), sealed with AES-256-GCM under
// a key from the server's configuration, so a copy of the store alone does not give them away.
// A sealed value is "v1." + base64url(nonce ‖ ciphertext ‖ tag); the associated data (what the
// secret belongs to, e.g. an engine id) must match when opening, so a sealed value copied onto
// another row does not open there.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sightline::core {

class SealedBox {
 public:
  static constexpr std::size_t kKeyBytes = 32;
  // `key` must be kKeyBytes raw bytes.
  explicit SealedBox(std::string key);
  // Reads a key file: 32 raw bytes, or their base64/base64url/hex text (whitespace ignored).
  // VAL_003 naming the file when it holds anything else.
  static Result<SealedBox> FromKeyFile(const std::string& path);
  // Creates the key file (mode 0600) with a new random key when it does not exist yet.
  static Result<SealedBox> LoadOrCreateKeyFile(const std::string& path);

  std::string Seal(std::string_view plaintext, std::string_view associated_data) const;
  // Nullopt when the value was not sealed by this key for this associated data (or is damaged).
  std::optional<std::string> Open(std::string_view sealed, std::string_view associated_data) const;

 private:
  std::string key_;
};

}  // namespace sightline::core
