// End-to-end: two-factor authentication on every backend. Codes come from otplib (npm), an
// implementation no one here wrote, for the secret the server issued: setup, enable, sign-in
// with a code or a backup code (each once), the two-step login, throttling of wrong codes,
// disabling (password and code; refused while an organization requires it), new backup codes,
// and the X-2FA-Setup-Token of a member whose organization requires two-factor authentication.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include "api_client.h"
#include "harness.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

class TwoFactor : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("twofactor");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
    email_ = creds_.owner_email;
    owner_ = api().SignIn(email_);
  }
  ApiClient api() const { return ApiClient(*server_); }
  Response SecondStep(const Response& first, const std::string& code) {
    return api().Call("POST", "/auth/login/2fa", "",
                json::serialize(json::object{{"twoFactorToken", first.Json().at("twoFactorToken")},
                                             {"code", code}}));
  }
  Response Enable(const std::string& token, const std::string& code, Headers headers = {}) {
    return api().Call("POST", "/users/me/2fa/enable", token,
                json::serialize(json::object{{"code", code}}), headers);
  }
  void RequireTwoFactor(bool required) {
    const Response r =
        api().Call("PATCH", "/" + org_, owner_,
             required ? R"({"requireTwoFactor":true})" : R"({"requireTwoFactor":false})");
    ASSERT_EQ(r.status, 200) << r.body;
  }

  std::string org_, email_, owner_;
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(TwoFactor, SetUpEnableAndSignInWithEachCodeOnce) {
  const json::value off = api().Call("GET", "/users/me/2fa/status", owner_).Json();
  EXPECT_FALSE(off.at("enabled").as_bool());
  EXPECT_EQ(Enable(owner_, "123456").ErrorCode(), "AUTH_008") << "no setup pending";

  const Response first = api().Call("POST", "/users/me/2fa/setup", owner_);
  ASSERT_EQ(first.status, 200) << first.body;
  const std::string discarded(first.Json().at("secret").as_string());
  EXPECT_EQ(discarded.size(), 32u);
  EXPECT_TRUE(std::string(first.Json().at("otpauthUri").as_string())
                  .starts_with("otpauth://totp/Sightline:owner%40"));
  EXPECT_EQ(first.Json().at("backupCodes").as_array().size(), 10u);
  EXPECT_TRUE(api().Call("GET", "/users/me/2fa/status", owner_).Json().at("pendingSetup").as_bool());

  // A second setup replaces the first: the first secret's codes no longer enable.
  const Response second = api().Call("POST", "/users/me/2fa/setup", owner_);
  const std::string secret(second.Json().at("secret").as_string());
  EXPECT_NE(secret, discarded);
  const Response stale = Enable(owner_, OtplibCode(discarded, UnixSecondsNow()));
  EXPECT_EQ(stale.status, 400);
  EXPECT_EQ(stale.ErrorCode(), "AUTH_007");

  EnabledTwoFactor enabled{secret, {}, UnixSecondsNow()};
  const json::value second_body = second.Json();
  for (const auto& code : second_body.at("backupCodes").as_array()) {
    enabled.backup_codes.emplace_back(code.as_string());
  }
  const Response on = Enable(owner_, OtplibCode(secret, enabled.enabled_at));
  ASSERT_EQ(on.status, 200) << on.body;
  EXPECT_TRUE(on.Json().at("enabled").as_bool());
  EXPECT_EQ(on.Json().at("backupCodesRemaining").as_int64(), 10);
  EXPECT_EQ(api().Call("POST", "/users/me/2fa/setup", owner_).ErrorCode(), "AUTH_009");

  // The password alone no longer opens a session.
  const Response password_only = api().Login(email_, kOwnerPassword);
  ASSERT_EQ(password_only.status, 200);
  EXPECT_TRUE(password_only.Json().at("twoFactorRequired").as_bool());
  EXPECT_FALSE(password_only.Json().as_object().contains("accessToken"));
  // The code that enabled it is used up; the next one works, once.
  EXPECT_EQ(SecondStep(password_only, OtplibCode(secret, enabled.enabled_at)).ErrorCode(), "AUTH_007");
  EXPECT_FALSE(AccessToken(SecondStep(password_only, enabled.NextCode())).empty());
  // A backup code in one step, once.
  EXPECT_FALSE(AccessToken(api().Login(email_, kOwnerPassword, enabled.backup_codes[0])).empty());
  EXPECT_EQ(api().Login(email_, kOwnerPassword, enabled.backup_codes[0]).ErrorCode(), "AUTH_007");
  EXPECT_EQ(api().Call("GET", "/users/me/2fa/status", owner_).Json().at("backupCodesRemaining"), 9);

  // New backup codes: the old ones stop working.
  const Response fresh = api().Call("POST", "/users/me/2fa/backup-codes", owner_);
  ASSERT_EQ(fresh.status, 200) << fresh.body;
  const std::string renewed(fresh.Json().at("backupCodes").at(0).as_string());
  EXPECT_EQ(api().Login(email_, kOwnerPassword, enabled.backup_codes[1]).ErrorCode(), "AUTH_007");
  EXPECT_FALSE(AccessToken(api().Login(email_, kOwnerPassword, renewed)).empty());
}

TEST_P(TwoFactor, WrongCodesAreThrottledPerUser) {
  const EnabledTwoFactor enabled = api().EnableTwoFactor(owner_);
  const Response pending = api().Login(email_, kOwnerPassword);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(SecondStep(pending, "000000").ErrorCode(), "AUTH_007");
  // Even a right code waits now.
  const Response throttled = SecondStep(pending, enabled.backup_codes[0]);
  EXPECT_EQ(throttled.status, 429);
  EXPECT_EQ(throttled.ErrorCode(), "AUTH_014");
  EXPECT_EQ(api().Login(email_, kOwnerPassword, enabled.backup_codes[0]).ErrorCode(), "AUTH_014");
}

TEST_P(TwoFactor, DisablingNeedsThePasswordAndACodeAndNoOrganizationRequiringIt) {
  const EnabledTwoFactor enabled = api().EnableTwoFactor(owner_);
  const std::string disable = "/users/me/2fa/disable";
  auto body = [](const std::string& password, const std::string& code) {
    return json::serialize(json::object{{"password", password}, {"code", code}});
  };
  EXPECT_EQ(api().Call("POST", disable, owner_, body("wrong horse", enabled.backup_codes[0])).ErrorCode(),
            "AUTH_012");
  EXPECT_EQ(api().Call("POST", disable, owner_, body(kOwnerPassword, "000000")).ErrorCode(), "AUTH_007");
  RequireTwoFactor(true);
  const Response forbidden =
      api().Call("POST", disable, owner_, body(kOwnerPassword, enabled.backup_codes[0]));
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_EQ(forbidden.ErrorCode(), "AUTH_011");
  EXPECT_EQ(forbidden.Json().at("error").at("details").at("organizations").at(0).at("slug"),
            json::value(org_));
  EXPECT_EQ(api().Call("GET", "/users/me/2fa/status", owner_)
                .Json()
                .at("requiredByOrganizations")
                .as_array()
                .size(),
            1u);
  RequireTwoFactor(false);
  const Response off =
      api().Call("POST", disable, owner_, body(kOwnerPassword, enabled.backup_codes[0]));
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_FALSE(off.Json().at("enabled").as_bool());
  EXPECT_EQ(api().Call("POST", "/users/me/2fa/backup-codes", owner_).ErrorCode(), "AUTH_010");
  EXPECT_FALSE(AccessToken(api().Login(email_, kOwnerPassword)).empty()) << "the password suffices again";
}

TEST_P(TwoFactor, AnOrganizationRequiringItSignsMembersInToSetItUpOnly) {
  api().AddMember(org_, owner_, "ana@" + org_ + ".test", "analyst");
  RequireTwoFactor(true);
  const Response login = api().Login("ana@" + org_ + ".test", kMemberPassword);
  ASSERT_EQ(login.status, 200) << login.body;
  EXPECT_TRUE(login.Json().at("twoFactorSetupRequired").as_bool());
  EXPECT_FALSE(login.Json().as_object().contains("accessToken"));
  const std::string setup_token(login.Json().at("setupToken").as_string());
  const Headers with_token{{"X-2FA-Setup-Token", setup_token}};
  // The token opens the setup and nothing else.
  EXPECT_EQ(api().Call("GET", "/users/me", "", "", with_token).ErrorCode(), "AUTH_005");
  EXPECT_EQ(api().Call("GET", "/users/me", setup_token).status, 401);
  EXPECT_EQ(api().Call("GET", "/users/me/2fa/setup", "", "", with_token).status, 405);
  const Response setup = api().Call("POST", "/users/me/2fa/setup", "", "", with_token);
  ASSERT_EQ(setup.status, 200) << setup.body;
  const std::string secret(setup.Json().at("secret").as_string());
  const std::int64_t at = UnixSecondsNow();
  ASSERT_EQ(Enable("", OtplibCode(secret, at), with_token).status, 200);
  // Now a normal two-step sign-in.
  const Response again = api().Login("ana@" + org_ + ".test", kMemberPassword);
  EXPECT_TRUE(again.Json().at("twoFactorRequired").as_bool());
  EXPECT_FALSE(AccessToken(SecondStep(again, OtplibCode(secret, at + 30))).empty());
  EXPECT_EQ(api().Call("GET", "/users/me/2fa/setup", "", "", {{"X-2FA-Setup-Token", "forged"}}).status,
            405);
  EXPECT_EQ(api().Call("POST", "/users/me/2fa/setup", "", "", {{"X-2FA-Setup-Token", "forged"}}).status,
            401);
}

INSTANTIATE_TEST_SUITE_P(Backends, TwoFactor, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
