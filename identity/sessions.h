// User sessions: sign-in with email and password, short-lived access tokens (JWT, 15 minutes)
// and long-lived rotating refresh tokens (30 days). Each refresh token is single-use; presenting
// a used one again revokes its whole session (it was stolen or replayed). Everything lives in
// the store, so any node can refresh or revoke any session. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "storage/store.h"

#include <chrono>
#include <optional>
#include <string>

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
};

// A browser signed in on a server-rendered page (the MCP consent page): a signed token for an
// HttpOnly cookie, naming the user; no refresh, no API access.
struct BrowserSignIn {
  storage::UserRecord user;
  std::string token;
  std::int64_t expires_in = 0;  // seconds
};

struct SessionPolicy {
  std::chrono::seconds browser_ttl{30 * 60};
  std::chrono::seconds access_ttl{15 * 60};
  std::chrono::seconds refresh_ttl{30 * 24 * 3600};
  std::chrono::seconds setup_ttl{10 * 60};
};

class SessionService {
 public:
  SessionService(storage::Store& store, const core::Clock& clock, std::string signing_secret,
                 SessionPolicy policy = {});

  // The server's signing secret, created in the store by the first node to ask.
  static core::Result<std::string> LoadSigningSecret(storage::Store& store,
                                                     const core::Clock& clock);

  // AUTH_006 for an unknown email or a wrong password (indistinguishable, also by timing).
  core::Result<LoginResult> Login(std::string_view email, std::string_view password,
                                  std::optional<std::string> user_agent);
  // Signs in a user who just proved who they are (a password, an accepted invitation): a
  // session, or only a setup token when an organization of theirs requires two-factor
  // authentication they have not set up. Every sign-in path goes through here.
  core::Result<LoginResult> SignIn(const storage::UserRecord& user,
                                   std::optional<std::string> user_agent);
  // The consent page's sign-in: AUTH_006 as Login; AUTH_003 when an organization of the user
  // requires two-factor authentication the user has not set up, or the user has it enabled
  // (the second factor joins this page with the two-factor work).
  core::Result<BrowserSignIn> SignInBrowser(std::string_view email, std::string_view password);
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
  core::Result<SessionTokens> Issue(storage::Repository& repo, const std::string& user_id,
                                    const std::string& session_id, std::int64_t expires_at);
  std::int64_t NowSeconds() const { return clock_.NowMillis() / 1000; }

  storage::Store& store_;
  const core::Clock& clock_;
  const std::string secret_;
  const SessionPolicy policy_;
};

}  // namespace sightline::identity
