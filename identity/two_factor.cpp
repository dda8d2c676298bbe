#include "identity/two_factor.h"

#include <algorithm>

#include "core/crypto.h"
#include "identity/passwords.h"
#include "identity/second_factors.h"
#include "identity/totp.h"
#include "storage/account_repository.h"
#include "storage/second_factor_repository.h"

namespace sightline::identity {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;
using storage::Transaction;

constexpr std::size_t kSecretBytes = 20;  // 160 bits, RFC 4226's recommendation

Error BadCode() {
  return Error(ErrorCode::kAuthBadTwoFactorCode, "The two-factor code is not valid.");
}

// Ten base32 characters (50 bits) in two groups: "k7m2q-x9p4d".
std::string NewBackupCode() {
  std::string code;
  while (code.size() < 10) {
    const std::string chunk = Base32Encode(core::RandomBytes(8));
    for (const char c : chunk) {
      if (code.size() < 10) code.push_back(static_cast<char>(std::tolower(c)));
    }
  }
  return code.substr(0, 5) + "-" + code.substr(5);
}

// Its own bucket prefix: the per-credential request limit counts "user:<id>".
std::string FailureBucket(const storage::UserRecord& user) { return "2fa:" + user.id; }

std::string ActiveKey(const storage::TwoFactorRecord& record) {
  return Base32Decode(record.secret.value_or("")).value_or("");
}

}  // namespace

std::string BackupCodeHash(std::string_view user_id, std::string_view code) {
  std::string normalized;
  for (const char c : code) {
    if (c == '-' || c == ' ') continue;
    normalized.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return core::Sha256Hex(std::string(user_id) + ":" + normalized);
}

TwoFactorService::TwoFactorService(storage::Store& store, const core::Clock& clock)
    : store_(store), clock_(clock), failures_(store, clock, {"two-factor-failures", 5, 300}) {}

Result<TwoFactorSetup> TwoFactorService::BeginSetup(const storage::UserRecord& user) {
  if (user.two_factor_enabled) {
    return Error(ErrorCode::kAuthTwoFactorEnabled,
                 "Two-factor authentication is already enabled; disable it first.");
  }
  TwoFactorSetup setup;
  const std::string key = core::RandomBytes(kSecretBytes);
  setup.secret = Base32Encode(key);
  setup.otpauth_uri = OtpauthUri(kIssuer, user.email, key);
  std::vector<std::string> hashes;
  for (int i = 0; i < kBackupCodeCount; ++i) {
    setup.backup_codes.push_back(NewBackupCode());
    hashes.push_back(BackupCodeHash(user.id, setup.backup_codes.back()));
  }
  auto stored = store_.Write([&](Transaction& tx) {
    return tx.second_factors().BeginTwoFactorSetup(user.id, setup.secret, hashes,
                                                   clock_.NowMillis());
  });
  if (!stored) return stored.error();
  return setup;
}

Result<TwoFactorStatus> TwoFactorService::Enable(const storage::UserRecord& user,
                                                 std::string_view code) {
  if (user.two_factor_enabled) {
    return Error(ErrorCode::kAuthTwoFactorEnabled, "Two-factor authentication is already on.");
  }
  auto throttled = Throttle(user);
  if (!throttled) return throttled.error();
  auto record =
      store_.Read([&](Transaction& tx) { return tx.second_factors().FindTwoFactor(user.id); });
  if (!record) return record.error();
  if (!*record || !(*record)->pending_secret) {
    return Error(ErrorCode::kAuthNoPendingTwoFactor,
                 "No two-factor setup is pending; start one with POST /users/me/2fa/setup.");
  }
  const std::string key = Base32Decode(*(*record)->pending_secret).value_or("");
  const auto step = MatchTotp(key, code, clock_.NowMillis() / 1000);
  if (!step) {
    (void)failures_.Hit(FailureBucket(user));
    return BadCode();
  }
  auto enabled = store_.Write([&](Transaction& tx) {
    return tx.second_factors().EnableTwoFactor(user.id, *step, clock_.NowMillis());
  });
  if (!enabled) return enabled.error();
  storage::UserRecord now_enabled = user;
  now_enabled.two_factor_enabled = true;
  return Status(now_enabled);
}

Result<TwoFactorStatus> TwoFactorService::Disable(const storage::UserRecord& user,
                                                  std::string_view password,
                                                  std::string_view code) {
  if (!VerifyPassword(user.password_hash, password)) {
    return Error(ErrorCode::kAuthWrongPassword, "The password is not this account's.");
  }
  if (!user.two_factor_enabled) {
    return Error(ErrorCode::kAuthTwoFactorNotEnabled, "Two-factor authentication is not on.");
  }
  auto factors = store_.Read([&](Transaction& tx) { return LoadSecondFactors(tx, user); });
  if (!factors) return factors.error();
  // A passkey left over still meets an organization's requirement.
  if (!factors->required_by.empty() && !factors->passkey) {
    return LastSecondFactorError(factors->required_by);
  }
  auto verified = Verify(user, code);
  if (!verified) return verified.error();
  storage::UserRecord now_disabled = user;
  now_disabled.two_factor_enabled = false;
  // Checked again where it counts: a passkey deleted meanwhile (another session) could have
  // been the other factor. The error rolls the change back.
  auto disabled = store_.Write([&](Transaction& tx) -> Result<void> {
    if (auto locked = tx.second_factors().LockSecondFactors(user.id); !locked) {
      return locked.error();
    }
    auto done = tx.second_factors().DisableTwoFactor(user.id, clock_.NowMillis());
    if (!done) return done;
    auto left = LoadSecondFactors(tx, now_disabled);
    if (!left) return left.error();
    if (left->needs_setup()) return LastSecondFactorError(left->required_by);
    return {};
  });
  if (!disabled) return disabled.error();
  return Status(now_disabled);
}

Result<std::vector<std::string>> TwoFactorService::RegenerateBackupCodes(
    const storage::UserRecord& user) {
  if (!user.two_factor_enabled) {
    return Error(ErrorCode::kAuthTwoFactorNotEnabled,
                 "Two-factor authentication is not on, so there are no backup codes.");
  }
  std::vector<std::string> codes, hashes;
  for (int i = 0; i < kBackupCodeCount; ++i) {
    codes.push_back(NewBackupCode());
    hashes.push_back(BackupCodeHash(user.id, codes.back()));
  }
  auto replaced = store_.Write(
      [&](Transaction& tx) { return tx.second_factors().ReplaceBackupCodes(user.id, hashes); });
  if (!replaced) return replaced.error();
  return codes;
}

Result<TwoFactorStatus> TwoFactorService::Status(const storage::UserRecord& user) {
  return store_.Read([&](Transaction& tx) -> Result<TwoFactorStatus> {
    TwoFactorStatus status;
    status.enabled = user.two_factor_enabled;
    auto record = tx.second_factors().FindTwoFactor(user.id);
    if (!record) return record.error();
    if (*record) {
      status.enabled_at = (*record)->enabled_at;
      status.pending_setup = (*record)->pending_secret.has_value();
    }
    auto remaining = tx.second_factors().CountUnusedBackupCodes(user.id);
    if (!remaining) return remaining.error();
    status.backup_codes_remaining = status.enabled ? *remaining : 0;
    auto factors = LoadSecondFactors(tx, user);
    if (!factors) return factors.error();
    status.required_by = std::move(factors->required_by);
    return status;
  });
}

Result<void> TwoFactorService::Verify(const storage::UserRecord& user, std::string_view code) {
  auto throttled = Throttle(user);
  if (!throttled) return throttled;
  auto checked = CheckCode(user, code);
  if (!checked) (void)failures_.Hit(FailureBucket(user));
  return checked;
}

Result<void> TwoFactorService::Throttle(const storage::UserRecord& user) {
  auto state = failures_.Peek(FailureBucket(user));
  if (!state) return state.error();
  if (!state->allowed) {
    Error limited(ErrorCode::kAuthRateLimited,
                  "Too many wrong two-factor codes; wait a few minutes before trying again.");
    limited.mutable_details()["retryAfterSeconds"] = state->reset_seconds;
    return limited;
  }
  return {};
}

Result<void> TwoFactorService::CheckCode(const storage::UserRecord& user, std::string_view code) {
  auto record =
      store_.Read([&](Transaction& tx) { return tx.second_factors().FindTwoFactor(user.id); });
  if (!record) return record.error();
  if (!user.two_factor_enabled || !*record || !(*record)->secret) return BadCode();
  if (const auto step = MatchTotp(ActiveKey(**record), code, clock_.NowMillis() / 1000)) {
    auto fresh = store_.Write(
        [&](Transaction& tx) { return tx.second_factors().AdvanceTotpStep(user.id, *step); });
    if (!fresh) return fresh.error();
    if (!*fresh) return BadCode();  // used already
    return {};
  }
  const std::string hash = BackupCodeHash(user.id, code);
  auto used = store_.Write([&](Transaction& tx) {
    return tx.second_factors().UseBackupCode(user.id, hash, clock_.NowMillis());
  });
  if (!used) return used.error();
  if (!*used) return BadCode();
  return {};
}

}  // namespace sightline::identity
