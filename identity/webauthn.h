// WebAuthn (Web Authentication Level 2) verification with OpenSSL: registration ("create":
// attestation formats `none` and `packed`, self or with a certificate that is verified but not
// chained to a root) and authentication ("get"): challenge binding, origin and RP ID checks,
// user presence and verification, ES256 (P-256), Ed25519 and RS256 public keys in COSE form, and the
// signature counter. Pure functions over bytes; storage and challenges are the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace sightline::identity {

inline constexpr std::int64_t kCoseEs256 = -7;
inline constexpr std::int64_t kCoseEdDsa = -8;
inline constexpr std::int64_t kCoseRs256 = -257;  // RSASSA-PKCS1-v1_5 with SHA-256

// What a ceremony must match.
struct WebAuthnExpectation {
  std::string challenge;             // raw bytes the server issued
  std::string rp_id;                 // "analytics.example.com"
  std::vector<std::string> origins;  // "https://analytics.example.com"
  bool require_user_verification = true;
};

struct AuthenticatorData {
  std::string rp_id_hash;  // 32 bytes
  std::uint8_t flags = 0;
  std::uint32_t sign_count = 0;
  // With the AT flag (registration):
  std::string aaguid;         // 16 bytes
  std::string credential_id;  // raw
  std::string public_key;     // the COSE_Key, CBOR
};

inline constexpr std::uint8_t kFlagUserPresent = 0x01;
inline constexpr std::uint8_t kFlagUserVerified = 0x04;
inline constexpr std::uint8_t kFlagAttestedCredential = 0x40;

std::optional<AuthenticatorData> ParseAuthenticatorData(std::string_view bytes);

// The COSE algorithm of a supported public key (ES256, EdDSA or RS256), or nullopt.
std::optional<std::int64_t> CoseAlgorithm(std::string_view cose_key);
// Verifies `signature` over `data` with a COSE public key.
bool VerifyCoseSignature(std::string_view cose_key, std::string_view data,
                         std::string_view signature);

struct RegisteredCredential {
  std::string credential_id;  // raw
  std::string public_key;     // COSE_Key
  std::int64_t algorithm = 0;
  std::uint32_t sign_count = 0;
  std::string aaguid;  // 16 bytes
  std::string attestation_format;
};

// AUTH_013 naming what did not verify.
core::Result<RegisteredCredential> VerifyRegistration(const WebAuthnExpectation& expected,
                                                      std::string_view client_data_json,
                                                      std::string_view attestation_object);

// The new signature counter. `stored_count` is the last one seen for the credential.
core::Result<std::uint32_t> VerifyAssertion(const WebAuthnExpectation& expected,
                                            std::string_view public_key, std::uint32_t stored_count,
                                            std::string_view client_data_json,
                                            std::string_view authenticator_data,
                                            std::string_view signature);

}  // namespace sightline::identity
