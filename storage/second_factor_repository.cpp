// Two-factor authentication: the TOTP secret (pending, then enabled) and backup codes.
#include "storage/second_factor_repository.h"

#include "storage/account_repository.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

Result<void> InsertCodes(SqlSession& session, std::string_view user_id,
                         const std::vector<std::string>& hashes, bool pending) {
  for (const std::string& hash : hashes) {
    auto inserted = ExecuteVoid(session,
                                "INSERT INTO user_backup_codes (user_id, code_hash, pending) "
                                "VALUES ($1, $2, $3)",
                                {std::string(user_id), hash, Flag(pending)});
    if (!inserted) return inserted;
  }
  return {};
}

}  // namespace

Result<std::optional<TwoFactorRecord>> SecondFactorRepository::FindTwoFactor(
    std::string_view user_id) {
  return FindOne<TwoFactorRecord>(
      session_,
      "SELECT user_id, secret, pending_secret, pending_created_at, enabled_at, last_step "
      "FROM user_two_factor WHERE user_id = $1",
      {std::string(user_id)}, [](const SqlRow& r) {
        return TwoFactorRecord{r.Text(0),   r.OptText(1), r.OptText(2),
                               r.OptInt(3), r.OptInt(4),  r.Int(5)};
      });
}

Result<void> SecondFactorRepository::BeginTwoFactorSetup(
    std::string_view user_id, std::string_view secret, const std::vector<std::string>& code_hashes,
    std::int64_t now) {
  auto upserted = ExecuteVoid(
      session_,
      "INSERT INTO user_two_factor (user_id, pending_secret, pending_created_at) "
      "VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET "
      "pending_secret = excluded.pending_secret, pending_created_at = excluded.pending_created_at",
      {std::string(user_id), std::string(secret), now});
  if (!upserted) return upserted;
  auto cleared =
      ExecuteVoid(session_, "DELETE FROM user_backup_codes WHERE user_id = $1 AND pending = 1",
                  {std::string(user_id)});
  if (!cleared) return cleared;
  return InsertCodes(session_, user_id, code_hashes, /*pending=*/true);
}

Result<void> SecondFactorRepository::EnableTwoFactor(std::string_view user_id, std::uint64_t step,
                                         std::int64_t now) {
  const std::string id(user_id);
  auto enabled = ExecuteVoid(session_,
                             "UPDATE user_two_factor SET secret = pending_secret, "
                             "pending_secret = NULL, pending_created_at = NULL, enabled_at = $2, "
                             "last_step = $3 WHERE user_id = $1",
                             {id, now, static_cast<std::int64_t>(step)});
  if (!enabled) return enabled;
  auto old = ExecuteVoid(session_,
                         "DELETE FROM user_backup_codes WHERE user_id = $1 AND pending = 0", {id});
  if (!old) return old;
  auto activated =
      ExecuteVoid(session_, "UPDATE user_backup_codes SET pending = 0 WHERE user_id = $1", {id});
  if (!activated) return activated;
  // The flag on the user's row belongs to the accounts area, in the same transaction.
  auto flagged = AccountRepository(session_).UpdateUserTwoFactor(user_id, true, now);
  if (!flagged) return flagged.error();
  return {};
}

Result<bool> SecondFactorRepository::LockSecondFactors(std::string_view user_id) {
  // An UPDATE that changes nothing takes the row lock on every backend (SQLite's writes are
  // serialized anyway).
  return ExecuteChanged(session_, "UPDATE users SET updated_at = updated_at WHERE id = $1",
                        {std::string(user_id)});
}

Result<void> SecondFactorRepository::DisableTwoFactor(std::string_view user_id, std::int64_t now) {
  const std::string id(user_id);
  auto secret = ExecuteVoid(session_, "DELETE FROM user_two_factor WHERE user_id = $1", {id});
  if (!secret) return secret;
  auto codes = ExecuteVoid(session_, "DELETE FROM user_backup_codes WHERE user_id = $1", {id});
  if (!codes) return codes;
  auto flagged = AccountRepository(session_).UpdateUserTwoFactor(user_id, false, now);
  if (!flagged) return flagged.error();
  return {};
}

Result<bool> SecondFactorRepository::AdvanceTotpStep(std::string_view user_id, std::uint64_t step) {
  auto advanced = session_.Execute(
      "UPDATE user_two_factor SET last_step = $2 WHERE user_id = $1 AND last_step < $2 AND "
      "secret IS NOT NULL",
      {std::string(user_id), static_cast<std::int64_t>(step)});
  if (!advanced) return advanced.error();
  return *advanced == 1;
}

Result<bool> SecondFactorRepository::UseBackupCode(std::string_view user_id,
                                                   std::string_view code_hash, std::int64_t now) {
  auto used = session_.Execute(
      "UPDATE user_backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND "
      "pending = 0 AND used_at IS NULL",
      {std::string(user_id), std::string(code_hash), now});
  if (!used) return used.error();
  return *used == 1;
}

Result<void> SecondFactorRepository::ReplaceBackupCodes(std::string_view user_id,
                                            const std::vector<std::string>& code_hashes) {
  auto old =
      ExecuteVoid(session_, "DELETE FROM user_backup_codes WHERE user_id = $1 AND pending = 0",
                  {std::string(user_id)});
  if (!old) return old;
  return InsertCodes(session_, user_id, code_hashes, /*pending=*/false);
}

Result<std::int64_t> SecondFactorRepository::CountUnusedBackupCodes(std::string_view user_id) {
  auto count = FindOne<std::int64_t>(
      session_,
      "SELECT COUNT(*) FROM user_backup_codes WHERE user_id = $1 AND pending = 0 AND "
      "used_at IS NULL",
      {std::string(user_id)}, [](const SqlRow& r) { return r.Int(0); });
  if (!count) return count.error();
  return count->value_or(0);
}

}  // namespace sightline::storage
