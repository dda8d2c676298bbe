// Rows of the second-factor area (storage/second_factor_repository.h), as plain values: TOTP
// two-factor authentication, passkeys and WebAuthn challenges. Times are Unix milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

// A user's two-factor authentication (TOTP) state; secrets are the raw key bytes, base32.
struct TwoFactorRecord {
  std::string user_id;
  std::optional<std::string> secret;          // set once enabled
  std::optional<std::string> pending_secret;  // between setup and enable
  std::optional<std::int64_t> pending_created_at;
  std::optional<std::int64_t> enabled_at;
  std::int64_t last_step = 0;  // the last TOTP time step accepted
};

// A passkey (WebAuthn credential) of a user.
struct PasskeyRecord {
  std::string id;
  std::string user_id;
  std::string credential_id;  // base64url of the raw id
  std::string public_key;     // base64url of the COSE_Key
  std::int64_t algorithm = 0;  // COSE: -7 ES256, -8 EdDSA
  std::int64_t sign_count = 0;
  std::string aaguid;      // hex; all zeros when the authenticator does not say
  std::string label;
  std::string transports;  // comma-separated ("internal,hybrid")
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
};

// A WebAuthn ceremony in progress: the challenge the server issued, used once.
struct WebAuthnChallengeRecord {
  std::string id;
  std::optional<std::string> user_id;  // registration: the user; sign-in: none yet
  std::string purpose;                 // "register" or "authenticate"
  std::string challenge;               // base64url
  std::int64_t expires_at = 0;
};

}  // namespace sightline::storage
