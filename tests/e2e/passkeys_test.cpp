// End-to-end: passkeys on every backend, with a software authenticator (OpenSSL keys, CBOR
// made here) answering the server's ceremonies: registration (packed ES256, none Ed25519),
// single-use challenges, duplicates, sign-in (a session even with two-factor authentication on,
// since the passkey verified the user), a passkey meeting an organization's two-factor
// requirement (the second step of a password sign-in), a counter that does not grow, a foreign
// origin, renaming and removing, and another user's passkey answering 404. The same flows run
// in a real browser with a virtual authenticator in tests/interop/passkeys.test.mjs.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "api_client.h"
#include "harness.h"
#include "tests/support/software_authenticator.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;
using testing::Authenticator;

class Passkeys : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("passkeys");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
    email_ = creds_.owner_email;
    owner_ = api().SignIn(email_);
    origin_ = "http://localhost:" + std::to_string(server_->port());
  }
  ApiClient api() const { return ApiClient(*server_); }
  // Registration: options, the authenticator's answer, the server's verdict.
  Response Register(const std::string& token, const Authenticator& a, const std::string& format,
                    const std::string& label, std::string origin = "") {
    const Response options = api().Call("POST", "/users/me/passkeys/options", token);
    EXPECT_EQ(options.status, 200) << options.body;
    last_options_ = options.Json();
    const std::string challenge =
        *core::Base64UrlDecode(last_options_.at("publicKey").at("challenge").as_string());
    const std::string client =
        testing::ClientDataJson("webauthn.create", challenge, origin.empty() ? origin_ : origin);
    const std::string attestation = testing::AttestationObject(a, format, "localhost", client);
    last_challenge_id_ = std::string(last_options_.at("challengeId").as_string());
    return api().Call(
        "POST", "/users/me/passkeys", token,
        json::serialize(json::object{
            {"challengeId", last_challenge_id_},
            {"label", label},
            {"credential",
             json::object{{"id", core::Base64UrlEncode(a.credential_id)},
                          {"rawId", core::Base64UrlEncode(a.credential_id)},
                          {"type", "public-key"},
                          {"response",
                           json::object{{"clientDataJSON", core::Base64UrlEncode(client)},
                                        {"attestationObject", core::Base64UrlEncode(attestation)},
                                        {"transports", json::array{"internal"}}}}}}}));
  }
  // Sign-in with the authenticator's signature at counter `count`.
  Response SignIn(const Authenticator& a, std::uint32_t count, const std::string& user_id) {
    SignInBody(a, count, user_id);
    return api().Call("POST", "/auth/passkeys/login", "", last_assertion_);
  }
  // A sign-in ceremony answered by `a`: its body in last_assertion_.
  void SignInBody(const Authenticator& a, std::uint32_t count, const std::string& user_id) {
    const Response options = api().Call("POST", "/auth/passkeys/options", "");
    EXPECT_EQ(options.status, 200) << options.body;
    const json::value body = options.Json();
    EXPECT_EQ(body.at("publicKey").at("rpId"), "localhost");
    const std::string challenge =
        *core::Base64UrlDecode(body.at("publicKey").at("challenge").as_string());
    const std::string client = testing::ClientDataJson("webauthn.get", challenge, origin_);
    const std::string auth = testing::AuthenticatorDataFor(
        "localhost", testing::kUserPresent | testing::kUserVerified, count, nullptr);
    last_assertion_ = json::serialize(json::object{
        {"challengeId", body.at("challengeId")},
        {"credential",
         json::object{
             {"id", core::Base64UrlEncode(a.credential_id)},
             {"rawId", core::Base64UrlEncode(a.credential_id)},
             {"type", "public-key"},
             {"response", json::object{{"clientDataJSON", core::Base64UrlEncode(client)},
                                       {"authenticatorData", core::Base64UrlEncode(auth)},
                                       {"signature",
                                        core::Base64UrlEncode(a.Sign(auth + core::Sha256(client)))},
                                       {"userHandle", core::Base64UrlEncode(user_id)}}}}}});
  }
  // The second step of a password sign-in (`first`), answered by the passkey.
  Response SecondStep(const Response& first, const Authenticator& a, std::uint32_t count,
                      const std::string& user_id) {
    SignInBody(a, count, user_id);
    json::object body = json::parse(last_assertion_).as_object();
    body["twoFactorToken"] = first.Json().at("twoFactorToken");
    return api().Call("POST", "/auth/login/2fa", "", json::serialize(body));
  }
  std::string UserId(const std::string& token) {
    return std::string(api().Call("GET", "/users/me", token).Json().at("id").as_string());
  }

  std::string org_, email_, owner_, origin_;
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
  json::value last_options_;
  std::string last_challenge_id_, last_assertion_;
};

TEST_P(Passkeys, RegisterSignInRenameAndRemove) {
  const Authenticator laptop = Authenticator::Make(testing::kEs256);
  const Response created = Register(owner_, laptop, "packed", "Laptop");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.Json().at("label"), "Laptop");
  EXPECT_EQ(created.Json().at("algorithm"), "ES256");
  EXPECT_EQ(created.Json().at("transports").at(0), "internal");
  EXPECT_EQ(last_options_.at("publicKey").at("rp").at("id"), "localhost");
  EXPECT_EQ(last_options_.at("publicKey").at("authenticatorSelection").at("userVerification"),
            "required");
  const std::string passkey_id(created.Json().at("id").as_string());

  // The same credential again is excluded by the options and refused by the server.
  const Response again = Register(owner_, laptop, "packed", "Laptop again");
  EXPECT_EQ(last_options_.at("publicKey").at("excludeCredentials").at(0).at("id"),
            json::value(core::Base64UrlEncode(laptop.credential_id)));
  EXPECT_EQ(again.status, 409) << again.body;
  // A second kind of key, attestation none.
  const Authenticator phone = Authenticator::Make(testing::kEdDsa);
  const Response second = Register(owner_, phone, "none", "Phone");
  ASSERT_EQ(second.status, 201) << second.body;
  EXPECT_EQ(second.Json().at("algorithm"), "EdDSA");
  // A challenge answers one ceremony only.
  const Response reused = api().Call("POST", "/users/me/passkeys", owner_,
                               R"({"challengeId":")" + last_challenge_id_ +
                                   R"(","credential":{"id":"x","type":"public-key","response":{)"
                                   R"("clientDataJSON":"e30","attestationObject":"oA"}}})");
  EXPECT_EQ(reused.ErrorCode(), "AUTH_013");

  // Signing in: a session, and the counter must grow.
  const std::string user_id = UserId(owner_);
  const std::string session = AccessToken(SignIn(laptop, 1, user_id));
  EXPECT_EQ(api().Call("GET", "/users/me", session).Json().at("email"), json::value(email_));
  const Response replay = api().Call("POST", "/auth/passkeys/login", "", last_assertion_);
  EXPECT_EQ(replay.ErrorCode(), "AUTH_013") << "the challenge was used";
  const Response cloned = SignIn(laptop, 1, user_id);
  EXPECT_EQ(cloned.ErrorCode(), "AUTH_013") << cloned.body;
  EXPECT_FALSE(AccessToken(SignIn(laptop, 2, user_id)).empty());
  const json::value listed = api().Call("GET", "/users/me/passkeys", owner_).Json();
  EXPECT_EQ(listed.at("passkeys").as_array().size(), 2u);
  EXPECT_FALSE(listed.at("passkeys").at(0).at("lastUsedAt").is_null());

  // Another member sees none of them.
  const std::string other =
      api().AddMember(org_, owner_, "ana@" + org_ + ".test", "analyst").access_token;
  EXPECT_TRUE(api().Call("GET", "/users/me/passkeys", other).Json().at("passkeys").as_array().empty());
  EXPECT_EQ(api().Call("PATCH", "/users/me/passkeys/" + passkey_id, other, R"({"label":"Mine"})").status,
            404);
  EXPECT_EQ(api().Call("DELETE", "/users/me/passkeys/" + passkey_id, other).status, 404);
  // A passkey signs in its own user only.
  EXPECT_EQ(SignIn(phone, 0, UserId(other)).ErrorCode(), "AUTH_013");

  const Response renamed =
      api().Call("PATCH", "/users/me/passkeys/" + passkey_id, owner_, R"({"label":"Desk"})");
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_EQ(renamed.Json().at("label"), "Desk");
  EXPECT_EQ(api().Call("DELETE", "/users/me/passkeys/" + passkey_id, owner_).status, 204);
  EXPECT_EQ(api().Call("DELETE", "/users/me/passkeys/" + passkey_id, owner_).status, 404);
  EXPECT_EQ(SignIn(laptop, 3, user_id).ErrorCode(), "AUTH_013") << "removed";
}

TEST_P(Passkeys, APasskeyIsBothFactorsAndAForeignOriginIsRefused) {
  // Two-factor authentication on: the password needs a code, a passkey does not.
  api().EnableTwoFactor(owner_);
  // An RSA key, as Windows Hello makes.
  const Authenticator key = Authenticator::Make(testing::kRs256);
  const Response foreign = Register(owner_, key, "packed", "Key", "https://evil.example");
  EXPECT_EQ(foreign.status, 400);
  EXPECT_EQ(foreign.ErrorCode(), "AUTH_013");
  const Response registered = Register(owner_, key, "packed", "Key");
  ASSERT_EQ(registered.status, 201) << registered.body;
  EXPECT_EQ(registered.Json().at("algorithm"), "RS256");
  EXPECT_TRUE(api().Login(email_, kOwnerPassword).Json().at("twoFactorRequired").as_bool());
  EXPECT_FALSE(AccessToken(SignIn(key, 1, UserId(owner_))).empty());
}

// An organization requiring two-factor authentication takes a passkey as the member's second
// factor: no setup token; the password sign-in completes with the passkey; the last one stays.
TEST_P(Passkeys, APasskeyMeetsAnOrganizationsTwoFactorRequirement) {
  const Authenticator key = Authenticator::Make(testing::kEs256);
  ASSERT_EQ(Register(owner_, key, "none", "Laptop").status, 201);
  const std::string passkey_id(
      api().Call("GET", "/users/me/passkeys", owner_).Json().at("passkeys").at(0).at("id").as_string());
  const std::string user_id = UserId(owner_);
  const Response required = api().Call("PATCH", "/" + org_, owner_, R"({"requireTwoFactor":true})");
  ASSERT_EQ(required.status, 200) << required.body;

  const Response first = api().Login(email_, kOwnerPassword);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_TRUE(first.Json().at("twoFactorRequired").as_bool()) << first.body;
  EXPECT_FALSE(first.Json().as_object().contains("twoFactorSetupRequired"));
  EXPECT_EQ(first.Json().at("twoFactorMethods"), json::value(json::array{"passkey"}));
  const Response second = SecondStep(first, key, 1, user_id);
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_FALSE(AccessToken(second).empty());
  EXPECT_FALSE(AccessToken(SignIn(key, 2, user_id)).empty()) << "the passkey alone suffices";

  const Response kept = api().Call("DELETE", "/users/me/passkeys/" + passkey_id, owner_);
  EXPECT_EQ(kept.status, 403);
  EXPECT_EQ(kept.ErrorCode(), "AUTH_011");
  EXPECT_EQ(kept.Json().at("error").at("details").at("organizations").at(0).at("slug"),
            json::value(org_));
}

INSTANTIATE_TEST_SUITE_P(Backends, Passkeys, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
