// Passkeys and the challenges of WebAuthn ceremonies.
#include "storage/second_factor_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kPasskeyColumns =
    "id, user_id, credential_id, public_key, algorithm, sign_count, aaguid, label, transports, "
    "created_at, last_used_at";

PasskeyRecord MapPasskey(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Int(4),    r.Int(5),
          r.Text(6), r.Text(7), r.Text(8), r.Int(9),  r.OptInt(10)};
}

}  // namespace

Result<void> SecondFactorRepository::InsertPasskey(const PasskeyRecord& p) {
  static const std::string sql = InsertStatement("passkeys", kPasskeyColumns);
  return ExecuteVoid(session_, sql,
                     {p.id, p.user_id, p.credential_id, p.public_key, p.algorithm, p.sign_count,
                      p.aaguid, p.label, p.transports, p.created_at, Nullable(p.last_used_at)});
}

Result<std::vector<PasskeyRecord>> SecondFactorRepository::ListPasskeys(std::string_view user_id) {
  static const std::string sql =
      Select(kPasskeyColumns, "FROM passkeys WHERE user_id = $1 ORDER BY created_at, id");
  return FindAll<PasskeyRecord>(session_, sql, {std::string(user_id)}, MapPasskey);
}

Result<std::optional<PasskeyRecord>> SecondFactorRepository::FindPasskeyByCredential(
    std::string_view credential_id) {
  static const std::string sql = Select(kPasskeyColumns, "FROM passkeys WHERE credential_id = $1");
  return FindOne<PasskeyRecord>(session_, sql, {std::string(credential_id)}, MapPasskey);
}

Result<bool> SecondFactorRepository::RenamePasskey(std::string_view passkey_id,
                                                   std::string_view user_id,
                                                   std::string_view label) {
  return ExecuteChanged(session_, "UPDATE passkeys SET label = $3 WHERE id = $1 AND user_id = $2",
                        {std::string(passkey_id), std::string(user_id), std::string(label)});
}

Result<bool> SecondFactorRepository::DeletePasskey(std::string_view passkey_id,
                                                   std::string_view user_id) {
  return ExecuteChanged(session_, "DELETE FROM passkeys WHERE id = $1 AND user_id = $2",
                        {std::string(passkey_id), std::string(user_id)});
}

Result<bool> SecondFactorRepository::RecordPasskeyUse(std::string_view passkey_id,
                                                      std::int64_t previous_count,
                                                      std::int64_t sign_count, std::int64_t now) {
  return ExecuteChanged(session_,
                        "UPDATE passkeys SET sign_count = $3, last_used_at = $4 WHERE id = $1 AND "
                        "sign_count = $2",
                        {std::string(passkey_id), previous_count, sign_count, now});
}

Result<void> SecondFactorRepository::InsertWebAuthnChallenge(const WebAuthnChallengeRecord& c) {
  return ExecuteVoid(
      session_,
      "INSERT INTO webauthn_challenges (id, user_id, purpose, challenge, expires_at) "
      "VALUES ($1, $2, $3, $4, $5)",
      {c.id, Nullable(c.user_id), c.purpose, c.challenge, c.expires_at});
}

Result<std::optional<WebAuthnChallengeRecord>> SecondFactorRepository::TakeWebAuthnChallenge(
    std::string_view challenge_id, std::int64_t now) {
  auto found = FindOne<WebAuthnChallengeRecord>(
      session_,
      "SELECT id, user_id, purpose, challenge, expires_at FROM webauthn_challenges WHERE id = $1",
      {std::string(challenge_id)}, [](const SqlRow& r) {
        return WebAuthnChallengeRecord{r.Text(0), r.OptText(1), r.Text(2), r.Text(3), r.Int(4)};
      });
  if (!found) return found.error();
  auto taken =
      ExecuteVoid(session_, "DELETE FROM webauthn_challenges WHERE id = $1 OR expires_at < $2",
                  {std::string(challenge_id), now});
  if (!taken) return taken.error();
  return found;
}

}  // namespace sightline::storage
