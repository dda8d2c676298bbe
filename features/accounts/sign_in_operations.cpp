// Sign-in, token refresh and sign-out. Anonymous operations (permission `public`, limited per
// client IP); not MCP tools: an assistant never handles a user's password or tokens.
#include "features/accounts/sign_in_operations.h"

#include "storage/account_repository.h"
#include "features/accounts/passkey_operations.h"
#include "tools/operation_helpers.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kNotATool = "Handles passwords and session tokens.";

Result<json::object> CurrentUserOf(storage::Store& store, const storage::UserRecord& user) {
  auto memberships = store.Read([&](storage::Transaction& tx) {
    return tx.accounts().ListOrganizationsOfUser(user.id);
  });
  if (!memberships) return memberships.error();
  return CurrentUserView(user, *memberships);
}

Result<json::value> RunLogin(OperationContext& context, const json::object& args) {
  auto login = context.services.sessions.Login(RequiredString(args, "email"),
                                      RequiredString(args, "password"),
                                      context.request.user_agent,
                                      OptionalString(args, "twoFactorCode"));
  if (!login) return login.error();
  return AuthResponseFor(context.store, *login);
}

// The second factor as a passkey assertion: the token is checked before the ceremony spends its
// challenge.
Result<identity::LoginResult> CompleteWithPasskey(OperationContext& context,
                                                  const json::object& args) {
  const std::string token = RequiredString(args, "twoFactorToken");
  auto pending = context.services.sessions.PendingTwoFactorLogin(token);
  if (!pending) return pending.error();
  auto passkey_user = PasskeySignsIn(context, args);
  if (!passkey_user) return passkey_user.error();
  return context.services.sessions.CompleteTwoFactorLoginWithPasskey(token, *passkey_user,
                                                                     context.request.user_agent);
}

Result<json::value> RunLoginTwoFactor(OperationContext& context, const json::object& args) {
  const auto code = OptionalString(args, "code");
  if (!code && (!args.contains("challengeId") || !args.contains("credential"))) {
    return core::Error::Invalid(
        "code", "Send `code` (an app or backup code), or a passkey's `challengeId` and "
                "`credential`.");
  }
  auto login = code ? context.services.sessions.CompleteTwoFactorLogin(
                          RequiredString(args, "twoFactorToken"), *code, context.request.user_agent)
                    : CompleteWithPasskey(context, args);
  if (!login) return login.error();
  return AuthResponseFor(context.store, *login);
}

Result<json::value> RunRefresh(OperationContext& context, const json::object& args) {
  auto tokens = context.services.sessions.Refresh(RequiredString(args, "refreshToken"));
  if (!tokens) return tokens.error();
  json::object out = AuthView(*tokens, {});
  out.erase("user");
  return json::value(std::move(out));
}

Result<json::value> RunLogout(OperationContext& context, const json::object& args) {
  auto done = context.services.sessions.Logout(RequiredString(args, "refreshToken"));
  if (!done) return done.error();
  return NoContent();
}

}  // namespace

Result<json::value> AuthResponseFor(storage::Store& store, const identity::LoginResult& login) {
  if (login.two_factor_required) {
    json::array methods;
    for (const std::string& method : login.two_factor_methods) methods.emplace_back(method);
    return json::value(json::object{{"twoFactorRequired", true},
                                    {"twoFactorMethods", std::move(methods)},
                                    {"twoFactorToken", login.two_factor_token},
                                    {"twoFactorTokenExpiresIn", login.two_factor_expires_in}});
  }
  if (login.two_factor_setup_required) {
    return json::value(json::object{{"twoFactorSetupRequired", true},
                                    {"setupToken", login.setup_token},
                                    {"setupTokenExpiresIn", login.setup_expires_in}});
  }
  auto user = CurrentUserOf(store, login.user);
  if (!user) return user.error();
  return json::value(AuthView(*login.session, std::move(*user)));
}

const OperationSpec kLogin{
    .name = "login",
    .summary = "Sign in with email and password",
    .description =
        "Opens a session: a 15-minute access token (send it as `Authorization: Bearer`) and a "
        "30-day refresh token. When an organization of the user requires two-factor "
        "authentication and the user has no second factor (an authenticator app or a passkey), "
        "no session is opened: the answer is `twoFactorSetupRequired` with a 10-minute "
        "`setupToken` for the two-factor setup operations. A user with two-factor "
        "authentication on, or whose passkey is the second factor an organization requires, "
        "gets `twoFactorRequired`, `twoFactorMethods` and a 5-minute `twoFactorToken` for "
        "`POST /auth/login/2fa`, unless `twoFactorCode` (an authenticator or backup code) came "
        "along. A wrong email and a wrong password are "
        "indistinguishable (AUTH_006).",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/login",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "429",
    .run = RunLogin,
};

const OperationSpec kLoginTwoFactor{
    .name = "login_two_factor",
    .summary = "Complete a sign-in with the second factor",
    .description =
        "The second step of a sign-in that answered `twoFactorRequired`: the `twoFactorToken` "
        "and a code from the authenticator app (or an unused backup code) open the session; "
        "so does, instead of `code`, the user's passkey: `challengeId` and `credential` as for "
        "sign_in_with_passkey (options from POST /auth/passkeys/options). AUTH_007 for a wrong "
        "or reused code; after 5 wrong codes in 5 minutes, AUTH_014. AUTH_013 when the passkey "
        "does not verify or is another account's.",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/login/2fa",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "429 503",
    .run = RunLoginTwoFactor,
};

const OperationSpec kRefreshToken{
    .name = "refresh_token",
    .summary = "Exchange a refresh token for new tokens",
    .description =
        "Rotates the refresh token: the one sent is used up and a new pair is returned. Sending "
        "a used refresh token again revokes the whole session (it was copied), so every token "
        "of that session stops working.",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/refresh-token",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kNotATool,
    .run = RunRefresh,
};

const OperationSpec kLogout{
    .name = "logout",
    .summary = "Sign out",
    .description = "Revokes the session of the refresh token: its access tokens stop working on "
                   "their next request. Unknown tokens are accepted silently.",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/logout",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kNone,
    .success_status = 204,
    .mcp_exclusion_reason = kNotATool,
    .run = RunLogout,
};

}  // namespace sightline::tools
