// End-to-end: command-line logins (/auth/cli/sessions, the RFC 8628 device flow) against the
// real binary on every backend — start, the pending and slow-down answers, the lookup by code
// and its throttle, approval with a narrower consent, the tokens collected once, consent ∩ role
// on REST, refresh at the OAuth token endpoint, revocation at the next request, deny, expiry,
// and the audit log. The dashboard's approval page and the CLI itself are driven in
// tests/interop.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <thread>

#include "api_client.h"
#include "core/http_types.h"
#include "harness.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

std::string ErrorCode(const Response& r) {
  return std::string(r.Json().at("error").at("code").as_string());
}

struct Started {
  std::string id, device_code, user_code;
};

class CliLogin : public BackendTest {
 protected:
  void Start(std::vector<std::string> extra = {}) {
    creds_ = Bootstrap(GetParam(), Unique("cli"), "Site");
    server_ = std::make_unique<ServerProcess>(GetParam(), std::move(extra));
    owner_ = api().SignIn(creds_.owner_email);
    ASSERT_FALSE(owner_.empty());
  }
  void SetUp() override {     BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
Start(); }
  ApiClient api() const { return ApiClient(*server_); }

  Started StartLogin(const std::string& body =
                         R"({"clientName":"sightline 1.0","hostname":"build-box","os":"linux",)"
                         R"("permissions":["analytics.view","project.view"]})") {
    const Response r = api().Call("POST", "/auth/cli/sessions", "", body);
    EXPECT_EQ(r.status, 201) << r.body;
    const json::object answer = r.Json().as_object();
    return {std::string(answer.at("id").as_string()),
            std::string(answer.at("deviceCode").as_string()),
            std::string(answer.at("userCode").as_string())};
  }
  Response Poll(const Started& login) {
    return api().Call("POST", "/auth/cli/sessions/" + login.id + "/token", "",
                      R"({"deviceCode":")" + login.device_code + R"("})");
  }
  Response Approve(const Started& login, const std::string& permissions,
                   const std::string& session = "") {
    return api().Call("POST", "/auth/cli/sessions/" + login.id + "/approve",
                      session.empty() ? owner_ : session,
                      R"({"userCode":")" + login.user_code + R"(","organization":")" +
                          creds_.org_slug + R"(","projectId":")" + creds_.project_id + "\"" +
                          permissions + "}");
  }

  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
  std::string owner_;
};

TEST_P(CliLogin, ApprovedWithANarrowerConsentTheCliActsWithinIt) {
  const Response started = api().Call(
      "POST", "/auth/cli/sessions", "",
      R"({"clientName":"sightline 1.0","hostname":"build-box","os":"linux"})");
  ASSERT_EQ(started.status, 201) << started.body;
  const json::object s = started.Json().as_object();
  EXPECT_EQ(s.at("expiresIn").as_int64(), 600);
  EXPECT_EQ(s.at("interval").as_int64(), 5);
  const std::string user_code(s.at("userCode").as_string());
  ASSERT_EQ(user_code.size(), 9u);
  EXPECT_EQ(user_code[4], '-');
  EXPECT_EQ(user_code.find_first_of("AEIOUY0123456789"), std::string::npos) << user_code;
  EXPECT_TRUE(s.at("verificationUri").as_string().ends_with("/cli"));
  EXPECT_TRUE(s.at("verificationUriComplete").as_string().ends_with("/cli?code=" + user_code));
  const Started login{std::string(s.at("id").as_string()),
                      std::string(s.at("deviceCode").as_string()), user_code};

  // Not approved yet; polling again at once is too fast and the interval grows by 5 s.
  const Response pending = Poll(login);
  EXPECT_EQ(pending.status, 400);
  EXPECT_EQ(ErrorCode(pending), "OAUTH_012");
  const Response fast = Poll(login);
  EXPECT_EQ(ErrorCode(fast), "OAUTH_013");
  EXPECT_EQ(fast.Json().at("error").at("details").at("interval").as_int64(), 10);

  // The page looks the code up as typed (lower case, no dash) and shows who asks.
  std::string typed = user_code.substr(0, 4) + user_code.substr(5);
  for (char& c : typed) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const Response lookup =
      api().Call("GET", "/auth/cli/sessions/lookup?userCode=" + typed, owner_);
  ASSERT_EQ(lookup.status, 200) << lookup.body;
  const json::object shown = lookup.Json().as_object();
  EXPECT_EQ(shown.at("id").as_string(), login.id);
  EXPECT_EQ(shown.at("userCode").as_string(), user_code);
  EXPECT_EQ(shown.at("clientName").as_string(), "sightline 1.0");
  EXPECT_EQ(shown.at("hostname").as_string(), "build-box");
  EXPECT_EQ(shown.at("ip").as_string(), "127.0.0.1");
  EXPECT_TRUE(shown.at("requestedPermissions").as_array().empty());
  ASSERT_EQ(shown.at("organizations").as_array().size(), 1u);
  const json::object org = shown.at("organizations").at(0).as_object();
  EXPECT_EQ(org.at("slug").as_string(), creds_.org_slug);
  EXPECT_EQ(org.at("projects").at(0).at("id").as_string(), creds_.project_id);
  for (const json::value& name : org.at("permissions").as_array()) {
    EXPECT_NE(name.as_string(), "account.manage") << "account settings stay with the browser";
  }

  const Response approved = Approve(login, R"(,"permissions":["analytics.view"])");
  ASSERT_EQ(approved.status, 200) << approved.body;
  EXPECT_EQ(approved.Json().at("status").as_string(), "approved");
  EXPECT_EQ(api().Call("GET", "/auth/cli/sessions/lookup?userCode=" + user_code, owner_).status,
            404)
      << "a code works once";

  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const Response tokens = Poll(login);
  ASSERT_EQ(tokens.status, 200) << tokens.body;
  const json::object t = tokens.Json().as_object();
  const std::string access(t.at("accessToken").as_string());
  const std::string refresh(t.at("refreshToken").as_string());
  EXPECT_TRUE(access.starts_with("cli_at_"));
  EXPECT_TRUE(refresh.starts_with("cli_rt_"));
  EXPECT_EQ(json::serialize(t.at("permissions")), R"(["analytics.view"])");
  EXPECT_EQ(t.at("organization").at("slug").as_string(), creds_.org_slug);
  EXPECT_EQ(t.at("projectId").as_string(), creds_.project_id);
  EXPECT_EQ(ErrorCode(Poll(login)), "OAUTH_003") << "the tokens go out once";

  // Within the consent: the project's reports. Outside it: 403, and never /api/mcp.
  EXPECT_EQ(api().Call("GET", "/web-analytics", access).status, 200);
  const Response key = api().Call("POST", creds_.ProjectPath() + "/sdk-keys", access,
                                  R"({"name":"from the cli"})");
  EXPECT_EQ(key.status, 403) << key.body;
  EXPECT_EQ(ErrorCode(key), "PERM_001");
  EXPECT_EQ(api().Call("GET", "/users/me/mcp-clients", access).status, 403);
  EXPECT_EQ(api().Call("POST", "/mcp", access, R"({"jsonrpc":"2.0","id":1,"method":"ping"})")
                .status,
            401);

  // The refresh token rotates at the OAuth token endpoint, as the built-in public client.
  const Response refreshed = server_->Request(
      "POST", "/oauth/token", {{"Content-Type", "application/x-www-form-urlencoded"}},
      "grant_type=refresh_token&client_id=sightline-cli&refresh_token=" + refresh);
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  const std::string renewed(refreshed.Json().at("access_token").as_string());
  EXPECT_TRUE(renewed.starts_with("cli_at_"));
  EXPECT_EQ(api().Call("GET", "/web-analytics", renewed).status, 200);

  // The user sees the session and revokes it: the next request is refused.
  const Response listed = api().Call("GET", "/users/me/cli-sessions", owner_);
  ASSERT_EQ(listed.status, 200) << listed.body;
  const json::value listing = listed.Json();
  const json::array& sessions = listing.at("sessions").as_array();
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].at("id").as_string(), login.id);
  EXPECT_EQ(sessions[0].at("clientName").as_string(), "sightline 1.0");
  EXPECT_EQ(sessions[0].at("lastUsedIp").as_string(), "127.0.0.1");
  EXPECT_EQ(json::serialize(sessions[0].at("permissions")), R"(["analytics.view"])");
  EXPECT_EQ(api().Call("GET", "/users/me/cli-sessions", renewed).status, 403)
      << "a CLI token does not manage the account";
  EXPECT_EQ(api().Call("DELETE", "/users/me/cli-sessions/" + login.id, owner_).status, 204);
  EXPECT_EQ(api().Call("GET", "/web-analytics", renewed).status, 401);
  EXPECT_EQ(api().Call("DELETE", "/users/me/cli-sessions/" + login.id, owner_).status, 404);

  const Response log = api().Call("GET", "/" + creds_.org_slug + "/audit-log", owner_);
  ASSERT_EQ(log.status, 200) << log.body;
  EXPECT_NE(log.body.find("cli_session.approve"), std::string::npos) << log.body;
  EXPECT_NE(log.body.find("cli_session.revoke"), std::string::npos);
}

TEST_P(CliLogin, DeniedLoginsAndWrongCodes) {
  const Started login = StartLogin();
  const Response denied =
      api().Call("POST", "/auth/cli/sessions/" + login.id + "/deny", owner_,
                 R"({"userCode":")" + login.user_code + R"("})");
  ASSERT_EQ(denied.status, 200) << denied.body;
  const Response polled = Poll(login);
  EXPECT_EQ(polled.status, 403);
  EXPECT_EQ(ErrorCode(polled), "OAUTH_014");
  EXPECT_EQ(ErrorCode(Approve(login, "")), "CLI_001") << "a denied code cannot be approved";

  // The approval needs the code the terminal shows, not only the id.
  const Started other = StartLogin();
  Started wrong = other;
  wrong.user_code = other.user_code == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB";
  EXPECT_EQ(Approve(wrong, "").status, 404);
  EXPECT_EQ(ErrorCode(Poll({other.id, "cli_dc_forged", ""})), "OAUTH_003");

  // Permissions beyond the role: an analyst cannot hand out project management.
  const Member viewer = api().AddMember(creds_.org_slug, owner_, Unique("v") + "@example.com",
                                        "analyst");
  const Response beyond =
      Approve(other, R"(,"permissions":["analytics.view","project.manage"])",
              viewer.access_token);
  EXPECT_EQ(beyond.status, 403) << beyond.body;
  EXPECT_EQ(ErrorCode(beyond), "PERM_001");

  // Bad requests.
  EXPECT_EQ(api().Call("POST", "/auth/cli/sessions", "", R"({"hostname":"x"})").status, 400);
  const Response unknown = api().Call("POST", "/auth/cli/sessions", "",
                                      R"({"clientName":"x","permissions":["fly"]})");
  EXPECT_EQ(ErrorCode(unknown), "VAL_003");
  EXPECT_EQ(api().Call("GET", "/auth/cli/sessions/lookup?userCode=BBBB-BBBB", "").status, 401);

  // Guessing codes is throttled per user: ten wrong ones, then 429 even for the right one.
  for (int i = 0; i < 10; ++i) {
    const std::string guess = std::string("BCDF-GHJ") + "KLMNPQRSTV"[i];
    if (guess == other.user_code) continue;
    EXPECT_EQ(api().Call("GET", "/auth/cli/sessions/lookup?userCode=" + guess, owner_).status,
              404);
  }
  const Response limited =
      api().Call("GET", "/auth/cli/sessions/lookup?userCode=" + other.user_code, owner_);
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_EQ(ErrorCode(limited), "AUTH_014");
}

TEST_P(CliLogin, ALoginNotApprovedInTimeExpires) {
  server_.reset();
  Start({"--cli-login-ttl", "1"});
  const Started login = StartLogin();
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const Response expired = Poll(login);
  EXPECT_EQ(expired.status, 400);
  EXPECT_EQ(ErrorCode(expired), "OAUTH_015");
  EXPECT_EQ(ErrorCode(Approve(login, "")), "CLI_001");
}

INSTANTIATE_TEST_SUITE_P(Backends, CliLogin, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
