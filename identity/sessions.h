// User sessions: sign-in with email and password, short-lived access tokens (JWT, 15 minutes)
// and long-lived rotating refresh tokens (30 days). Each refresh token is single-use; presenting
// a used one again revokes its whole session (it was stolen or replayed). Everything lives in
// the store, so any node can refresh or revoke any session. Thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "identity/rate_limiter.h"
#include "identity/two_factor.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::identity {

struct SessionTokens {
  std::string access_token;
  std::int64_t access_expires_in = 0;  // seconds
  std::string refresh_token;
  std::int64_t refresh_expires_in = 0;  // seconds
};

struct LoginResult {
  storage::UserRecord user;
  // Set when an organization of the user requires two-factor authentication and the user has
  // none: no session is opened, only a short-lived setup token for the 2FA setup operations.
  bool two_factor_setup_required = false;
  std::optional<SessionTokens> session;
  std::string setup_token;
  std::int64_t setup_expires_in = 0;
  // Set when the user has two-factor authentication on and no code came with the password, or
  // when a passkey is the second factor an organization of the user requires: no session yet,
  // only a short-lived token for the second step (CompleteTwoFactorLogin, or
  // CompleteTwoFactorLoginWithPasskey).
  bool two_factor_required = false;
  std::vector<std::string> two_factor_methods;  // what the second step takes: "totp", "passkey"
  std::string two_factor_token;
  std::int64_t two_factor_expires_in = 0;
};

// A browser signed in on a server-rendered page (the MCP consent page): a signed token for an
// HttpOnly cookie, naming the user; no refresh, no API access.
struct BrowserSignIn {
  storage::UserRecord user;
  std::string token;
  std::int64_t expires_in = 0;  // seconds
  // Instead of `token`, when the user's second factor is still needed: the pending sign-in,
  // for CompleteBrowserSignIn or CompleteBrowserSignInWithPasskey, and what it takes ("totp",
  // "passkey").
  std::string two_factor_token;
  std::vector<std::string> two_factor_methods;
};

struct SessionPolicy {
  std::chrono::seconds browser_ttl{30 * 60};
  std::chrono::seconds access_ttl{15 * 60};
  std::chrono::seconds refresh_ttl{30 * 24 * 3600};
  std::chrono::seconds setup_ttl{10 * 60};
  std::chrono::seconds two_factor_ttl{5 * 60};  // between the password and the second factor
};

class SessionService {
 public:
  SessionService(storage::Store& store, const core::Clock& clock, std::string signing_secret,
                 SessionPolicy policy = {});

  // The server's signing secret, created in the store by the first node to ask.
  static core::Result<std::string> LoadSigningSecret(storage::Store& store,
                                                     const core::Clock& clock);

  TwoFactorService& two_factor() { return two_factor_; }

  // The current password a signed-in user's password change asks for: AUTH_012 when wrong.
  // Wrong ones are throttled per user (5 per 15 minutes, counted in the store): past that,
  // AUTH_014 with `retryAfterSeconds`, right or wrong, until the window ends, so a session
  // left open does not let anyone guess the password.
  core::Result<void> CheckCurrentPassword(const storage::UserRecord& user,
                                          std::string_view password);

  // AUTH_006 for an unknown email or a wrong password (indistinguishable, also by timing). A
  // user with two-factor authentication gets `two_factor_required` unless `code` (TOTP or
  // backup) came along and is right (AUTH_007 otherwise).
  core::Result<LoginResult> Login(std::string_view email, std::string_view password,
                                  std::optional<std::string> user_agent,
                                  std::optional<std::string> code = std::nullopt);
  // The second step of a sign-in that needs the second factor: AUTH_002/AUTH_004 for a bad or
  // expired token, AUTH_007 for a wrong code (throttled: AUTH_014).
  core::Result<LoginResult> CompleteTwoFactorLogin(std::string_view two_factor_token,
                                                   std::string_view code,
                                                   std::optional<std::string> user_agent);
  // The second step with a passkey instead of a code: `passkey_user` is the user a verified
  // passkey assertion signed in (PasskeyService::FinishAuthentication). AUTH_002/AUTH_004 for a
  // bad or expired token, AUTH_013 when the passkey is another user's.
  core::Result<LoginResult> CompleteTwoFactorLoginWithPasskey(
      std::string_view two_factor_token, const storage::UserRecord& passkey_user,
      std::optional<std::string> user_agent);
  // The user a second-step token names (AUTH_002/AUTH_004 otherwise): checked before a passkey
  // ceremony spends its challenge.
  core::Result<storage::UserRecord> PendingTwoFactorLogin(std::string_view two_factor_token);
  // Signs in a user who just proved who they are (a password, an accepted invitation, a
  // passkey): a session; only a setup token when an organization of theirs requires a second
  // factor they have none of (an app or a passkey); only a second-step token when
  // `second_factor_done` is false and they have TOTP on, or a passkey is the second factor an
  // organization of theirs requires. Every sign-in path goes through here.
  core::Result<LoginResult> SignIn(const storage::UserRecord& user,
                                   std::optional<std::string> user_agent,
                                   bool second_factor_done = false);
  // The consent page's sign-in: AUTH_006 as Login. A user whose password sign-in asks for a
  // second factor (as Login) gets `two_factor_token` and `two_factor_methods` instead of a
  // token, for CompleteBrowserSignIn (a code) or CompleteBrowserSignInWithPasskey. AUTH_003
  // when an organization of the user requires a second factor the user has none of.
  core::Result<BrowserSignIn> SignInBrowser(std::string_view email, std::string_view password);
  core::Result<BrowserSignIn> CompleteBrowserSignIn(std::string_view two_factor_token,
                                                    std::string_view code);
  // The user a pending browser sign-in names (AUTH_002/AUTH_004 otherwise): checked before a
  // passkey ceremony spends its challenge.
  core::Result<storage::UserRecord> PendingBrowserSignIn(std::string_view two_factor_token);
  // The second step with a verified passkey: AUTH_013 when it is another user's.
  core::Result<BrowserSignIn> CompleteBrowserSignInWithPasskey(
      std::string_view two_factor_token, const storage::UserRecord& passkey_user);
  // A browser sign-in for a user proven otherwise (a passkey).
  core::Result<BrowserSignIn> SignInBrowserAs(const storage::UserRecord& user);
  // The X-2FA-Setup-Token credential: a principal of kind kTwoFactorSetup for its user.
  core::Result<Principal> AuthenticateSetupToken(std::string_view token);
  // The user a token of `type` names, for the second steps above.
  core::Result<storage::UserRecord> PendingUser(std::string_view token, std::string_view type);
  // The user a browser token names: AUTH_002 / AUTH_004 when it is forged, of another type,
  // expired, or its user is gone.
  core::Result<storage::UserRecord> AuthenticateBrowser(std::string_view token);
  // AUTH_002 for an unknown, used (the session is then revoked) or revoked refresh token, or
  // when an organization of the user now requires two-factor authentication the user lacks;
  // AUTH_004 when the session has expired.
  core::Result<SessionTokens> Refresh(std::string_view refresh_token);
  // Revokes the session the refresh token belongs to; unknown tokens are ignored.
  core::Result<void> Logout(std::string_view refresh_token);
  // Verifies an access token and its session; the principal has the user and no
  // organization (the dispatcher resolves roles per organization, live).
  core::Result<Principal> AuthenticateAccessToken(std::string_view token);

 private:
  core::Result<storage::UserRecord> CheckPassword(std::string_view email,
                                                 std::string_view password);
  core::Result<SessionTokens> Open(const storage::UserRecord& user,
                                   std::optional<std::string> user_agent);
  core::Result<SessionTokens> Issue(storage::Transaction& tx, const std::string& user_id,
                                    const std::string& session_id, std::int64_t expires_at);
  std::int64_t NowSeconds() const { return clock_.NowMillis() / 1000; }

  storage::Store& store_;
  const core::Clock& clock_;
  std::string PendingToken(const storage::UserRecord& user, std::string_view type);

  const std::string secret_;
  const SessionPolicy policy_;
  TwoFactorService two_factor_;
  RateLimiter password_failures_;  // wrong current passwords at a password change, per user
};

}  // namespace sightline::identity
