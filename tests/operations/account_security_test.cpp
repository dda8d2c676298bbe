// Second factors and the password, in process on both stores with a software authenticator and
// the manual clock: a passkey meets an organization's two-factor requirement (a password
// sign-in then completes with the passkey as its second step; the last second factor cannot be
// removed while the requirement stands), and wrong current passwords at a password change are
// throttled per user.
#include "tests/operations/operation_fixture.h"

#include <boost/json/serialize.hpp>
#include <chrono>
#include <map>
#include <string>

#include "identity/totp.h"
#include "tests/support/software_authenticator.h"

namespace sightline::operations {
namespace {

using storage::conformance::Backend;
using storage::conformance::IsError;
using sightline::testing::Authenticator;

class AccountSecurity : public OperationFixture {
 protected:
  // The PublicKeyCredential JSON of `a` with `response`.
  static json::object Credential(const Authenticator& a, json::object response) {
    const std::string id = core::Base64UrlEncode(a.credential_id);
    return {{"id", id}, {"rawId", id}, {"type", "public-key"}, {"response", std::move(response)}};
  }
  static std::string Challenge(const json::value& options) {
    return *core::Base64UrlDecode(options.at("publicKey").at("challenge").as_string());
  }
  void Register(Caller caller, const Authenticator& a) {
    auto options = Call("create_passkey_registration_options", caller, {});
    ASSERT_TRUE(Ok(options));
    const std::string client = sightline::testing::ClientDataJson(
        "webauthn.create", Challenge(*options), kPasskeyOrigin);
    const std::string attestation =
        sightline::testing::AttestationObject(a, "none", "localhost", client);
    ASSERT_TRUE(Ok(Call(
        "register_passkey", caller,
        {{"challengeId", options->at("challengeId")},
         {"credential", Credential(a, {{"clientDataJSON", core::Base64UrlEncode(client)},
                                       {"attestationObject", core::Base64UrlEncode(attestation)}})}})));
  }
  // A fresh sign-in ceremony answered by `a`: `challengeId` and `credential`.
  json::object Assertion(const Authenticator& a) {
    auto options = Call("create_passkey_sign_in_options", Caller::kAnonymous, {});
    EXPECT_TRUE(Ok(options));
    if (!options) return {};
    const std::string client = sightline::testing::ClientDataJson(
        "webauthn.get", Challenge(*options), kPasskeyOrigin);
    const std::string auth = sightline::testing::AuthenticatorDataFor(
        "localhost", sightline::testing::kUserPresent | sightline::testing::kUserVerified,
        ++counts_[a.credential_id], nullptr);
    return {{"challengeId", options->at("challengeId")},
            {"credential",
             Credential(a, {{"clientDataJSON", core::Base64UrlEncode(client)},
                            {"authenticatorData", core::Base64UrlEncode(auth)},
                            {"signature", core::Base64UrlEncode(a.Sign(auth + core::Sha256(client)))}})}};
  }
  void RequireTwoFactor() {
    ASSERT_TRUE(Ok(Call("update_organization", Caller::kOwner,
                        {{"orgSlug", bootstrap_.organization_slug}, {"requireTwoFactor", true}})));
  }
  core::Result<json::value> PasswordSignIn(std::string_view email, std::string_view password) {
    return Call("login", Caller::kAnonymous,
                {{"email", json::string(email)}, {"password", json::string(password)}});
  }
  core::Result<json::value> ChangePassword(Caller caller, std::string_view current) {
    return Call("change_password", caller,
                {{"currentPassword", json::string(current)}, {"newPassword", "a new password 1"}});
  }
  // A TOTP second factor for the analyst, with the code of the clock's next step.
  void EnableTotp() {
    auto setup = Call("setup_two_factor", Caller::kAnalyst, {});
    ASSERT_TRUE(Ok(setup));
    const auto key = identity::Base32Decode(setup->at("secret").as_string());
    ASSERT_TRUE(key);
    clock_.Advance(std::chrono::seconds(identity::kTotpPeriodSeconds));
    const std::string code = identity::Hotp(*key, identity::TotpStep(clock_.NowMillis() / 1000));
    ASSERT_TRUE(Ok(Call("enable_two_factor", Caller::kAnalyst, {{"code", code}})));
    backup_code_ = std::string(setup->at("backupCodes").at(0).as_string());
  }

  storage::UserRecord UserOf(const identity::Principal& principal) {
    auto user = store().Read([&](storage::Transaction& tx) {
      return tx.accounts().FindUserById(*principal.user_id);
    });
    EXPECT_TRUE(Ok(user) && user->has_value());
    return Ok(user) && user->has_value() ? **user : storage::UserRecord{};
  }

  std::map<std::string, std::uint32_t> counts_;
  std::string backup_code_;
};

TEST_P(AccountSecurity, APasskeyMeetsTheOrganizationsRequirementAsTheSecondStep) {
  const Authenticator analyst_key = Authenticator::Make(sightline::testing::kEs256);
  const Authenticator owner_key = Authenticator::Make(sightline::testing::kEdDsa);
  ASSERT_NO_FATAL_FAILURE(Register(Caller::kAnalyst, analyst_key));
  ASSERT_NO_FATAL_FAILURE(Register(Caller::kOwner, owner_key));
  ASSERT_NO_FATAL_FAILURE(RequireTwoFactor());

  // The password alone is not enough any more, and no setup is asked: the passkey is the factor.
  auto first = PasswordSignIn(kAnalystEmail, kAnalystPassword);
  ASSERT_TRUE(Ok(first));
  ASSERT_TRUE(first->as_object().contains("twoFactorRequired")) << json::serialize(*first);
  EXPECT_FALSE(first->as_object().contains("accessToken"));
  EXPECT_FALSE(first->as_object().contains("twoFactorSetupRequired"));
  EXPECT_EQ(first->at("twoFactorMethods"), json::value(json::array{"passkey"}));
  json::object second = Assertion(owner_key);
  second["twoFactorToken"] = first->at("twoFactorToken");
  EXPECT_TRUE(IsError(Call("login_two_factor", Caller::kAnonymous, second),
                      core::ErrorCode::kAuthBadPasskey))
      << "another account's passkey";
  EXPECT_TRUE(IsError(Call("login_two_factor", Caller::kAnonymous,
                           {{"twoFactorToken", first->at("twoFactorToken")}}),
                      core::ErrorCode::kValInvalidParameter))
      << "neither a code nor a passkey";
  second = Assertion(analyst_key);
  second["twoFactorToken"] = first->at("twoFactorToken");
  auto signed_in = Call("login_two_factor", Caller::kAnonymous, second);
  ASSERT_TRUE(Ok(signed_in));
  ASSERT_TRUE(signed_in->as_object().contains("accessToken")) << json::serialize(*signed_in);
  // The session lives on: the requirement is met at every refresh.
  EXPECT_TRUE(Ok(sessions_->Refresh(signed_in->at("refreshToken").as_string())));

  // The passkey alone is a complete sign-in.
  auto passkey_only = Call("sign_in_with_passkey", Caller::kAnonymous, Assertion(analyst_key));
  ASSERT_TRUE(Ok(passkey_only));
  EXPECT_TRUE(passkey_only->as_object().contains("accessToken")) << json::serialize(*passkey_only);
  // The MCP consent page asks the same after the password, and takes the account's own passkey
  // only (its ceremony, in Chromium, is dashboard.auth's).
  auto browser = sessions_->SignInBrowser(kAnalystEmail, kAnalystPassword);
  ASSERT_TRUE(Ok(browser));
  EXPECT_TRUE(browser->token.empty());
  EXPECT_EQ(browser->two_factor_methods, std::vector<std::string>{"passkey"});
  EXPECT_TRUE(Ok(sessions_->PendingBrowserSignIn(browser->two_factor_token)));
  const storage::UserRecord analyst = UserOf(analyst_);
  const storage::UserRecord owner = UserOf(owner_);
  EXPECT_TRUE(IsError(sessions_->CompleteBrowserSignInWithPasskey(browser->two_factor_token, owner),
                      core::ErrorCode::kAuthBadPasskey));
  EXPECT_FALSE(Ok(sessions_->CompleteBrowserSignInWithPasskey("forged", analyst)));
  auto completed =
      sessions_->CompleteBrowserSignInWithPasskey(browser->two_factor_token, analyst);
  ASSERT_TRUE(Ok(completed));
  ASSERT_FALSE(completed->token.empty());
  auto cookie_user = sessions_->AuthenticateBrowser(completed->token);
  ASSERT_TRUE(Ok(cookie_user));
  EXPECT_EQ(cookie_user->id, analyst.id);
}

TEST_P(AccountSecurity, TheLastSecondFactorStaysWhileAnOrganizationRequiresOne) {
  const Authenticator key = Authenticator::Make(sightline::testing::kEs256);
  ASSERT_NO_FATAL_FAILURE(Register(Caller::kAnalyst, key));
  ASSERT_NO_FATAL_FAILURE(EnableTotp());
  ASSERT_NO_FATAL_FAILURE(RequireTwoFactor());
  auto both = PasswordSignIn(kAnalystEmail, kAnalystPassword);
  ASSERT_TRUE(Ok(both));
  EXPECT_EQ(both->at("twoFactorMethods"), json::value(json::array{"totp", "passkey"}));

  // TOTP may go: the passkey still meets the requirement.
  auto off = Call("disable_two_factor", Caller::kAnalyst,
                  {{"password", kAnalystPassword}, {"code", backup_code_}});
  ASSERT_TRUE(Ok(off));
  EXPECT_FALSE(off->at("enabled").as_bool());
  // The passkey may not: it is the last one.
  auto passkeys = Call("list_passkeys", Caller::kAnalyst, {});
  ASSERT_TRUE(Ok(passkeys));
  const json::value id = passkeys->at("passkeys").at(0).at("id");
  auto refused = Call("delete_passkey", Caller::kAnalyst, {{"passkeyId", id}});
  ASSERT_TRUE(IsError(refused, core::ErrorCode::kAuthTwoFactorRequired));
  EXPECT_EQ(refused.error().details().at("organizations").at(0).at("slug"),
            json::value(bootstrap_.organization_slug));
  auto still = Call("list_passkeys", Caller::kAnalyst, {});
  ASSERT_TRUE(Ok(still));
  EXPECT_EQ(still->at("passkeys").as_array().size(), 1u) << "the removal was rolled back";
}

TEST_P(AccountSecurity, WrongCurrentPasswordsAreThrottledPerUser) {
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(IsError(ChangePassword(Caller::kAnalyst, "not the password"),
                        core::ErrorCode::kAuthWrongPassword));
  }
  // Now even the right password waits for the window to end.
  auto limited = ChangePassword(Caller::kAnalyst, kAnalystPassword);
  ASSERT_TRUE(IsError(limited, core::ErrorCode::kAuthRateLimited));
  const std::int64_t retry = limited.error().details().at("retryAfterSeconds").as_int64();
  EXPECT_GT(retry, 0);
  EXPECT_LE(retry, 15 * 60);
  EXPECT_TRUE(IsError(ChangePassword(Caller::kOwner, "not the password"),
                      core::ErrorCode::kAuthWrongPassword))
      << "another user's count is their own";
  clock_.Advance(std::chrono::seconds(retry));
  EXPECT_TRUE(Ok(ChangePassword(Caller::kAnalyst, kAnalystPassword)));
}

INSTANTIATE_TEST_SUITE_P(Sqlite, AccountSecurity, ::testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, AccountSecurity, ::testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::operations
