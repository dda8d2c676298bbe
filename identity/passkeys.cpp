#include "identity/passkeys.h"

#include "core/crypto.h"
#include "core/ip_address.h"
#include "identity/webauthn.h"
#include "storage/account_repository.h"
#include "storage/second_factor_repository.h"

#include <boost/json/object.hpp>

namespace sightline::identity {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;
using storage::Transaction;

constexpr std::int64_t kChallengeMillis = 5 * 60 * 1000;
constexpr std::size_t kChallengeBytes = 32;

Error Refused(std::string why) { return Error(ErrorCode::kAuthBadPasskey, std::move(why)); }

std::string JoinTransports(const std::vector<std::string>& transports) {
  std::string out;
  for (const std::string& t : transports) {
    // Only WebAuthn's transport names ("usb", "nfc", "ble", "internal", "hybrid"…).
    if (t.empty() || t.size() > 16 ||
        t.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") != std::string::npos) {
      continue;
    }
    if (!out.empty()) out += ",";
    out += t;
  }
  return out;
}

// A base64url member of the credential's `response` (or of the credential itself).
Result<std::string> Binary(const boost::json::object& object, std::string_view key, bool required) {
  const boost::json::value* value = object.if_contains(key);
  if (!value || !value->is_string()) {
    if (!required) return std::string();
    return Error::Invalid(std::string(key), "`" + std::string(key) + "` is missing.");
  }
  auto decoded = core::Base64UrlDecode(value->as_string());
  if (!decoded) {
    return Error::Invalid(std::string(key), "`" + std::string(key) + "` is not base64url.");
  }
  return std::move(*decoded);
}

}  // namespace

Result<PasskeyAssertion> ReadPasskeyAssertion(const boost::json::object& credential) {
  const boost::json::value* response = credential.if_contains("response");
  if (!response || !response->is_object()) {
    return Error::Invalid("credential", "`credential.response` is missing.");
  }
  PasskeyAssertion assertion;
  auto id = Binary(credential, "rawId", false);
  if (!id) return id.error();
  if (id->empty()) id = Binary(credential, "id", true);
  if (!id) return id.error();
  assertion.credential_id = std::move(*id);
  for (auto [key, out] : {std::pair{"clientDataJSON", &assertion.client_data_json},
                          std::pair{"authenticatorData", &assertion.authenticator_data},
                          std::pair{"signature", &assertion.signature}}) {
    auto value = Binary(response->as_object(), key, true);
    if (!value) return value.error();
    *out = std::move(*value);
  }
  auto handle = Binary(response->as_object(), "userHandle", false);
  if (!handle) return handle.error();
  assertion.user_handle = std::move(*handle);
  return assertion;
}

Result<PasskeyRegistration> ReadPasskeyRegistration(const boost::json::object& credential) {
  const boost::json::value* response = credential.if_contains("response");
  if (!response || !response->is_object()) {
    return Error::Invalid("credential", "`credential.response` is missing.");
  }
  PasskeyRegistration registration;
  auto client_data = Binary(response->as_object(), "clientDataJSON", true);
  if (!client_data) return client_data.error();
  auto attestation = Binary(response->as_object(), "attestationObject", true);
  if (!attestation) return attestation.error();
  registration.client_data_json = std::move(*client_data);
  registration.attestation_object = std::move(*attestation);
  if (const boost::json::value* transports = response->as_object().if_contains("transports");
      transports && transports->is_array()) {
    for (const boost::json::value& t : transports->as_array()) {
      if (t.is_string()) registration.transports.emplace_back(t.as_string());
    }
  }
  return registration;
}

PasskeyService::PasskeyService(storage::Store& store, const core::Clock& clock,
                               PasskeySettings settings)
    : store_(store), clock_(clock), settings_(std::move(settings)) {}

bool PasskeyService::available() const {
  return !settings_.rp_id.empty() && !core::IpAddress::Parse(settings_.rp_id) &&
         !settings_.origins.empty();
}

Result<PasskeyChallenge> PasskeyService::Issue(std::optional<std::string> user_id,
                                               std::string purpose) {
  if (!available()) {
    return Error(ErrorCode::kUnavailable,
                 "Passkeys need the server's public URL to name a host (not an IP address); "
                 "set --public-url.");
  }
  storage::WebAuthnChallengeRecord record{core::NewUuidV4(), std::move(user_id), std::move(purpose),
                                          core::Base64UrlEncode(core::RandomBytes(kChallengeBytes)),
                                          clock_.NowMillis() + kChallengeMillis};
  auto stored = store_.Write(
      [&](Transaction& tx) { return tx.second_factors().InsertWebAuthnChallenge(record); });
  if (!stored) return stored.error();
  return PasskeyChallenge{record.id, record.challenge, {}};
}

Result<std::string> PasskeyService::Take(std::string_view challenge_id, std::string_view purpose,
                                         const std::optional<std::string>& user_id) {
  const std::int64_t now = clock_.NowMillis();
  auto taken = store_.Write([&](Transaction& tx) {
    return tx.second_factors().TakeWebAuthnChallenge(challenge_id, now);
  });
  if (!taken) return taken.error();
  if (!*taken || (*taken)->purpose != purpose || (*taken)->user_id != user_id ||
      (*taken)->expires_at < now) {
    return Refused("The challenge is unknown, used or expired; start again.");
  }
  auto raw = core::Base64UrlDecode((*taken)->challenge);
  if (!raw) return Refused("The challenge is corrupt.");
  return std::move(*raw);
}

Result<PasskeyChallenge> PasskeyService::BeginRegistration(const storage::UserRecord& user) {
  auto challenge = Issue(user.id, "register");
  if (!challenge) return challenge;
  auto existing =
      store_.Read([&](Transaction& tx) { return tx.second_factors().ListPasskeys(user.id); });
  if (!existing) return existing.error();
  for (const auto& passkey : *existing) {
    challenge->exclude_credentials.push_back(passkey.credential_id);
  }
  return challenge;
}

Result<storage::PasskeyRecord> PasskeyService::FinishRegistration(
    const storage::UserRecord& user, std::string_view challenge_id,
    const PasskeyRegistration& response) {
  auto challenge = Take(challenge_id, "register", user.id);
  if (!challenge) return challenge.error();
  const WebAuthnExpectation expected{*challenge, settings_.rp_id, settings_.origins, true};
  auto credential =
      VerifyRegistration(expected, response.client_data_json, response.attestation_object);
  if (!credential) return credential.error();
  storage::PasskeyRecord passkey;
  passkey.id = core::NewUuidV4();
  passkey.user_id = user.id;
  passkey.credential_id = core::Base64UrlEncode(credential->credential_id);
  passkey.public_key = core::Base64UrlEncode(credential->public_key);
  passkey.algorithm = credential->algorithm;
  passkey.sign_count = credential->sign_count;
  passkey.aaguid = core::HexEncode(credential->aaguid);
  passkey.label = response.label.empty() ? "Passkey" : response.label;
  passkey.transports = JoinTransports(response.transports);
  passkey.created_at = clock_.NowMillis();
  auto stored = store_.Write([&](Transaction& tx) -> Result<void> {
    auto taken = tx.second_factors().FindPasskeyByCredential(passkey.credential_id);
    if (!taken) return taken.error();
    if (*taken) {
      return Error(ErrorCode::kConflict, "This passkey is registered already.");
    }
    return tx.second_factors().InsertPasskey(passkey);
  });
  if (!stored) return stored.error();
  return passkey;
}

Result<PasskeyChallenge> PasskeyService::BeginAuthentication() {
  return Issue(std::nullopt, "authenticate");
}

Result<storage::UserRecord> PasskeyService::FinishAuthentication(std::string_view challenge_id,
                                                                 const PasskeyAssertion& response) {
  auto challenge = Take(challenge_id, "authenticate", std::nullopt);
  if (!challenge) return challenge.error();
  const std::string credential_id = core::Base64UrlEncode(response.credential_id);
  struct Owned {
    storage::PasskeyRecord passkey;
    storage::UserRecord user;
  };
  auto found = store_.Read([&](Transaction& tx) -> Result<std::optional<Owned>> {
    auto passkey = tx.second_factors().FindPasskeyByCredential(credential_id);
    if (!passkey) return passkey.error();
    if (!*passkey) return std::optional<Owned>();
    auto user = tx.accounts().FindUserById((*passkey)->user_id);
    if (!user) return user.error();
    if (!*user) return std::optional<Owned>();
    return Owned{std::move(**passkey), std::move(**user)};
  });
  if (!found) return found.error();
  if (!*found) return Refused("This passkey is not registered here.");
  const storage::PasskeyRecord& passkey = (*found)->passkey;
  // The user handle, when the browser sends one, is the user id the passkey was made for.
  if (!response.user_handle.empty() && response.user_handle != passkey.user_id) {
    return Refused("The passkey belongs to another account.");
  }
  const auto public_key = core::Base64UrlDecode(passkey.public_key);
  if (!public_key) return Refused("The stored key is corrupt.");
  const WebAuthnExpectation expected{*challenge, settings_.rp_id, settings_.origins, true};
  auto count =
      VerifyAssertion(expected, *public_key, static_cast<std::uint32_t>(passkey.sign_count),
                      response.client_data_json, response.authenticator_data, response.signature);
  if (!count) return count.error();
  auto recorded = store_.Write([&](Transaction& tx) {
    return tx.second_factors().RecordPasskeyUse(passkey.id, passkey.sign_count, *count,
                                                clock_.NowMillis());
  });
  if (!recorded) return recorded.error();
  if (!*recorded) return Refused("The passkey was used at the same moment elsewhere; try again.");
  return std::move((*found)->user);
}

}  // namespace sightline::identity
