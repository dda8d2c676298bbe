#include "identity/sessions.h"

#include <algorithm>
#include <cctype>

#include "core/crypto.h"
#include "core/text.h"
#include "identity/jwt.h"
#include "identity/passwords.h"
#include "identity/second_factors.h"
#include "storage/account_repository.h"

namespace sightline::identity {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;
using storage::Transaction;

constexpr std::string_view kRefreshPrefix = "srt_";
constexpr std::string_view kAccessType = "access";
constexpr std::string_view kSetupType = "2fa_setup";
constexpr std::string_view kBrowserType = "browser";
// Password checked, second factor still to come: for the login API and the consent page.
constexpr std::string_view kTwoFactorLoginType = "2fa_login";
constexpr std::string_view kTwoFactorBrowserType = "2fa_browser";

// A real argon2id hash of a random password: verifying against it when the email is unknown
// makes a failed sign-in cost the same whether or not the account exists.
const std::string& DecoyHash() {
  static const std::string hash = HashPassword(core::RandomBase62(24)).value();
  return hash;
}


// A browser sign-in names the password it was made with (a digest of its hash, not the hash),
// so that changing the password ends it without a session row to revoke.
std::string PasswordStamp(const storage::UserRecord& user) {
  return core::Sha256Hex(user.password_hash).substr(0, 16);
}

Error BadLogin() { return Error(ErrorCode::kAuthBadLogin, "Invalid email or password."); }
Error BadRefresh(std::string message) {
  return Error(ErrorCode::kAuthInvalidCredential, std::move(message));
}

// Whether an organization of the user requires a second factor (an app or a passkey) the user
// lacks.
Result<bool> NeedsTwoFactorSetup(Transaction& tx, const storage::UserRecord& user) {
  if (user.two_factor_enabled) return false;
  auto factors = LoadSecondFactors(tx, user);
  if (!factors) return factors.error();
  return factors->needs_setup();
}

// The second factors the next step of a sign-in takes, as AuthResponse's twoFactorMethods.
std::vector<std::string> MethodsOf(const SecondFactors& factors) {
  std::vector<std::string> methods;
  if (factors.totp) methods.emplace_back("totp");
  if (factors.passkey) methods.emplace_back("passkey");
  return methods;
}

// What a refresh attempt found; the session revocation on reuse must commit, so reuse is a
// value here rather than an error that would roll the transaction back.
enum class RefreshVerdict { kIssued, kUnknown, kReused, kRevoked, kExpired, kNeedsTwoFactor };

}  // namespace

SessionService::SessionService(storage::Store& store, const core::Clock& clock,
                               std::string signing_secret, SessionPolicy policy)
    : store_(store),
      clock_(clock),
      secret_(std::move(signing_secret)),
      policy_(policy),
      two_factor_(store, clock),
      password_failures_(store, clock, {"password-change-failures", 5, 15 * 60}) {}

Result<std::string> SessionService::LoadSigningSecret(storage::Store& store,
                                                      const core::Clock& clock) {
  const std::string candidate = core::Base64UrlEncode(core::RandomBytes(32));
  return store.Write([&](Transaction& tx) {
    return tx.accounts().GetOrCreateSecret("session_signing_key", candidate, clock.NowMillis());
  });
}

Result<SessionTokens> SessionService::Issue(Transaction& tx, const std::string& user_id,
                                            const std::string& session_id,
                                            std::int64_t expires_at) {
  const std::int64_t now = NowSeconds();
  SessionTokens tokens;
  tokens.access_token = SignToken(
      {user_id, session_id, std::string(kAccessType), now, now + policy_.access_ttl.count()},
      secret_);
  tokens.access_expires_in = policy_.access_ttl.count();
  tokens.refresh_token = std::string(kRefreshPrefix) + core::RandomBase62(43);
  // The session's end is fixed when it opens; refreshing does not extend it.
  tokens.refresh_expires_in = std::max<std::int64_t>(0, expires_at / 1000 - now);
  auto stored = tx.accounts().InsertRefreshToken(
      {core::Sha256Hex(tokens.refresh_token), session_id, clock_.NowMillis(), std::nullopt});
  if (!stored) return stored.error();
  return tokens;
}

Result<SessionTokens> SessionService::Open(const storage::UserRecord& user,
                                           std::optional<std::string> user_agent) {
  const std::int64_t now = clock_.NowMillis();
  return store_.Write([&](Transaction& tx) -> Result<SessionTokens> {
    storage::SessionRecord session{core::NewUuidV4(), user.id, "session", now,
                                   now + policy_.refresh_ttl.count() * 1000, std::nullopt,
                                   user_agent};
    auto inserted = tx.accounts().InsertSession(session);
    if (!inserted) return inserted.error();
    return Issue(tx, user.id, session.id, session.expires_at);
  });
}

Result<storage::UserRecord> SessionService::CheckPassword(std::string_view email,
                                                          std::string_view password) {
  auto user = store_.Read([&](Transaction& tx) {
    return tx.accounts().FindUserByEmail(core::ToLowerAscii(email));
  });
  if (!user) return user.error();
  if (!*user) {
    VerifyPassword(DecoyHash(), password);
    return BadLogin();
  }
  if (!VerifyPassword((*user)->password_hash, password)) return BadLogin();
  return std::move(**user);
}

Result<void> SessionService::CheckCurrentPassword(const storage::UserRecord& user,
                                                  std::string_view password) {
  // Its own bucket prefix: "user:<id>" is the per-credential request limit, "2fa:<id>" codes.
  const std::string bucket = "pwchange:" + user.id;
  auto state = password_failures_.Peek(bucket);
  if (!state) return state.error();
  if (!state->allowed) {
    Error limited(ErrorCode::kAuthRateLimited,
                  "Too many wrong passwords; wait a few minutes before trying again.");
    limited.mutable_details()["retryAfterSeconds"] = state->reset_seconds;
    return limited;
  }
  if (!VerifyPassword(user.password_hash, password)) {
    (void)password_failures_.Hit(bucket);
    return Error(ErrorCode::kAuthWrongPassword, "The current password is wrong.");
  }
  return {};
}

Result<LoginResult> SessionService::Login(std::string_view email, std::string_view password,
                                          std::optional<std::string> user_agent,
                                          std::optional<std::string> code) {
  auto user = CheckPassword(email, password);
  if (!user) return user.error();
  if (user->two_factor_enabled && code) {
    auto verified = two_factor_.Verify(*user, *code);
    if (!verified) return verified.error();
    return SignIn(*user, std::move(user_agent), /*second_factor_done=*/true);
  }
  return SignIn(*user, std::move(user_agent));
}

std::string SessionService::PendingToken(const storage::UserRecord& user, std::string_view type) {
  const std::int64_t now = NowSeconds();
  return SignToken(
      {user.id, PasswordStamp(user), std::string(type), now, now + policy_.two_factor_ttl.count()},
      secret_);
}

Result<storage::UserRecord> SessionService::PendingUser(std::string_view token,
                                                        std::string_view type) {
  auto claims = VerifyToken(token, secret_, NowSeconds());
  if (!claims) return claims.error();
  if (claims->type != type) {
    return Error(ErrorCode::kAuthInvalidCredential, "This token does not continue a sign-in.");
  }
  auto user =
      store_.Read([&](Transaction& tx) { return tx.accounts().FindUserById(claims->user_id); });
  if (!user) return user.error();
  if (!*user || claims->session_id != PasswordStamp(**user)) {
    return Error(ErrorCode::kAuthInvalidCredential, "Sign in again.");
  }
  return std::move(**user);
}

Result<LoginResult> SessionService::CompleteTwoFactorLoginWithPasskey(
    std::string_view two_factor_token, const storage::UserRecord& passkey_user,
    std::optional<std::string> user_agent) {
  auto user = PendingUser(two_factor_token, kTwoFactorLoginType);
  if (!user) return user.error();
  if (user->id != passkey_user.id) {
    return Error(ErrorCode::kAuthBadPasskey, "This passkey belongs to another account.");
  }
  return SignIn(*user, std::move(user_agent), /*second_factor_done=*/true);
}

Result<storage::UserRecord> SessionService::PendingTwoFactorLogin(
    std::string_view two_factor_token) {
  return PendingUser(two_factor_token, kTwoFactorLoginType);
}

Result<LoginResult> SessionService::CompleteTwoFactorLogin(std::string_view two_factor_token,
                                                           std::string_view code,
                                                           std::optional<std::string> user_agent) {
  auto user = PendingUser(two_factor_token, kTwoFactorLoginType);
  if (!user) return user.error();
  auto verified = two_factor_.Verify(*user, code);
  if (!verified) return verified.error();
  return SignIn(*user, std::move(user_agent), /*second_factor_done=*/true);
}

Result<BrowserSignIn> SessionService::SignInBrowser(std::string_view email,
                                                    std::string_view password) {
  auto user = CheckPassword(email, password);
  if (!user) return user.error();
  auto factors = store_.Read([&](Transaction& tx) { return LoadSecondFactors(tx, *user); });
  if (!factors) return factors.error();
  if (factors->asked_after_password()) {
    BrowserSignIn pending;
    pending.two_factor_token = PendingToken(*user, kTwoFactorBrowserType);
    pending.two_factor_methods = MethodsOf(*factors);
    pending.user = std::move(*user);
    return pending;
  }
  return SignInBrowserAs(*user);
}

Result<BrowserSignIn> SessionService::CompleteBrowserSignIn(std::string_view two_factor_token,
                                                            std::string_view code) {
  auto user = PendingUser(two_factor_token, kTwoFactorBrowserType);
  if (!user) return user.error();
  auto verified = two_factor_.Verify(*user, code);
  if (!verified) return verified.error();
  return SignInBrowserAs(*user);
}

Result<storage::UserRecord> SessionService::PendingBrowserSignIn(
    std::string_view two_factor_token) {
  return PendingUser(two_factor_token, kTwoFactorBrowserType);
}

Result<BrowserSignIn> SessionService::CompleteBrowserSignInWithPasskey(
    std::string_view two_factor_token, const storage::UserRecord& passkey_user) {
  auto user = PendingUser(two_factor_token, kTwoFactorBrowserType);
  if (!user) return user.error();
  if (user->id != passkey_user.id) {
    return Error(ErrorCode::kAuthBadPasskey, "This passkey belongs to another account.");
  }
  return SignInBrowserAs(*user);
}

Result<BrowserSignIn> SessionService::SignInBrowserAs(const storage::UserRecord& user) {
  auto needs_setup =
      store_.Read([&](Transaction& tx) { return NeedsTwoFactorSetup(tx, user); });
  if (!needs_setup) return needs_setup.error();
  if (*needs_setup) {
    return Error(ErrorCode::kAuthRequired,
                 "An organization of yours requires two-factor authentication; set it up in the "
                 "dashboard first.");
  }
  const std::int64_t now = NowSeconds();
  BrowserSignIn signed_in;
  signed_in.expires_in = policy_.browser_ttl.count();
  signed_in.token = SignToken({user.id, PasswordStamp(user), std::string(kBrowserType), now,
                               now + signed_in.expires_in},
                              secret_);
  signed_in.user = user;
  return signed_in;
}

Result<Principal> SessionService::AuthenticateSetupToken(std::string_view token) {
  auto claims = VerifyToken(token, secret_, NowSeconds());
  if (!claims) return claims.error();
  if (claims->type != kSetupType) {
    return Error(ErrorCode::kAuthInvalidCredential, "Not a two-factor setup token.");
  }
  auto session =
      store_.Read([&](Transaction& tx) { return tx.accounts().FindSession(claims->session_id); });
  if (!session) return session.error();
  if (!*session || (*session)->kind != "two_factor_setup" || (*session)->revoked_at ||
      (*session)->user_id != claims->user_id) {
    return Error(ErrorCode::kAuthInvalidCredential, "The setup token is not valid.");
  }
  if ((*session)->expires_at <= clock_.NowMillis()) {
    return Error(ErrorCode::kAuthExpiredCredential, "The setup token has expired; sign in again.");
  }
  Principal principal;
  principal.kind = CredentialKind::kTwoFactorSetup;
  principal.credential_id = claims->session_id;
  principal.user_id = claims->user_id;
  principal.permissions.Add(Permission::kAccount);
  principal.permissions.Add(Permission::kPublic);
  return principal;
}

Result<storage::UserRecord> SessionService::AuthenticateBrowser(std::string_view token) {
  auto claims = VerifyToken(token, secret_, NowSeconds());
  if (!claims) return claims.error();
  if (claims->type != kBrowserType) {
    return Error(ErrorCode::kAuthInvalidCredential, "Not a browser sign-in.");
  }
  auto user =
      store_.Read([&](Transaction& tx) { return tx.accounts().FindUserById(claims->user_id); });
  if (!user) return user.error();
  if (!*user) return Error(ErrorCode::kAuthInvalidCredential, "The account no longer exists.");
  // A changed password ends the sign-in, and so does a second factor now required and lacking.
  if (claims->session_id != PasswordStamp(**user)) {
    return Error(ErrorCode::kAuthInvalidCredential, "The password has changed; sign in again.");
  }
  auto needs_setup =
      store_.Read([&](Transaction& tx) { return NeedsTwoFactorSetup(tx, **user); });
  if (!needs_setup) return needs_setup.error();
  if (*needs_setup) {
    return Error(ErrorCode::kAuthRequired, "This account needs two-factor authentication.");
  }
  return std::move(**user);
}

Result<LoginResult> SessionService::SignIn(const storage::UserRecord& user,
                                           std::optional<std::string> user_agent,
                                           bool second_factor_done) {
  LoginResult result;
  result.user = user;
  auto factors = store_.Read([&](Transaction& tx) { return LoadSecondFactors(tx, user); });
  if (!factors) return factors.error();
  if (factors->asked_after_password() && !second_factor_done) {
    result.two_factor_required = true;
    result.two_factor_methods = MethodsOf(*factors);
    result.two_factor_token = PendingToken(user, kTwoFactorLoginType);
    result.two_factor_expires_in = policy_.two_factor_ttl.count();
    return result;
  }
  if (factors->needs_setup()) {
    const std::int64_t now = clock_.NowMillis();
    storage::SessionRecord setup{core::NewUuidV4(), user.id, "two_factor_setup", now,
                                 now + policy_.setup_ttl.count() * 1000, std::nullopt, user_agent};
    auto stored = store_.Write([&](Transaction& tx) { return tx.accounts().InsertSession(setup); });
    if (!stored) return stored.error();
    result.two_factor_setup_required = true;
    result.setup_token = SignToken({user.id, setup.id, std::string(kSetupType), now / 1000,
                                    now / 1000 + policy_.setup_ttl.count()},
                                   secret_);
    result.setup_expires_in = policy_.setup_ttl.count();
    return result;
  }
  auto tokens = Open(user, std::move(user_agent));
  if (!tokens) return tokens.error();
  result.session = std::move(*tokens);
  return result;
}

Result<SessionTokens> SessionService::Refresh(std::string_view refresh_token) {
  const std::string hash = core::Sha256Hex(refresh_token);
  const std::int64_t now = clock_.NowMillis();
  RefreshVerdict verdict = RefreshVerdict::kUnknown;
  auto issued = store_.Write([&](Transaction& tx) -> Result<std::optional<SessionTokens>> {
    auto token = tx.accounts().FindRefreshToken(hash);
    if (!token) return token.error();
    if (!*token) return std::optional<SessionTokens>();
    auto session = tx.accounts().FindSession((*token)->session_id);
    if (!session) return session.error();
    if (!*session || (*session)->kind != "session") return std::optional<SessionTokens>();
    auto claimed = tx.accounts().ClaimRefreshToken(hash, now);
    if (!claimed) return claimed.error();
    if (!*claimed) {
      verdict = RefreshVerdict::kReused;
      auto revoked = tx.accounts().RevokeSession((*session)->id, now);
      if (!revoked) return revoked.error();
      return std::optional<SessionTokens>();
    }
    if ((*session)->revoked_at) verdict = RefreshVerdict::kRevoked;
    else if ((*session)->expires_at <= now) verdict = RefreshVerdict::kExpired;
    if (verdict != RefreshVerdict::kUnknown) return std::optional<SessionTokens>();
    // A requirement switched on after sign-in applies at the next refresh.
    auto user = tx.accounts().FindUserById((*session)->user_id);
    if (!user) return user.error();
    if (!*user) return std::optional<SessionTokens>();
    auto needs_setup = NeedsTwoFactorSetup(tx, **user);
    if (!needs_setup) return needs_setup.error();
    if (*needs_setup) {
      verdict = RefreshVerdict::kNeedsTwoFactor;
      auto revoked = tx.accounts().RevokeSession((*session)->id, now);
      if (!revoked) return revoked.error();
      return std::optional<SessionTokens>();
    }
    auto tokens = Issue(tx, (*session)->user_id, (*session)->id, (*session)->expires_at);
    if (!tokens) return tokens.error();
    verdict = RefreshVerdict::kIssued;
    return std::optional<SessionTokens>(std::move(*tokens));
  });
  if (!issued) return issued.error();
  switch (verdict) {
    case RefreshVerdict::kIssued: return std::move(**issued);
    case RefreshVerdict::kReused:
      return BadRefresh("This refresh token was already used; the session has been revoked.");
    case RefreshVerdict::kRevoked: return BadRefresh("The session has been signed out.");
    case RefreshVerdict::kExpired:
      return Error(ErrorCode::kAuthExpiredCredential, "The session has expired; sign in again.");
    case RefreshVerdict::kNeedsTwoFactor:
      return BadRefresh("An organization now requires two-factor authentication; sign in again "
                        "to set it up.");
    case RefreshVerdict::kUnknown: break;
  }
  return BadRefresh("The refresh token is not valid.");
}

Result<void> SessionService::Logout(std::string_view refresh_token) {
  const std::string hash = core::Sha256Hex(refresh_token);
  return store_.Write([&](Transaction& tx) -> Result<void> {
    auto token = tx.accounts().FindRefreshToken(hash);
    if (!token) return token.error();
    if (!*token) return {};
    auto revoked = tx.accounts().RevokeSession((*token)->session_id, clock_.NowMillis());
    if (!revoked) return revoked.error();
    return {};
  });
}

Result<Principal> SessionService::AuthenticateAccessToken(std::string_view token) {
  auto claims = VerifyToken(token, secret_, NowSeconds());
  if (!claims) return claims.error();
  if (claims->type != kAccessType) {
    return Error(ErrorCode::kAuthWrongCredentialKind,
                 claims->type == kSetupType
                     ? "A two-factor setup token only works for the two-factor setup operations."
                     : "This token is not a session access token.");
  }
  auto session =
      store_.Read([&](Transaction& tx) { return tx.accounts().FindSession(claims->session_id); });
  if (!session) return session.error();
  if (!*session || (*session)->revoked_at || (*session)->user_id != claims->user_id) {
    return Error(ErrorCode::kAuthInvalidCredential, "The session has been signed out.");
  }
  if ((*session)->expires_at <= clock_.NowMillis()) {
    return Error(ErrorCode::kAuthExpiredCredential, "The session has expired; sign in again.");
  }
  Principal principal;
  principal.kind = CredentialKind::kUserSession;
  principal.credential_id = claims->session_id;
  principal.user_id = claims->user_id;
  principal.permissions.Add(Permission::kAccount);
  principal.permissions.Add(Permission::kPublic);
  return principal;
}

}  // namespace sightline::identity
