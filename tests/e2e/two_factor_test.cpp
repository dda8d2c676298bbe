// End-to-end: two-factor authentication on every backend. Codes come from otplib (npm), an
// implementation no one here wrote, for the secret the server issued: setup, enable, sign-in
// with a code or a backup code (each once), the two-step login, throttling of wrong codes,
// disabling (password and code; refused while an organization requires it), new backup codes,
// and the X-2FA-Setup-Token of a member whose organization requires two-factor authentication.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <chrono>

#include "harness.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;
using Headers = std::map<std::string, std::string>;

std::int64_t Now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Code(const Response& r) {
  return std::string(r.Json().at("error").at("code").as_string());
}

struct Enabled {
  std::string secret;
  std::vector<std::string> backup_codes;
  std::int64_t at = 0;  // when the enabling code was made (its step is used up)
};

class TwoFactor : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    org_ = Unique("twofactor");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
    email_ = "owner@" + org_ + ".test";
    owner_ = Token(Login(email_, "correct horse"));
  }
  Response Call(const std::string& method, const std::string& target, const std::string& token,
                const std::string& body = "", Headers headers = {}) {
    if (!token.empty()) headers["Authorization"] = "Bearer " + token;
    if (!body.empty()) headers["Content-Type"] = "application/json";
    return server_->Request(method, target, headers, body);
  }
  Response Login(const std::string& email, const std::string& password,
                 const std::string& code = "") {
    json::object body{{"email", email}, {"password", password}};
    if (!code.empty()) body["twoFactorCode"] = code;
    return Call("POST", "/auth/login", "", json::serialize(body));
  }
  Response SecondStep(const Response& first, const std::string& code) {
    return Call("POST", "/auth/login/2fa", "",
                json::serialize(json::object{{"twoFactorToken", first.Json().at("twoFactorToken")},
                                             {"code", code}}));
  }
  static std::string Token(const Response& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    const json::value body = r.Json();
    if (!body.as_object().contains("accessToken")) return "";
    return std::string(body.at("accessToken").as_string());
  }
  Response Enable(const std::string& token, const std::string& code, Headers headers = {}) {
    return Call("POST", "/users/me/2fa/enable", token,
                json::serialize(json::object{{"code", code}}), headers);
  }
  Enabled EnableTwoFactor(const std::string& token) {
    const Response setup = Call("POST", "/users/me/2fa/setup", token);
    EXPECT_EQ(setup.status, 200) << setup.body;
    Enabled enabled;
    const json::value body = setup.Json();
    enabled.secret = std::string(body.at("secret").as_string());
    for (const auto& code : body.at("backupCodes").as_array()) {
      enabled.backup_codes.emplace_back(code.as_string());
    }
    enabled.at = Now();
    const Response on = Enable(token, OtplibCode(enabled.secret, enabled.at));
    EXPECT_EQ(on.status, 200) << on.body;
    return enabled;
  }
  // A code whose step has not been used yet: the next one (accepted ±1 step).
  static std::string NextCode(const Enabled& enabled) {
    return OtplibCode(enabled.secret, enabled.at + 30);
  }
  void RequireTwoFactor(bool required) {
    const Response r =
        Call("PATCH", "/" + org_, owner_,
             required ? R"({"requireTwoFactor":true})" : R"({"requireTwoFactor":false})");
    ASSERT_EQ(r.status, 200) << r.body;
  }

  std::string org_, email_, owner_;
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(TwoFactor, SetUpEnableAndSignInWithEachCodeOnce) {
  const json::value off = Call("GET", "/users/me/2fa/status", owner_).Json();
  EXPECT_FALSE(off.at("enabled").as_bool());
  EXPECT_EQ(Code(Enable(owner_, "123456")), "AUTH_008") << "no setup pending";

  const Response first = Call("POST", "/users/me/2fa/setup", owner_);
  ASSERT_EQ(first.status, 200) << first.body;
  const std::string discarded(first.Json().at("secret").as_string());
  EXPECT_EQ(discarded.size(), 32u);
  EXPECT_TRUE(std::string(first.Json().at("otpauthUri").as_string())
                  .starts_with("otpauth://totp/Sightline:owner%40"));
  EXPECT_EQ(first.Json().at("backupCodes").as_array().size(), 10u);
  EXPECT_TRUE(Call("GET", "/users/me/2fa/status", owner_).Json().at("pendingSetup").as_bool());

  // A second setup replaces the first: the first secret's codes no longer enable.
  const Response second = Call("POST", "/users/me/2fa/setup", owner_);
  const std::string secret(second.Json().at("secret").as_string());
  EXPECT_NE(secret, discarded);
  const Response stale = Enable(owner_, OtplibCode(discarded, Now()));
  EXPECT_EQ(stale.status, 400);
  EXPECT_EQ(Code(stale), "AUTH_007");

  Enabled enabled{secret, {}, Now()};
  const json::value second_body = second.Json();
  for (const auto& code : second_body.at("backupCodes").as_array()) {
    enabled.backup_codes.emplace_back(code.as_string());
  }
  const Response on = Enable(owner_, OtplibCode(secret, enabled.at));
  ASSERT_EQ(on.status, 200) << on.body;
  EXPECT_TRUE(on.Json().at("enabled").as_bool());
  EXPECT_EQ(on.Json().at("backupCodesRemaining").as_int64(), 10);
  EXPECT_EQ(Code(Call("POST", "/users/me/2fa/setup", owner_)), "AUTH_009");

  // The password alone no longer opens a session.
  const Response password_only = Login(email_, "correct horse");
  ASSERT_EQ(password_only.status, 200);
  EXPECT_TRUE(password_only.Json().at("twoFactorRequired").as_bool());
  EXPECT_FALSE(password_only.Json().as_object().contains("accessToken"));
  // The code that enabled it is used up; the next one works, once.
  EXPECT_EQ(Code(SecondStep(password_only, OtplibCode(secret, enabled.at))), "AUTH_007");
  EXPECT_FALSE(Token(SecondStep(password_only, NextCode(enabled))).empty());
  // A backup code in one step, once.
  EXPECT_FALSE(Token(Login(email_, "correct horse", enabled.backup_codes[0])).empty());
  EXPECT_EQ(Code(Login(email_, "correct horse", enabled.backup_codes[0])), "AUTH_007");
  EXPECT_EQ(Call("GET", "/users/me/2fa/status", owner_).Json().at("backupCodesRemaining"), 9);

  // New backup codes: the old ones stop working.
  const Response fresh = Call("POST", "/users/me/2fa/backup-codes", owner_);
  ASSERT_EQ(fresh.status, 200) << fresh.body;
  const std::string renewed(fresh.Json().at("backupCodes").at(0).as_string());
  EXPECT_EQ(Code(Login(email_, "correct horse", enabled.backup_codes[1])), "AUTH_007");
  EXPECT_FALSE(Token(Login(email_, "correct horse", renewed)).empty());
}

TEST_P(TwoFactor, WrongCodesAreThrottledPerUser) {
  const Enabled enabled = EnableTwoFactor(owner_);
  const Response pending = Login(email_, "correct horse");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(Code(SecondStep(pending, "000000")), "AUTH_007");
  // Even a right code waits now.
  const Response throttled = SecondStep(pending, enabled.backup_codes[0]);
  EXPECT_EQ(throttled.status, 429);
  EXPECT_EQ(Code(throttled), "AUTH_014");
  EXPECT_EQ(Code(Login(email_, "correct horse", enabled.backup_codes[0])), "AUTH_014");
}

TEST_P(TwoFactor, DisablingNeedsThePasswordAndACodeAndNoOrganizationRequiringIt) {
  const Enabled enabled = EnableTwoFactor(owner_);
  const std::string disable = "/users/me/2fa/disable";
  auto body = [](const std::string& password, const std::string& code) {
    return json::serialize(json::object{{"password", password}, {"code", code}});
  };
  EXPECT_EQ(Code(Call("POST", disable, owner_, body("wrong horse", enabled.backup_codes[0]))),
            "AUTH_012");
  EXPECT_EQ(Code(Call("POST", disable, owner_, body("correct horse", "000000"))), "AUTH_007");
  RequireTwoFactor(true);
  const Response forbidden =
      Call("POST", disable, owner_, body("correct horse", enabled.backup_codes[0]));
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_EQ(Code(forbidden), "AUTH_011");
  EXPECT_EQ(forbidden.Json().at("error").at("details").at("organizations").at(0).at("slug"),
            json::value(org_));
  EXPECT_EQ(Call("GET", "/users/me/2fa/status", owner_)
                .Json()
                .at("requiredByOrganizations")
                .as_array()
                .size(),
            1u);
  RequireTwoFactor(false);
  const Response off =
      Call("POST", disable, owner_, body("correct horse", enabled.backup_codes[0]));
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_FALSE(off.Json().at("enabled").as_bool());
  EXPECT_EQ(Code(Call("POST", "/users/me/2fa/backup-codes", owner_)), "AUTH_010");
  EXPECT_FALSE(Token(Login(email_, "correct horse")).empty()) << "the password suffices again";
}

TEST_P(TwoFactor, AnOrganizationRequiringItSignsMembersInToSetItUpOnly) {
  const Response invited = Call("POST", "/" + org_ + "/invitations", owner_,
                                R"({"email":"ana@)" + org_ + R"(.test","role":"analyst"})");
  ASSERT_EQ(invited.status, 201) << invited.body;
  ASSERT_EQ(Call("POST", "/invitations/accept", "",
                 R"({"token":")" + std::string(invited.Json().at("token").as_string()) +
                     R"(","password":"another horse"})")
                .status,
            200);
  RequireTwoFactor(true);
  const Response login = Login("ana@" + org_ + ".test", "another horse");
  ASSERT_EQ(login.status, 200) << login.body;
  EXPECT_TRUE(login.Json().at("twoFactorSetupRequired").as_bool());
  EXPECT_FALSE(login.Json().as_object().contains("accessToken"));
  const std::string setup_token(login.Json().at("setupToken").as_string());
  const Headers with_token{{"X-2FA-Setup-Token", setup_token}};
  // The token opens the setup and nothing else.
  EXPECT_EQ(Code(Call("GET", "/users/me", "", "", with_token)), "AUTH_005");
  EXPECT_EQ(Call("GET", "/users/me", setup_token).status, 401);
  EXPECT_EQ(Call("GET", "/users/me/2fa/setup", "", "", with_token).status, 405);
  const Response setup = Call("POST", "/users/me/2fa/setup", "", "", with_token);
  ASSERT_EQ(setup.status, 200) << setup.body;
  const std::string secret(setup.Json().at("secret").as_string());
  const std::int64_t at = Now();
  ASSERT_EQ(Enable("", OtplibCode(secret, at), with_token).status, 200);
  // Now a normal two-step sign-in.
  const Response again = Login("ana@" + org_ + ".test", "another horse");
  EXPECT_TRUE(again.Json().at("twoFactorRequired").as_bool());
  EXPECT_FALSE(Token(SecondStep(again, OtplibCode(secret, at + 30))).empty());
  EXPECT_EQ(Call("GET", "/users/me/2fa/setup", "", "", {{"X-2FA-Setup-Token", "forged"}}).status,
            405);
  EXPECT_EQ(Call("POST", "/users/me/2fa/setup", "", "", {{"X-2FA-Setup-Token", "forged"}}).status,
            401);
}

INSTANTIATE_TEST_SUITE_P(Backends, TwoFactor, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
