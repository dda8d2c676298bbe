// Two-factor authentication with an authenticator app (TOTP, RFC 6238) and backup codes.
//
// Setup gives a new secret (its otpauth:// URI for the app) and ten backup codes, pending until
// the user proves the app works by entering a code (enable); a repeated setup replaces the
// pending one. Codes are accepted within ±1 time step (30 s) and only once: the last accepted
// step is stored and a code at or before it is refused, on every node. Backup codes are
// single-use and stored hashed. Wrong codes are throttled per user (5 per 5 minutes, counted in
// the store), so a six-digit code cannot be guessed by brute force. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/rate_limiter.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::identity {

struct TwoFactorSetup {
  std::string secret;                     // base32, for manual entry
  std::string otpauth_uri;                // for a QR code
  std::vector<std::string> backup_codes;  // shown once
};

struct TwoFactorStatus {
  bool enabled = false;
  std::optional<std::int64_t> enabled_at;  // unix millis
  bool pending_setup = false;
  std::int64_t backup_codes_remaining = 0;
  std::vector<storage::OrganizationRecord> required_by;  // organizations requiring 2FA
};

class TwoFactorService {
 public:
  static constexpr int kBackupCodeCount = 10;
  static constexpr std::string_view kIssuer = "Sightline";

  TwoFactorService(storage::Store& store, const core::Clock& clock);

  // AUTH_009 when already enabled.
  core::Result<TwoFactorSetup> BeginSetup(const storage::UserRecord& user);
  // AUTH_008 without a pending setup; AUTH_007 for a wrong code.
  core::Result<TwoFactorStatus> Enable(const storage::UserRecord& user, std::string_view code);
  // AUTH_012 for a wrong password, AUTH_007 for a wrong code (TOTP or backup), AUTH_011 when an
  // organization of the user requires two-factor authentication and the user has no passkey
  // (TOTP is then their last second factor), AUTH_010 when not enabled.
  core::Result<TwoFactorStatus> Disable(const storage::UserRecord& user, std::string_view password,
                                        std::string_view code);
  // New active backup codes, the old ones void; AUTH_010 when not enabled.
  core::Result<std::vector<std::string>> RegenerateBackupCodes(const storage::UserRecord& user);
  core::Result<TwoFactorStatus> Status(const storage::UserRecord& user);
  // The second factor at sign-in: a current TOTP code or an unused backup code. AUTH_007 when
  // wrong, AUTH_014 while throttled.
  core::Result<void> Verify(const storage::UserRecord& user, std::string_view code);

 private:
  core::Result<void> Throttle(const storage::UserRecord& user);
  core::Result<void> CheckCode(const storage::UserRecord& user, std::string_view code);

  storage::Store& store_;
  const core::Clock& clock_;
  RateLimiter failures_;
};

// "abcde-fghij" → its stored hash (lower case, dashes and spaces ignored), salted by the user.
std::string BackupCodeHash(std::string_view user_id, std::string_view code);

}  // namespace sightline::identity
