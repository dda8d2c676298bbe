// Passkeys: registering a WebAuthn credential for the signed-in user, signing in with one, and
// managing them. The server issues a random challenge per ceremony (stored, single-use, five
// minutes) and verifies the browser's answer against it, this server's origin and RP ID
// (identity/webauthn). Sign-in needs user verification (a PIN or biometrics on the
// authenticator), so a passkey is two factors in one and stands in for the TOTP code.
// Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace boost::json {
class object;
}
namespace sightline::storage {
struct PasskeyRecord;
}

namespace sightline::identity {

struct PasskeySettings {
  std::string rp_id;  // the public host name: "analytics.example.com"
  std::string rp_name = "Sightline";
  std::vector<std::string> origins;  // "https://analytics.example.com"
};

struct PasskeyChallenge {
  std::string challenge_id;
  std::string challenge;                         // base64url
  std::vector<std::string> exclude_credentials;  // registration: the user's own (base64url)
};

// What the browser sent back from navigator.credentials.create() or .get(), decoded from
// base64url (ReadPasskeyRegistration, ReadPasskeyAssertion).
struct PasskeyRegistration {
  std::string client_data_json;
  std::string attestation_object;
  std::string label;
  std::vector<std::string> transports;
};
struct PasskeyAssertion {
  std::string credential_id;  // raw
  std::string client_data_json;
  std::string authenticator_data;
  std::string signature;
  std::string user_handle;  // raw; empty when the browser sent none
};

// The assertion in the JSON a browser's PublicKeyCredential from navigator.credentials.get()
// serializes to: `rawId` (or `id`) and `response.clientDataJSON`, `authenticatorData`,
// `signature`, `userHandle`, each base64url. VAL_001 naming what is missing or not base64url.
core::Result<PasskeyAssertion> ReadPasskeyAssertion(const boost::json::object& credential);
// The same for navigator.credentials.create(): `response.clientDataJSON` and
// `attestationObject`, and the `response.transports` named (no label).
core::Result<PasskeyRegistration> ReadPasskeyRegistration(const boost::json::object& credential);

class PasskeyService {
 public:
  PasskeyService(storage::Store& store, const core::Clock& clock, PasskeySettings settings);

  const PasskeySettings& settings() const { return settings_; }
  // Whether passkeys can work here: an RP ID that is a host name, not an IP address.
  bool available() const;

  core::Result<PasskeyChallenge> BeginRegistration(const storage::UserRecord& user);
  // AUTH_013 when it does not verify (or the challenge is unknown, used, expired or another
  // user's); 409 REQ_003 when the credential is registered already.
  core::Result<storage::PasskeyRecord> FinishRegistration(const storage::UserRecord& user,
                                                          std::string_view challenge_id,
                                                          const PasskeyRegistration& response);
  core::Result<PasskeyChallenge> BeginAuthentication();
  // The user the passkey signs in; AUTH_013 otherwise.
  core::Result<storage::UserRecord> FinishAuthentication(std::string_view challenge_id,
                                                         const PasskeyAssertion& response);

 private:
  core::Result<PasskeyChallenge> Issue(std::optional<std::string> user_id, std::string purpose);
  core::Result<std::string> Take(std::string_view challenge_id, std::string_view purpose,
                                 const std::optional<std::string>& user_id);

  storage::Store& store_;
  const core::Clock& clock_;
  const PasskeySettings settings_;
};

}  // namespace sightline::identity
