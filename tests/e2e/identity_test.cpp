// End-to-end: identity and access against the real binary on every available backend —
// sessions, invitations, roles and their live effect, key rules, tenant isolation, the audit
// log and rate limits (also across two processes sharing one store).
#include "harness.h"

#include "api_client.h"

#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <csignal>
#include <random>
#include <regex>
#include <thread>

namespace sightline::e2e {
namespace {

namespace json = boost::json;

void ExpectError(const Response& response, int status, const std::string& code) {
  EXPECT_EQ(response.status, status) << response.body;
  EXPECT_EQ(response.ErrorCode(), code) << response.body;
}
// A macro only so that failures point at the calling line.
#define EXPECT_ERROR(response, expected_status, expected_code) \
  do {                                                         \
    SCOPED_TRACE("expected " #expected_code);                  \
    ExpectError((response), (expected_status), (expected_code)); \
  } while (0)

class Identity : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("acme");
    owner_ = Bootstrap(GetParam(), org_, "Web");
    server_ = StartServer();
  }
  virtual std::unique_ptr<ServerProcess> StartServer() {
    return std::make_unique<ServerProcess>(GetParam(), ExtraArgs());
  }
  // Every test shares one store per backend, and with it the per-IP window of 127.0.0.1.
  virtual std::vector<std::string> ExtraArgs() { return {"--public-rate-limit", "100000"}; }

  ApiClient api() const { return ApiClient(*server_); }
  // The owner's session as the server answered it (tokens, user).
  json::object OwnerLogin() {
    const Response r = api().Login(owner_.owner_email, kOwnerPassword);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }
  std::string OwnerToken() { return api().SignIn(owner_.owner_email); }
  std::string Project() const { return owner_.ProjectPath(); }
  // `email` joins as `role`, invited by `owner_token`; that user's access token.
  std::string Join(const std::string& owner_token, const std::string& email,
                   const std::string& role) {
    return api().AddMember(org_, owner_token, email, role).access_token;
  }

  std::string org_;
  Credentials owner_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(Identity, LoginOpensASessionAndWrongCredentialsAreIndistinguishable) {
  const json::object auth = OwnerLogin();
  EXPECT_EQ(auth.at("tokenType").as_string(), "Bearer");
  EXPECT_EQ(auth.at("expiresIn").as_int64(), 900);
  EXPECT_TRUE(auth.at("refreshToken").as_string().starts_with("srt_"));
  const auto& orgs = auth.at("user").at("organizations").as_array();
  ASSERT_EQ(orgs.size(), 1u);
  EXPECT_EQ(orgs[0].at("slug").as_string(), org_);
  EXPECT_EQ(orgs[0].at("role").as_string(), "owner");

  const std::string wrong_password =
      R"({"email":")" + owner_.owner_email + R"(","password":"wrong horse"})";
  EXPECT_ERROR(api().Call("POST", "/auth/login", "", wrong_password), 401, "AUTH_006");
  EXPECT_ERROR(api().Call("POST", "/auth/login", "", R"({"email":"nobody@x.test","password":"x"})"),
               401, "AUTH_006");
  EXPECT_ERROR(api().Call("POST", "/auth/login", "", R"({"email":"a@b.c"})"), 400, "VAL_003");
  EXPECT_ERROR(api().Call("POST", "/auth/login", "", R"({"email":"a@b.c","password":7})"), 400,
               "VAL_003");
}

TEST_P(Identity, CurrentUserInAndOutOfAnOrganization) {
  const std::string token = OwnerToken();
  const Response me = api().Call("GET", "/users/me", token);
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(me.Json().at("email").as_string(), owner_.owner_email);
  const Response renamed =
      api().Call("PATCH", "/users/me", token, R"({"firstName":"Grace","lastName":"Hopper","x":1})");
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_EQ(renamed.Json().at("lastName").as_string(), "Hopper");
  EXPECT_ERROR(api().Call("PATCH", "/users/me", token, R"({"firstName":42})"), 400, "VAL_003");

  const Response in_org = api().Call("GET", "/" + org_ + "/users/me", token);
  ASSERT_EQ(in_org.status, 200) << in_org.body;
  EXPECT_EQ(in_org.Json().at("currentOrganizationRole").as_string(), "owner");
  EXPECT_EQ(in_org.Json().at("currentOrganization").at("slug").as_string(), org_);
  EXPECT_FALSE(in_org.Json().at("permissions").as_array().empty());

  const Credentials other = Bootstrap(GetParam(), Unique("globex"), "Shop");
  EXPECT_ERROR(api().Call("GET", "/" + other.org_slug + "/users/me", token), 404, "ORG_001");
  // A valid key is an accepted credential, forbidden on an operation only for users.
  EXPECT_ERROR(api().Call("GET", "/users/me", owner_.private_api_key), 403, "PERM_001");
}

TEST_P(Identity, RefreshRotatesAndAReusedTokenRevokesTheSession) {
  const json::object first = OwnerLogin();
  const std::string refresh1(first.at("refreshToken").as_string());
  const Response rotated =
      api().Call("POST", "/auth/refresh-token", "", R"({"refreshToken":")" + refresh1 + R"("})");
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  const std::string access2(rotated.Json().at("accessToken").as_string());
  EXPECT_NE(rotated.Json().at("refreshToken").as_string(), refresh1);
  EXPECT_EQ(api().Call("GET", "/users/me", access2).status, 200);
  // Replaying the used token: refused, and the whole session is revoked.
  EXPECT_ERROR(api().Call("POST", "/auth/refresh-token", "", R"({"refreshToken":")" + refresh1 + R"("})"),
               401, "AUTH_002");
  EXPECT_ERROR(api().Call("GET", "/users/me", access2), 401, "AUTH_002");
}

TEST_P(Identity, LogoutEndsTheSessionOnTheNextRequest) {
  const json::object auth = OwnerLogin();
  const std::string access(auth.at("accessToken").as_string());
  const std::string refresh(auth.at("refreshToken").as_string());
  ASSERT_EQ(api().Call("GET", "/users/me", access).status, 200);
  EXPECT_EQ(api().Call("POST", "/auth/logout", "", R"({"refreshToken":")" + refresh + R"("})").status, 204);
  EXPECT_ERROR(api().Call("GET", "/users/me", access), 401, "AUTH_002");
  EXPECT_ERROR(api().Call("GET", "/users/me", access.substr(0, access.size() - 2) + "xx"), 401,
               "AUTH_002");
  EXPECT_ERROR(api().Call("GET", "/users/me", "a.b.c"), 401, "AUTH_001");
}

TEST_P(Identity, AnAnalystReadsButCannotCreateKeysOrChangeSettings) {
  const std::string owner = OwnerToken();
  const std::string analyst = Join(owner, Unique("ana") + "@example.test", "analyst");
  const Response me = api().Call("GET", "/" + org_ + "/users/me", analyst);
  EXPECT_EQ(me.Json().at("currentOrganizationRole").as_string(), "analyst");
  EXPECT_EQ(api().Call("GET", Project(), analyst).status, 200);
  EXPECT_EQ(api().Call("GET", "/" + org_ + "/members", analyst).status, 200);
  EXPECT_ERROR(api().Call("POST", Project() + "/sdk-keys", analyst, R"({"name":"x"})"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("POST", Project() + "/private-api-keys", analyst, "{}"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("PATCH", Project(), analyst, R"({"ipLogging":true})"), 403, "PERM_001");
  // Retrying a 403 never helps.
  EXPECT_ERROR(api().Call("PATCH", Project(), analyst, R"({"ipLogging":true})"), 403, "PERM_001");
}

TEST_P(Identity, ADemotedUserAndTheirKeyAreRefusedOnTheVeryNextRequest) {
  const std::string owner = OwnerToken();
  const std::string email = Unique("dev") + "@example.test";
  const std::string developer = Join(owner, email, "developer");
  const Response key = api().Call("POST", Project() + "/private-api-keys", developer, R"({"name":"ci"})");
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string secret(key.Json().at("key").as_string());
  EXPECT_TRUE(secret.starts_with("sk_service_"));
  EXPECT_EQ(api().Call("PATCH", Project(), developer, R"({"botDetection":false})").status, 200);
  EXPECT_EQ(api().Call("PATCH", Project(), secret, R"({"botDetection":true})").status, 200);

  const json::value members = api().Call("GET", "/" + org_ + "/members", owner).Json();
  std::string user_id;
  for (const auto& m : members.at("members").as_array()) {
    if (m.at("email").as_string() == email) user_id = std::string(m.at("userId").as_string());
  }
  ASSERT_FALSE(user_id.empty());
  ASSERT_EQ(api().Call("PATCH", "/" + org_ + "/members/" + user_id, owner, R"({"role":"analyst"})").status,
            200);
  EXPECT_ERROR(api().Call("PATCH", Project(), developer, R"({"botDetection":false})"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("PATCH", Project(), secret, R"({"botDetection":false})"), 403, "PERM_001");
  // Removed entirely: the organization disappears for them (404), the key holds nothing (403).
  ASSERT_EQ(api().Call("DELETE", "/" + org_ + "/members/" + user_id, owner).status, 204);
  EXPECT_ERROR(api().Call("GET", Project(), developer), 404, "ORG_001");
  EXPECT_ERROR(api().Call("GET", Project(), secret), 403, "PERM_001");
}

TEST_P(Identity, PrivateKeysNeverManageCredentials) {
  const std::string key = owner_.private_api_key;
  EXPECT_ERROR(api().Call("POST", Project() + "/sdk-keys", key, R"({"name":"x"})"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("POST", Project() + "/private-api-keys", key, "{}"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("GET", Project() + "/private-api-keys", key), 403, "PERM_001");
  EXPECT_ERROR(api().Call("DELETE", Project() + "/sdk-keys/anything", key), 403, "PERM_001");
}

TEST_P(Identity, KeysAreShownOnceListedWithoutSecretsAndRevokedImmediately) {
  const std::string owner = OwnerToken();
  const Response created = api().Call("POST", Project() + "/private-api-keys", owner, R"({"name":"etl"})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.Json().at("id").as_string());
  const std::string secret(created.Json().at("key").as_string());
  const Response listed = api().Call("GET", Project() + "/private-api-keys", owner);
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body.find(secret), std::string::npos) << "a secret in a listing";
  EXPECT_NE(listed.body.find(id), std::string::npos);
  EXPECT_EQ(api().Call("GET", Project(), secret).status, 200);
  EXPECT_EQ(api().Call("DELETE", Project() + "/private-api-keys/" + id, owner).status, 204);
  EXPECT_ERROR(api().Call("GET", Project(), secret), 401, "AUTH_002");
  EXPECT_ERROR(api().Call("DELETE", Project() + "/sdk-keys/" + id, owner), 404, "REQ_004");

  const Response sdk = api().Call("POST", Project() + "/sdk-keys", owner, "{}");
  ASSERT_EQ(sdk.status, 201) << sdk.body;
  EXPECT_TRUE(sdk.Json().at("key").as_string().starts_with("pk_service_"));
}

TEST_P(Identity, OtherOrganizationsAreInvisible) {
  const std::string owner = OwnerToken();
  const Credentials other = Bootstrap(GetParam(), Unique("globex"), "Shop");
  EXPECT_ERROR(api().Call("GET", "/" + other.org_slug + "/projects", owner), 404, "ORG_001");
  EXPECT_ERROR(api().Call("GET", "/" + other.org_slug + "/members", owner), 404, "ORG_001");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/projects/" + other.project_id, owner), 404,
               "PROJECT_001");
  EXPECT_ERROR(api().Call("DELETE", "/" + other.org_slug, owner), 404, "ORG_001");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/projects", other.private_api_key), 404, "ORG_001");
}

TEST_P(Identity, ConflictsAndInvalidInputNameTheField) {
  const std::string owner = OwnerToken();
  const std::string slug = Unique("initech");
  ASSERT_EQ(api().Call("POST", "/organizations", owner, R"({"name":"Initech","slug":")" + slug + R"("})")
                .status,
            201);
  const Response taken =
      api().Call("POST", "/organizations", owner, R"({"name":"Again","slug":")" + slug + R"("})");
  EXPECT_ERROR(taken, 409, "ORG_002");
  EXPECT_EQ(taken.Json().at("error").at("details").at("field").as_string(), "slug");
  EXPECT_ERROR(api().Call("POST", "/organizations", owner, R"({"name":"X","slug":"api"})"), 409, "ORG_002");
  EXPECT_ERROR(api().Call("POST", "/organizations", owner, R"({"name":"X","slug":"Bad Slug"})"), 400,
               "VAL_003");
  EXPECT_ERROR(api().Call("POST", "/organizations", owner, R"({"slug":"noname"})"), 400, "VAL_003");

  const Response duplicate = api().Call("POST", "/" + org_ + "/projects", owner, R"({"name":"Web"})");
  EXPECT_ERROR(duplicate, 409, "PROJECT_002");
  EXPECT_EQ(duplicate.Json().at("error").at("details").at("field").as_string(), "name");
  const Response zone =
      api().Call("POST", "/" + org_ + "/projects", owner, R"({"name":"Blog","reportingTimezone":"Nowhere/City"})");
  EXPECT_ERROR(zone, 400, "VAL_003");
  EXPECT_EQ(zone.Json().at("error").at("details").at("field").as_string(), "reportingTimezone");
  const Response created = api().Call("POST", "/" + org_ + "/projects", owner,
                                R"({"name":"Blog","reportingTimezone":"Asia/Kolkata"})");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(api().Call("GET", "/" + org_ + "/projects", owner).Json().at("projects").as_array().size(), 2u);
  const std::string blog(created.Json().at("id").as_string());
  EXPECT_EQ(api().Call("DELETE", "/" + org_ + "/projects/" + blog, owner).status, 204);
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/projects/" + blog, owner), 404, "PROJECT_001");
}

TEST_P(Identity, TheLastOwnerStaysAndOnlyOwnersGrantOwner) {
  const std::string owner = OwnerToken();
  const std::string me(api().Call("GET", "/users/me", owner).Json().at("id").as_string());
  EXPECT_ERROR(api().Call("PATCH", "/" + org_ + "/members/" + me, owner, R"({"role":"admin"})"), 409,
               "ORG_003");
  EXPECT_ERROR(api().Call("DELETE", "/" + org_ + "/members/" + me, owner), 409, "ORG_003");
  const std::string admin = Join(owner, Unique("adm") + "@example.test", "admin");
  EXPECT_ERROR(api().Call("POST", "/" + org_ + "/invitations", admin,
                    R"({"email":"boss@example.test","role":"owner"})"),
               403, "PERM_001");
  EXPECT_ERROR(api().Call("PATCH", "/" + org_ + "/members/" + me, admin, R"({"role":"analyst"})"), 403,
               "PERM_001");
  EXPECT_ERROR(api().Call("DELETE", "/" + org_, admin), 403, "PERM_001");
}

TEST_P(Identity, InvitationsAreSingleUseAndRevocable) {
  const std::string owner = OwnerToken();
  const Response invited = api().Call("POST", "/" + org_ + "/invitations", owner,
                                R"({"email":"Sam@Example.test","role":"support"})");
  ASSERT_EQ(invited.status, 201) << invited.body;
  EXPECT_EQ(invited.Json().at("email").as_string(), "sam@example.test");
  EXPECT_EQ(invited.Json().at("status").as_string(), "pending");
  const std::string token(invited.Json().at("token").as_string());
  const std::string accept = R"({"token":")" + token + R"(","password":"sam's password"})";
  ASSERT_EQ(api().Call("POST", "/invitations/accept", "", accept).status, 200);
  EXPECT_ERROR(api().Call("POST", "/invitations/accept", "", accept), 409, "ORG_005");
  EXPECT_ERROR(api().Call("POST", "/invitations/accept", "",
                    R"({"token":"inv_nope","password":"whatever1"})"),
               404, "REQ_004");
  EXPECT_ERROR(api().Call("POST", "/" + org_ + "/invitations", owner,
                    R"({"email":"sam@example.test","role":"analyst"})"),
               409, "ORG_004");

  const Response second = api().Call("POST", "/" + org_ + "/invitations", owner,
                               R"({"email":"kim@example.test","role":"analyst"})");
  const std::string id(second.Json().at("id").as_string());
  EXPECT_EQ(api().Call("DELETE", "/" + org_ + "/invitations/" + id, owner).status, 204);
  EXPECT_ERROR(api().Call("DELETE", "/" + org_ + "/invitations/" + id, owner), 409, "ORG_005");
  const std::string kim_token(second.Json().at("token").as_string());
  EXPECT_ERROR(api().Call("POST", "/invitations/accept", "",
                    R"({"token":")" + kim_token + R"(","password":"kim's password"})"),
               409, "ORG_005");
  const auto listed = api().Call("GET", "/" + org_ + "/invitations", owner).Json().at("invitations");
  ASSERT_EQ(listed.as_array().size(), 2u);
  EXPECT_EQ(listed.as_array()[0].at("status").as_string(), "revoked");
  EXPECT_EQ(listed.as_array()[1].at("status").as_string(), "accepted");
}

TEST_P(Identity, EveryChangeIsInTheAuditLogWithItsRequestId) {
  const std::string owner = OwnerToken();
  const Response changed = api().Call("PATCH", Project(), owner, R"({"reportingTimezone":"Europe/Berlin"})");
  ASSERT_EQ(changed.status, 200);
  api().Call("POST", Project() + "/sdk-keys", owner, R"({"name":"site"})");
  api().Call("POST", "/" + org_ + "/invitations", owner, R"({"email":"x@example.test","role":"analyst"})");

  const Response log = api().Call("GET", "/" + org_ + "/audit-log", owner);
  ASSERT_EQ(log.status, 200) << log.body;
  const json::value log_json = log.Json();
  const auto& entries = log_json.at("entries").as_array();
  ASSERT_GE(entries.size(), 3u);
  EXPECT_EQ(entries[0].at("action").as_string(), "invitation.create");
  EXPECT_EQ(entries[1].at("action").as_string(), "sdk_key.create");
  const auto& update = entries[2];
  EXPECT_EQ(update.at("action").as_string(), "project.update");
  EXPECT_EQ(update.at("requestId").as_string(), changed.Header("x-request-id"));
  EXPECT_EQ(update.at("actor").at("credentialKind").as_string(), "user_session");
  EXPECT_EQ(update.at("details").at("reportingTimezone").as_string(), "Europe/Berlin");

  const Response filtered = api().Call("GET", "/" + org_ + "/audit-log?action=project.update", owner);
  EXPECT_EQ(filtered.Json().at("entries").as_array().size(), 1u);
  const Response page1 = api().Call("GET", "/" + org_ + "/audit-log?limit=2", owner);
  ASSERT_EQ(page1.Json().at("entries").as_array().size(), 2u);
  const std::string cursor(page1.Json().at("nextCursor").as_string());
  const Response page2 = api().Call("GET", "/" + org_ + "/audit-log?limit=2&cursor=" + cursor, owner);
  ASSERT_EQ(page2.status, 200) << page2.body;
  EXPECT_EQ(page2.Json().at("entries").as_array()[0].at("action").as_string(), "project.update");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/audit-log?limit=0", owner), 400, "VAL_003");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/audit-log?from=yesterday", owner), 400, "VAL_003");
}

TEST_P(Identity, AnOrganizationRequiringTwoFactorGivesOnlyASetupToken) {
  const std::string owner = OwnerToken();
  ASSERT_EQ(api().Call("PATCH", "/" + org_, owner, R"({"requireTwoFactor":true})").status, 200);
  const json::object login = OwnerLogin();
  EXPECT_TRUE(login.at("twoFactorSetupRequired").as_bool());
  EXPECT_FALSE(login.contains("accessToken"));
  const std::string setup(login.at("setupToken").as_string());
  EXPECT_ERROR(api().Call("GET", "/users/me", setup), 401, "AUTH_005");
}

TEST_P(Identity, RolesAreListedWithTheirPermissions) {
  const Response roles = api().Call("GET", "/" + org_ + "/roles", OwnerToken());
  ASSERT_EQ(roles.status, 200);
  EXPECT_EQ(roles.Json().at("roles").as_array().size(), 5u);
}

TEST_P(Identity, DeletingAnOrganizationTakesItsProjectsAndKeys) {
  const std::string owner = OwnerToken();
  ASSERT_EQ(api().Call("DELETE", "/" + org_, owner).status, 204);
  EXPECT_ERROR(api().Call("GET", Project(), owner_.private_api_key), 401, "AUTH_002");
  EXPECT_TRUE(api().Call("GET", "/organizations", owner).Json().at("organizations").as_array().empty());
}

TEST_P(Identity, AKeyNeverReachesBeyondItsProject) {
  const std::string key = owner_.private_api_key;
  EXPECT_ERROR(api().Call("POST", "/" + org_ + "/invitations", key,
                    R"({"email":"attacker@evil.test","role":"admin"})"),
               403, "PERM_001");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/members", key), 403, "PERM_001");
  EXPECT_ERROR(api().Call("PATCH", "/" + org_, key, R"({"requireTwoFactor":true})"), 403, "PERM_001");
  EXPECT_ERROR(api().Call("GET", "/" + org_ + "/audit-log", key), 403, "PERM_001");
  EXPECT_ERROR(api().Call("POST", "/" + org_ + "/projects", key, R"({"name":"Other"})"), 403, "PERM_001");
  EXPECT_EQ(api().Call("GET", Project(), key).status, 200);
}

TEST_P(Identity, EverySignInPathHonoursARequiredSecondFactor) {
  const std::string owner = OwnerToken();
  const json::object before = OwnerLogin();  // a session from before
  const std::string refresh(before.at("refreshToken").as_string());
  const Response invited = api().Call("POST", "/" + org_ + "/invitations", owner,
                                R"({"email":"new@example.test","role":"analyst"})");
  ASSERT_EQ(invited.status, 201);
  ASSERT_EQ(api().Call("PATCH", "/" + org_, owner, R"({"requireTwoFactor":true})").status, 200);
  const Response accepted =
      api().Call("POST", "/invitations/accept", "",
           R"({"token":")" + std::string(invited.Json().at("token").as_string()) +
               R"(","password":"new person pw"})");
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_TRUE(accepted.Json().at("twoFactorSetupRequired").as_bool());
  EXPECT_FALSE(accepted.Json().as_object().contains("accessToken"));
  EXPECT_ERROR(api().Call("POST", "/auth/refresh-token", "", R"({"refreshToken":")" + refresh + R"("})"),
               401, "AUTH_002");
}

TEST_P(Identity, AuditDetailsKeepOnlyTheKnownSettings) {
  const std::string owner = OwnerToken();
  ASSERT_EQ(api().Call("PATCH", Project(), owner, R"({"ipLogging":true,"junk":"x"})").status, 200);
  const json::value log = api().Call("GET", "/" + org_ + "/audit-log?action=project.update", owner).Json();
  const auto& details = log.at("entries").as_array().at(0).at("details").as_object();
  EXPECT_TRUE(details.contains("ipLogging"));
  EXPECT_FALSE(details.contains("junk"));
}

TEST_P(Identity, ConcurrentDemotionsNeverLeaveAnOrganizationWithoutAnOwner) {
  const std::string first = OwnerToken();
  const std::string second = Join(first, Unique("co") + "@example.test", "owner");
  auto my_id = [&](const std::string& token) {
    return std::string(api().Call("GET", "/users/me", token).Json().at("id").as_string());
  };
  const std::string first_id = my_id(first), second_id = my_id(second);
  for (int round = 0; round < 3; ++round) {
    Response a, b;
    std::thread t1([&] {
      a = api().Call("PATCH", "/" + org_ + "/members/" + first_id, first, R"({"role":"admin"})");
    });
    std::thread t2([&] {
      b = api().Call("PATCH", "/" + org_ + "/members/" + second_id, second, R"({"role":"admin"})");
    });
    t1.join();
    t2.join();
    EXPECT_FALSE(a.status == 200 && b.status == 200) << "both owners demoted themselves";
    // Whoever is still owner promotes the other back for the next round.
    const std::string& owner = a.status == 200 ? second : first;
    const std::string& demoted_id = a.status == 200 ? first_id : second_id;
    if (a.status == 200 || b.status == 200) {
      ASSERT_EQ(api().Call("PATCH", "/" + org_ + "/members/" + demoted_id, owner, R"({"role":"owner"})")
                    .status,
                200);
    }
  }
}

// A password change proves the current password, ends the user's other sessions at once and
// keeps the one that asked; the old password stops working.
TEST_P(Identity, ChangingThePasswordEndsTheOtherSessions) {
  const std::string other_user = Unique("pw") + "@acme.test";
  const std::string owner_token = OwnerToken();
  const std::string asking = Join(owner_token, other_user, "analyst");
  const std::string elsewhere = api().SignIn(other_user, kMemberPassword);
  auto change = [&](const std::string& current, const std::string& next) {
    return api().Call("POST", "/users/me/password", asking,
                      json::serialize(json::object{{"currentPassword", current},
                                                   {"newPassword", next}}));
  };
  EXPECT_ERROR(change("wrong password", "a new password"), 400, "AUTH_012");
  EXPECT_ERROR(change(kMemberPassword, "short"), 400, "VAL_003");
  EXPECT_EQ(api().Call("GET", "/users/me", elsewhere).status, 200) << "nothing changed yet";
  ASSERT_EQ(change(kMemberPassword, "a new password").status, 204);
  EXPECT_EQ(api().Call("GET", "/users/me", asking).status, 200);
  EXPECT_ERROR(api().Call("GET", "/users/me", elsewhere), 401, "AUTH_002");
  EXPECT_ERROR(api().Login(other_user, kMemberPassword), 401, "AUTH_006");
  EXPECT_EQ(api().Login(other_user, "a new password").status, 200);
  // Keys and MCP grants cannot change a password: it is the signed-in user's own act.
  EXPECT_ERROR(api().Call("POST", "/users/me/password", owner_.private_api_key,
                          R"({"currentPassword":"x","newPassword":"yyyyyyyy"})"),
               403, "PERM_001");
}

INSTANTIATE_TEST_SUITE_P(Backends, Identity, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

// ---- Rate limits ---------------------------------------------------------------------------

// Each test's servers run in a minute of their own (FreshMinute), so its window is fresh.
class RateLimits : public Identity {
 protected:
  std::vector<std::string> ExtraArgs() override {
    return {"--rate-limit", "5", "--public-rate-limit", "3"};
  }
  std::unique_ptr<ServerProcess> StartServer() override {
    return minute_.Start(GetParam(), ExtraArgs());
  }
  const FreshMinute minute_;
};

TEST_P(RateLimits, ACredentialGetsItsQuotaThen429WithRetryAfter) {
  for (int i = 1; i <= 5; ++i) {
    const Response r = server_->Request("GET", Project(), Bearer(owner_.private_api_key));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Header("ratelimit-policy"), "\"per-minute\";q=5;w=60");
    EXPECT_EQ(r.Header("x-ratelimit-limit"), "5");
    EXPECT_EQ(r.Header("x-ratelimit-remaining"), std::to_string(5 - i));
    EXPECT_TRUE(std::regex_match(r.Header("ratelimit"),
                                 std::regex("\"per-minute\";r=" + std::to_string(5 - i) + ";t=\\d+")));
  }
  const Response limited = server_->Request("GET", Project(), Bearer(owner_.private_api_key));
  EXPECT_ERROR(limited, 429, "AUTH_014");
  const int retry = std::stoi(limited.Header("retry-after"));
  EXPECT_GE(retry, 1);
  EXPECT_LE(retry, 60);
  EXPECT_EQ(limited.Json().at("error").at("details").at("retryAfterSeconds").as_int64(), retry);
  EXPECT_EQ(limited.Header("x-ratelimit-remaining"), "0");
  // Another credential has its own window.
  const Credentials other = Bootstrap(GetParam(), Unique("globex"), "Shop");
  EXPECT_EQ(server_->Request("GET", "/" + other.org_slug + "/projects/" + other.project_id,
                             Bearer(other.private_api_key))
                .status,
            200);
}

TEST_P(RateLimits, AnonymousOperationsAreLimitedPerClientIp) {
  // 127.0.0.1's window in this minute is the test's own: three attempts, then 429.
  const std::string bad = R"({"email":"nobody@example.test","password":"guess"})";
  for (int i = 1; i <= 3; ++i) {
    const Response answer = api().Call("POST", "/auth/login", "", bad);
    EXPECT_ERROR(answer, 401, "AUTH_006");
    EXPECT_EQ(answer.Header("ratelimit-policy"), "\"per-minute-per-ip\";q=3;w=60");
    EXPECT_EQ(answer.Header("x-ratelimit-remaining"), std::to_string(3 - i));
  }
  const Response limited = api().Call("POST", "/auth/login", "", bad);
  EXPECT_ERROR(limited, 429, "AUTH_014");
  EXPECT_FALSE(limited.Header("retry-after").empty());
}

TEST_P(RateLimits, BehindATrustedProxyEachVisitorHasItsOwnWindow) {
  const auto server = minute_.Start(GetParam(), {"--public-rate-limit", "3", "--trusted-proxies", "127.0.0.1"});
  ServerProcess& proxied = *server;
  static std::mt19937 rng{std::random_device{}()};
  const std::string subnet = "198.51." + std::to_string(rng() % 250) + ".";
  const std::string bad = R"({"email":"nobody@example.test","password":"guess"})";
  auto attempt = [&](const std::string& ip) {
    return proxied.Request("POST", "/auth/login",
                           {{"Content-Type", "application/json"}, {"X-Forwarded-For", ip}}, bad);
  };
  for (int i = 1; i <= 4; ++i) {  // four visitors, one attempt each: nobody is limited
    EXPECT_ERROR(attempt(subnet + std::to_string(i)), 401, "AUTH_006");
  }
  const std::string one = subnet + "200";
  for (int i = 0; i < 3; ++i) EXPECT_ERROR(attempt(one), 401, "AUTH_006");
  EXPECT_ERROR(attempt(one), 429, "AUTH_014");
}

TEST_P(RateLimits, TheWindowIsSharedByEveryProcessOnTheStore) {
  const auto other = minute_.Start(GetParam(), ExtraArgs());
  ServerProcess& second = *other;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(server_->Request("GET", Project(), Bearer(owner_.private_api_key)).status, 200);
  }
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(second.Request("GET", Project(), Bearer(owner_.private_api_key)).status, 200);
  }
  EXPECT_ERROR(second.Request("GET", Project(), Bearer(owner_.private_api_key)), 429, "AUTH_014");
  EXPECT_ERROR(server_->Request("GET", Project(), Bearer(owner_.private_api_key)), 429,
               "AUTH_014");
}

INSTANTIATE_TEST_SUITE_P(Backends, RateLimits, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
