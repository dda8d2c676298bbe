// Second factors: the queries over two-factor authentication (TOTP secrets and backup codes),
// passkeys and WebAuthn challenges, written once over SqlSession and run unchanged on SQLite and
// PostgreSQL. Reached from a Transaction (`tx.second_factors()`); lives for one transaction and is
// used by one thread. Lookups return nullopt for "not there"; errors are storage failures, or
// ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/second_factor_records.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class SecondFactorRepository {
 public:
  explicit SecondFactorRepository(SqlSession& session) : session_(session) {}

  // Locks the user's row until the transaction ends; whether the user exists. A change that
  // could remove the user's last second factor takes it first and then checks what is left, so
  // two such changes (turning TOTP off, deleting the last passkey) run one after the other and
  // the second sees the first's result.
  core::Result<bool> LockSecondFactors(std::string_view user_id);

  // Two-factor authentication (storage/second_factor_repository.cpp).
  core::Result<std::optional<TwoFactorRecord>> FindTwoFactor(std::string_view user_id);
  // Starts (or restarts) a setup: the pending secret, with its backup codes' hashes pending.
  core::Result<void> BeginTwoFactorSetup(std::string_view user_id, std::string_view secret,
                                         const std::vector<std::string>& code_hashes,
                                         std::int64_t now);
  // The pending setup becomes the user's second factor (its codes replace any old ones), with
  // `step` already used; sets users.two_factor_enabled.
  core::Result<void> EnableTwoFactor(std::string_view user_id, std::uint64_t step,
                                     std::int64_t now);
  // Forgets the user's second factor and backup codes; clears users.two_factor_enabled.
  core::Result<void> DisableTwoFactor(std::string_view user_id, std::int64_t now);
  // Records `step` as used unless it (or a later one) was: whether the code may be accepted.
  core::Result<bool> AdvanceTotpStep(std::string_view user_id, std::uint64_t step);
  // Marks an unused, active backup code used: whether it was one.
  core::Result<bool> UseBackupCode(std::string_view user_id, std::string_view code_hash,
                                   std::int64_t now);
  // Replaces the active backup codes.
  core::Result<void> ReplaceBackupCodes(std::string_view user_id,
                                        const std::vector<std::string>& code_hashes);
  core::Result<std::int64_t> CountUnusedBackupCodes(std::string_view user_id);
  // Passkeys (storage/second_factor_repository_passkeys.cpp).
  core::Result<void> InsertPasskey(const PasskeyRecord& passkey);
  core::Result<std::vector<PasskeyRecord>> ListPasskeys(std::string_view user_id);
  core::Result<std::optional<PasskeyRecord>> FindPasskeyByCredential(
      std::string_view credential_id);
  // Both change only the user's own passkey; whether there was one.
  core::Result<bool> RenamePasskey(std::string_view passkey_id, std::string_view user_id,
                                   std::string_view label);
  core::Result<bool> DeletePasskey(std::string_view passkey_id, std::string_view user_id);
  // After a sign-in: the new counter, unless another sign-in moved it past `sign_count` first.
  core::Result<bool> RecordPasskeyUse(std::string_view passkey_id, std::int64_t previous_count,
                                      std::int64_t sign_count, std::int64_t now);
  core::Result<void> InsertWebAuthnChallenge(const WebAuthnChallengeRecord& challenge);
  // Removes and returns the challenge (each is used once), expired or not; prunes expired ones.
  core::Result<std::optional<WebAuthnChallengeRecord>> TakeWebAuthnChallenge(
      std::string_view challenge_id, std::int64_t now);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
