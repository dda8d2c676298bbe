// End-to-end: the OAuth 2.1 authorization server of /mcp against the real binary on every
// backend — metadata, dynamic registration, the authorization endpoint's checks and pages
// (driven here over plain HTTP with the page's own forms and cookies), codes, tokens, refresh
// rotation, revocation, consent ∩ live role on /mcp, and the refusals. A real browser and the
// official SDK client drive the same flow in tests/interop.
#include <gtest/gtest.h>

#include <chrono>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fstream>
#include <thread>

#include "core/crypto.h"
#include "api_client.h"
#include "core/http_types.h"
#include "harness.h"
#include "loopback_services.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

constexpr char kRedirect[] = "http://127.0.0.1:4567/callback";

std::string Form(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out += '&';
    out += core::PercentEncode(name) + "=" + core::PercentEncode(value);
  }
  return out;
}

// The query parameters of a redirect's Location.
std::map<std::string, std::string> QueryOf(const std::string& location) {
  std::map<std::string, std::string> out;
  const std::size_t question = location.find('?');
  if (question == std::string::npos) return out;
  for (auto& [name, value] : core::ParseQuery(location.substr(question + 1))) out[name] = value;
  return out;
}

// "name=value; Path=/; …" → "name=value".
std::string CookiePair(const std::string& set_cookie) {
  return set_cookie.substr(0, set_cookie.find(';'));
}

// The value of the first `marker` after `from` up to the next quote (std::regex overflows the
// stack on pages this long).
std::string ValueAfter(const std::string& html, std::size_t from, const std::string& marker) {
  const std::size_t at = from == std::string::npos ? from : html.find(marker, from);
  if (at == std::string::npos) return {};
  const std::size_t start = at + marker.size();
  return html.substr(start, html.find('"', start) - start);
}

std::string HiddenValue(const std::string& html, const std::string& name) {
  return ValueAfter(html, 0, "name=\"" + name + "\" value=\"");
}

// The selected option of a <select>: the page preselects one.
std::string SelectedOption(const std::string& html, const std::string& select_id) {
  const std::size_t select = html.find("id=\"" + select_id + "\"");
  const std::size_t selected =
      select == std::string::npos ? select : html.find("\" selected>", select);
  if (selected == std::string::npos) return {};
  const std::size_t start = html.rfind("value=\"", selected) + 7;
  return html.substr(start, selected - start);
}

struct Pkce {
  std::string verifier = core::RandomBase62(64);
  std::string challenge = core::Base64UrlEncode(core::Sha256(verifier));
};

class OAuth : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("oauth");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    email_ = creds_.owner_email;
    server_ = std::make_unique<ServerProcess>(GetParam());
  }
  // The API base, which is the OAuth issuer.
  std::string Base() const { return "http://127.0.0.1:" + std::to_string(server_->port()) + "/api"; }
  ApiClient api() const { return ApiClient(*server_); }

  // A public client registered dynamically; its client_id.
  std::string RegisterPublicClient(const std::string& redirect = kRedirect) {
    const Response r = api().Call("POST", "/oauth/register", "",
                                  R"({"client_name":"Test Assistant","redirect_uris":[")" +
                                      redirect + R"("],"token_endpoint_auth_method":"none"})");
    EXPECT_EQ(r.status, 201) << r.body;
    return std::string(r.Json().at("client_id").as_string());
  }

  std::string AuthorizeTarget(const std::string& client_id, const Pkce& pkce,
                              const std::string& extra = "") const {
    return "/oauth/authorize?" +
           Form({{"response_type", "code"},
                 {"client_id", client_id},
                 {"redirect_uri", kRedirect},
                 {"state", "st-123"},
                 {"code_challenge", pkce.challenge},
                 {"code_challenge_method", "S256"},
                 {"resource", Base() + "/mcp"}}) +
           extra;
  }

  // The consent page for a signed-in browser: its HTML and the cookies the browser holds.
  struct Browser {
    std::string csrf_cookie, session_cookie, consent_html;
    std::vector<std::pair<std::string, std::string>> request;  // the hidden fields
    std::string Cookies() const { return csrf_cookie + "; " + session_cookie; }
  };
  Browser SignIn(const std::string& client_id, const Pkce& pkce, const std::string& extra = "",
                 const std::string& email = "", const std::string& password = kOwnerPassword) {
    Browser browser;
    const Response page = server_->Request("GET", AuthorizeTarget(client_id, pkce, extra));
    EXPECT_EQ(page.status, 200) << page.body;
    browser.csrf_cookie = CookiePair(page.Header("set-cookie"));
    for (const char* name : {"response_type", "client_id", "redirect_uri", "state",
                             "code_challenge", "code_challenge_method", "resource", "scope"}) {
      const std::string value = HiddenValue(page.body, name);
      if (!value.empty()) browser.request.emplace_back(name, value);
    }
    auto fields = browser.request;
    fields.emplace_back("csrf", HiddenValue(page.body, "csrf"));
    fields.emplace_back("email", email.empty() ? email_ : email);
    fields.emplace_back("password", password);
    fields.emplace_back("action", "signin");
    const Response signed_in = PostForm(browser.csrf_cookie, fields);
    EXPECT_EQ(signed_in.status, 200) << signed_in.body;
    browser.session_cookie = CookiePair(signed_in.Header("set-cookie"));
    browser.consent_html = signed_in.body;
    return browser;
  }
  Response PostForm(const std::string& cookies,
                    const std::vector<std::pair<std::string, std::string>>& fields,
                    Headers extra = {}) {
    extra["Content-Type"] = "application/x-www-form-urlencoded";
    extra["Cookie"] = cookies;
    extra.emplace("Origin", "http://127.0.0.1:" + std::to_string(server_->port()));
    return server_->Request("POST", "/oauth/authorize", extra, Form(fields));
  }
  // Allows with `preset` (and `permissions` for "custom"); the redirect's query.
  std::map<std::string, std::string> Allow(const Browser& browser, const std::string& preset,
                                           const std::vector<std::string>& permissions = {}) {
    auto fields = browser.request;
    fields.emplace_back("csrf", HiddenValue(browser.consent_html, "csrf"));
    fields.emplace_back("organization", SelectedOption(browser.consent_html, "organization"));
    fields.emplace_back("project", SelectedOption(browser.consent_html, "project"));
    fields.emplace_back("preset", preset);
    for (const auto& permission : permissions) fields.emplace_back("permission", permission);
    fields.emplace_back("action", "allow");
    const Response r = PostForm(browser.Cookies(), fields);
    EXPECT_EQ(r.status, 303) << r.body;
    EXPECT_TRUE(r.Header("location").starts_with(kRedirect)) << r.Header("location");
    return QueryOf(r.Header("location"));
  }
  Response Token(const std::vector<std::pair<std::string, std::string>>& fields) {
    return server_->Request("POST", "/oauth/token",
                            {{"Content-Type", "application/x-www-form-urlencoded"}}, Form(fields));
  }
  Response ExchangeCode(const std::string& client_id, const std::string& code, const Pkce& pkce) {
    return Token({{"grant_type", "authorization_code"},
                  {"client_id", client_id},
                  {"code", code},
                  {"redirect_uri", kRedirect},
                  {"code_verifier", pkce.verifier},
                  {"resource", Base() + "/mcp"}});
  }
  // Registration, consent with `preset`, and the code exchange: the token response.
  json::object Connect(const std::string& preset, const std::vector<std::string>& permissions = {},
                       const std::string& email = "",
                       const std::string& password = kOwnerPassword) {
    const std::string client = RegisterPublicClient();
    const Pkce pkce;
    const auto redirect = Allow(SignIn(client, pkce, "", email, password), preset, permissions);
    const Response tokens = ExchangeCode(client, redirect.at("code"), pkce);
    EXPECT_EQ(tokens.status, 200) << tokens.body;
    json::object out = tokens.Json().as_object();
    out["client_id"] = client;
    return out;
  }
  Response Mcp(const std::string& token, const std::string& body, const std::string& session = "") {
    return server_->Request("POST", "/mcp", McpHeaders(token, session), body);
  }
  std::vector<std::string> ToolNames(const std::string& token) {
    const Response init = Mcp(token, kMcpInitialize);
    EXPECT_EQ(init.status, 200) << init.body;
    const Response listed = Mcp(token, R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})",
                                init.Header("mcp-session-id"));
    std::vector<std::string> names;
    const json::value body = listed.Json();
    for (const auto& tool : body.at("result").at("tools").as_array()) {
      names.emplace_back(tool.at("name").as_string());
    }
    return names;
  }
  Response CallTool(const std::string& token, const std::string& name,
                    const std::string& arguments = "{}") {
    const Response init = Mcp(token, kMcpInitialize);
    return Mcp(token,
               R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":")" + name +
                   R"(","arguments":)" + arguments + "}}",
               init.Header("mcp-session-id"));
  }

  std::string org_, email_;
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_P(OAuth, MetadataNamesOneIssuerAndEveryEndpoint) {
  const Response r = server_->SiteRequest("GET", "/.well-known/oauth-authorization-server/api");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("access-control-allow-origin"), "*");
  const json::object metadata = r.Json().as_object();
  EXPECT_EQ(metadata.at("issuer").as_string(), Base());
  EXPECT_EQ(metadata.at("authorization_endpoint").as_string(), Base() + "/oauth/authorize");
  EXPECT_EQ(metadata.at("token_endpoint").as_string(), Base() + "/oauth/token");
  EXPECT_EQ(metadata.at("registration_endpoint").as_string(), Base() + "/oauth/register");
  EXPECT_EQ(metadata.at("revocation_endpoint").as_string(), Base() + "/oauth/revoke");
  EXPECT_EQ(json::serialize(metadata.at("code_challenge_methods_supported")), R"(["S256"])");
  EXPECT_TRUE(metadata.at("client_id_metadata_document_supported").as_bool());
  EXPECT_TRUE(metadata.at("authorization_response_iss_parameter_supported").as_bool());
  // The protected resource's baseline scopes are all scopes the server grants.
  const json::object resource =
      server_->SiteRequest("GET", "/.well-known/oauth-protected-resource/api/mcp").Json().as_object();
  EXPECT_EQ(resource.at("authorization_servers").as_array().at(0).as_string(), Base());
  const auto& supported = metadata.at("scopes_supported").as_array();
  for (const auto& scope : resource.at("scopes_supported").as_array()) {
    EXPECT_NE(std::find(supported.begin(), supported.end(), scope), supported.end()) << scope;
    // MCP 2026-07-28: refresh tokens come with the grant, never from offline_access.
    EXPECT_NE(scope.as_string(), "offline_access");
  }
  const Response challenge = server_->Request("POST", "/mcp");
  EXPECT_EQ(challenge.status, 401);
  EXPECT_EQ(challenge.Header("www-authenticate").find("offline_access"), std::string::npos);
  // RFC 8414 and OpenID discovery for an issuer with a path: the three places clients look.
  EXPECT_EQ(server_->SiteRequest("GET", "/.well-known/openid-configuration/api").body, r.body);
  EXPECT_EQ(server_->Request("GET", "/.well-known/openid-configuration").body, r.body);
  EXPECT_EQ(server_->SiteRequest("GET", "/.well-known/oauth-authorization-server").status, 404);
  const Response preflight =
      server_->Request("OPTIONS", "/oauth/token", {{"Origin", "https://app.example"}});
  EXPECT_EQ(preflight.status, 204);
  EXPECT_EQ(preflight.Header("access-control-allow-origin"), "*");
  EXPECT_NE(preflight.Header("access-control-allow-headers").find("Authorization"),
            std::string::npos);
}

TEST_P(OAuth, RegistrationValidatesRedirectsAndIssuesSecretsOnlyToConfidentialClients) {
  const Headers json_type{{"Content-Type", "application/json"}};
  const Response confidential = server_->Request(
      "POST", "/oauth/register", json_type,
      R"({"client_name":"Server app","redirect_uris":["https://app.example/cb"]})");
  ASSERT_EQ(confidential.status, 201) << confidential.body;
  EXPECT_EQ(confidential.Json().at("token_endpoint_auth_method").as_string(),
            "client_secret_basic");
  EXPECT_FALSE(confidential.Json().at("client_secret").as_string().empty());
  EXPECT_EQ(confidential.Header("cache-control"), "no-store");

  const Response public_client = server_->Request(
      "POST", "/oauth/register", json_type,
      R"({"redirect_uris":["http://localhost/cb","cursor://anysphere.cursor-mcp/oauth"],)"
      R"("token_endpoint_auth_method":"none","application_type":"native"})");
  ASSERT_EQ(public_client.status, 201) << public_client.body;
  EXPECT_FALSE(public_client.Json().as_object().contains("client_secret"));
  EXPECT_EQ(public_client.Json().at("application_type").as_string(), "native");
  const Response bad_type = server_->Request(
      "POST", "/oauth/register", json_type,
      R"({"redirect_uris":["http://localhost/cb"],"application_type":"browser"})");
  EXPECT_EQ(bad_type.status, 400);
  EXPECT_EQ(bad_type.Json().at("error").as_string(), "invalid_client_metadata");

  for (const char* bad : {R"({"redirect_uris":["http://app.example/cb"]})",
                          R"({"redirect_uris":["https://app.example/cb#frag"]})",
                          R"({"redirect_uris":["javascript:alert(1)//x"]})",
                          R"({"redirect_uris":["https://user@app.example/cb"]})",
                          R"({"redirect_uris":[]})", R"({"client_name":"x"})"}) {
    const Response r = server_->Request("POST", "/oauth/register", json_type, bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(r.Json().at("error").as_string(), "invalid_redirect_uri") << bad;
  }
  const Response bad_method =
      server_->Request("POST", "/oauth/register", json_type,
                       R"({"redirect_uris":["https://a.example/cb"],)"
                       R"("token_endpoint_auth_method":"private_key_jwt"})");
  EXPECT_EQ(bad_method.Json().at("error").as_string(), "invalid_client_metadata");
  const Response not_json = server_->Request("POST", "/oauth/register", json_type, "{");
  EXPECT_EQ(not_json.status, 400);
  EXPECT_EQ(not_json.Json().at("error").as_string(), "invalid_client_metadata");
}

TEST_P(OAuth, BadClientsAndRedirectsGetAPageAndOtherFaultsLinkBackWithStateAndIss) {
  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  const Response unknown = server_->Request("GET", AuthorizeTarget("mcpc_nobody", pkce));
  EXPECT_EQ(unknown.status, 400);
  EXPECT_TRUE(unknown.Header("location").empty());
  EXPECT_NE(unknown.Header("content-type").find("text/html"), std::string::npos);

  std::string foreign_redirect = AuthorizeTarget(client, pkce);
  foreign_redirect.replace(foreign_redirect.find("127.0.0.1%3A4567"), 16, "evil.example");
  const Response mismatch = server_->Request("GET", foreign_redirect);
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_TRUE(mismatch.Header("location").empty());

  // A loopback redirect matches on any port (native clients).
  std::string other_port = AuthorizeTarget(client, pkce);
  other_port.replace(other_port.find("4567"), 4, "9999");
  EXPECT_EQ(server_->Request("GET", other_port).status, 200);

  // Before the user has acted, a faulty request gets a page linking back to the client with the
  // error, never an automatic redirect (RFC 9700 §4.11.2).
  auto error_of = [&](const std::string& target) {
    const Response r = server_->Request("GET", target);
    EXPECT_EQ(r.status, 400) << target << "\n" << r.body;
    EXPECT_TRUE(r.Header("location").empty());
    std::string link = ValueAfter(r.body, 0, "<a href=\"");
    for (std::size_t at; (at = link.find("&amp;")) != std::string::npos;) link.replace(at, 5, "&");
    EXPECT_TRUE(link.starts_with(kRedirect)) << link;
    auto query = QueryOf(link);
    EXPECT_EQ(query["state"], "st-123");
    EXPECT_EQ(query["iss"], Base());
    return query["error"];
  };
  std::string no_pkce = AuthorizeTarget(client, pkce);
  no_pkce.replace(no_pkce.find("&code_challenge="), 59, "");
  EXPECT_EQ(error_of(no_pkce), "invalid_request");
  std::string plain = AuthorizeTarget(client, pkce);
  plain.replace(plain.find("S256"), 4, "plain");
  EXPECT_EQ(error_of(plain), "invalid_request");
  EXPECT_EQ(error_of(AuthorizeTarget(client, pkce, "&resource=https%3A%2F%2Fother.example%2Fmcp")),
            "invalid_request");  // a repeated parameter
  std::string other_resource = AuthorizeTarget(client, pkce);
  other_resource.replace(other_resource.find("&resource="), std::string::npos,
                         "&resource=https%3A%2F%2Fother.example%2Fmcp");
  EXPECT_EQ(error_of(other_resource), "invalid_target");
  EXPECT_EQ(error_of(AuthorizeTarget(client, pkce, "&scope=everything")), "invalid_scope");
  std::string token_flow = AuthorizeTarget(client, pkce);
  token_flow.replace(token_flow.find("response_type=code"), 18, "response_type=token");
  EXPECT_EQ(error_of(token_flow), "unsupported_response_type");

  const Response page = server_->Request("GET", AuthorizeTarget(client, pkce));
  EXPECT_EQ(page.Header("x-frame-options"), "DENY");
  EXPECT_NE(page.Header("content-security-policy").find("frame-ancestors 'none'"),
            std::string::npos);
  EXPECT_EQ(page.Header("cache-control"), "no-store");
  EXPECT_NE(page.body.find("Test Assistant"), std::string::npos);
  EXPECT_NE(page.body.find("<label for=\"password\">"), std::string::npos);
}

TEST_P(OAuth, FormsWithoutTheCsrfCookieOrFromAnotherOriginAreRefused) {
  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  Browser browser = SignIn(client, pkce);
  ASSERT_FALSE(browser.session_cookie.empty());
  auto fields = browser.request;
  fields.emplace_back("csrf", "forged-token-forged-token-forged-token");
  fields.emplace_back("preset", "all");
  fields.emplace_back("action", "allow");
  EXPECT_EQ(PostForm(browser.Cookies(), fields).status, 403);
  fields = browser.request;
  fields.emplace_back("csrf", HiddenValue(browser.consent_html, "csrf"));
  fields.emplace_back("action", "allow");
  EXPECT_EQ(PostForm(browser.Cookies(), fields, {{"Origin", "https://evil.example"}}).status, 403);
  // A wrong password shows the form again with the reason, and no session.
  auto login = browser.request;
  login.emplace_back("csrf", HiddenValue(browser.consent_html, "csrf"));
  login.emplace_back("email", email_);
  login.emplace_back("password", "wrong horse");
  login.emplace_back("action", "signin");
  const Response wrong = PostForm(browser.csrf_cookie, login);
  EXPECT_EQ(wrong.status, 200);
  EXPECT_NE(wrong.body.find("role=\"alert\""), std::string::npos);
  EXPECT_TRUE(wrong.Header("set-cookie").empty());
  // Deny goes back with access_denied.
  auto deny = browser.request;
  deny.emplace_back("csrf", HiddenValue(browser.consent_html, "csrf"));
  deny.emplace_back("action", "deny");
  const Response denied = PostForm(browser.Cookies(), deny);
  ASSERT_EQ(denied.status, 303);
  auto query = QueryOf(denied.Header("location"));
  EXPECT_EQ(query["error"], "access_denied");
  EXPECT_EQ(query["state"], "st-123");
  EXPECT_EQ(query["iss"], Base());
}

TEST_P(OAuth, AnEmptyChoiceShowsTheConsentPageAgainWithTheReasonAndNoStaleFields) {
  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  const Browser browser = SignIn(client, pkce);
  auto fields = browser.request;
  fields.emplace_back("csrf", HiddenValue(browser.consent_html, "csrf"));
  fields.emplace_back("organization", SelectedOption(browser.consent_html, "organization"));
  fields.emplace_back("project", SelectedOption(browser.consent_html, "project"));
  fields.emplace_back("preset", "custom");  // and no permission ticked
  fields.emplace_back("action", "allow");
  const Response again = PostForm(browser.Cookies(), fields);
  EXPECT_EQ(again.status, 400) << again.body;
  EXPECT_NE(again.body.find("role=\"alert\""), std::string::npos);
  EXPECT_EQ(again.body.find("type=\"hidden\" name=\"preset\""), std::string::npos);
  EXPECT_EQ(again.body.find("type=\"hidden\" name=\"organization\""), std::string::npos);
  EXPECT_EQ(HiddenValue(again.body, "client_id"), client);
  // A project of someone else's organization is refused the same way.
  fields[fields.size() - 3] = {"project", "not-a-project-of-mine"};
  fields[fields.size() - 2] = {"preset", "all"};
  EXPECT_EQ(PostForm(browser.Cookies(), fields).status, 400);
}

TEST_P(OAuth, TheBrowserSignInEndsWhenTheOrganizationStartsRequiringTwoFactor) {
  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  const Browser browser = SignIn(client, pkce);
  const Response consent =
      server_->Request("GET", AuthorizeTarget(client, pkce), {{"Cookie", browser.Cookies()}});
  EXPECT_NE(consent.body.find("value=\"allow\""), std::string::npos) << "still signed in";
  const std::string owner = api().SignIn(email_);
  ASSERT_EQ(api().Call("PATCH", "/" + org_, owner, R"({"requireTwoFactor":true})").status, 200);
  // The cookie no longer signs anyone in, and a fresh password sign-in is refused with a reason.
  const Response again =
      server_->Request("GET", AuthorizeTarget(client, pkce), {{"Cookie", browser.Cookies()}});
  EXPECT_EQ(again.body.find("value=\"allow\""), std::string::npos);
  EXPECT_NE(again.body.find("<label for=\"password\">"), std::string::npos);
  auto fields = browser.request;
  fields.emplace_back("csrf", HiddenValue(again.body, "csrf"));
  fields.emplace_back("email", email_);
  fields.emplace_back("password", kOwnerPassword);
  fields.emplace_back("action", "signin");
  const Response refused = PostForm(browser.csrf_cookie, fields);
  EXPECT_NE(refused.body.find("two-factor"), std::string::npos) << refused.body;
  EXPECT_TRUE(refused.Header("set-cookie").empty());
}

// The consent page is a sign-in surface too: a user with two-factor authentication gives a
// code (from otplib, for the secret the API issued) after the password, before any cookie.
TEST_P(OAuth, TheConsentPageAsksForTheSecondFactor) {
  const EnabledTwoFactor two_factor = api().EnableTwoFactor(api().SignIn(email_));

  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  const Response page = server_->Request("GET", AuthorizeTarget(client, pkce));
  const std::string csrf_cookie = CookiePair(page.Header("set-cookie"));
  std::vector<std::pair<std::string, std::string>> request;
  for (const char* name : {"response_type", "client_id", "redirect_uri", "state",
                           "code_challenge", "code_challenge_method", "resource"}) {
    request.emplace_back(name, HiddenValue(page.body, name));
  }
  auto step = [&](const std::string& html, std::vector<std::pair<std::string, std::string>> more) {
    auto fields = request;
    fields.emplace_back("csrf", HiddenValue(html, "csrf"));
    fields.insert(fields.end(), more.begin(), more.end());
    return PostForm(csrf_cookie, fields);
  };
  const Response asked =
      step(page.body, {{"email", email_}, {"password", kOwnerPassword}, {"action", "signin"}});
  ASSERT_EQ(asked.status, 200);
  EXPECT_NE(asked.body.find("autocomplete=\"one-time-code\""), std::string::npos) << asked.body;
  EXPECT_TRUE(asked.Header("set-cookie").empty()) << "no sign-in before the second factor";
  const std::string pending = HiddenValue(asked.body, "pending");
  ASSERT_FALSE(pending.empty());
  // The sign-in page offers a passkey (the server's loopback URL makes `localhost` the RP ID);
  // the second step offers one only to an account that has one. A passkey answer that does not
  // verify asks again and signs no one in.
  EXPECT_NE(page.body.find("Sign in with a passkey"), std::string::npos) << page.body;
  EXPECT_EQ(asked.body.find("passkey-form"), std::string::npos) << asked.body;
  const Response bad_passkey = step(asked.body, {{"pending", pending},
                                                 {"methods", "totp"},
                                                 {"action", "passkey"},
                                                 {"challenge", "x"},
                                                 {"credential", R"({"id":"AA"})"}});
  EXPECT_EQ(bad_passkey.status, 200);
  EXPECT_NE(bad_passkey.body.find("role=\"alert\""), std::string::npos) << bad_passkey.body;
  EXPECT_EQ(HiddenValue(bad_passkey.body, "pending"), pending) << "the same pending sign-in";
  EXPECT_TRUE(bad_passkey.Header("set-cookie").empty());
  const Response wrong =
      step(asked.body, {{"pending", pending}, {"code", "000000"}, {"action", "verify"}});
  EXPECT_NE(wrong.body.find("not valid"), std::string::npos) << wrong.body;
  EXPECT_TRUE(wrong.Header("set-cookie").empty());
  const Response consent = step(
      wrong.body,
      {{"pending", pending}, {"code", two_factor.NextCode()}, {"action", "verify"}});
  ASSERT_EQ(consent.status, 200);
  EXPECT_NE(consent.body.find("value=\"allow\""), std::string::npos) << consent.body;
  EXPECT_FALSE(CookiePair(consent.Header("set-cookie")).empty());
  // A forged pending sign-in starts over.
  const Response forged =
      step(asked.body, {{"pending", "forged"}, {"code", "123456"}, {"action", "verify"}});
  EXPECT_NE(forged.body.find("sign in again"), std::string::npos) << forged.body;
}

TEST_P(OAuth, TheFullFlowIssuesTokensThatWorkOnMcpAndRotateOnRefresh) {
  const std::string client = RegisterPublicClient();
  const Pkce pkce;
  const auto redirect = Allow(SignIn(client, pkce), "all");
  EXPECT_EQ(redirect.at("state"), "st-123");
  EXPECT_EQ(redirect.at("iss"), Base());
  const Response tokens = ExchangeCode(client, redirect.at("code"), pkce);
  ASSERT_EQ(tokens.status, 200) << tokens.body;
  EXPECT_EQ(tokens.Header("cache-control"), "no-store");
  const json::object body = tokens.Json().as_object();
  EXPECT_EQ(body.at("token_type").as_string(), "Bearer");
  EXPECT_EQ(body.at("expires_in").as_int64(), 3600);
  EXPECT_NE(body.at("scope").as_string().find("analytics.view"), std::string::npos);
  const std::string access(body.at("access_token").as_string());
  const std::string refresh(body.at("refresh_token").as_string());

  const auto tools = ToolNames(access);
  EXPECT_TRUE(Contains(tools, "get_web_analytics"));
  EXPECT_TRUE(Contains(tools, "update_project"));
  EXPECT_FALSE(Contains(tools, "create_private_api_key"));  // excluded from MCP entirely
  const Response call = CallTool(access, "get_project");
  ASSERT_EQ(call.status, 200) << call.body;
  EXPECT_FALSE(call.Json().at("result").at("isError").as_bool()) << call.body;
  EXPECT_EQ(call.Json().at("result").at("structuredContent").at("id").as_string(),
            creds_.project_id);

  // The token is for /mcp only: the REST API does not take it.
  const Response rest = api().Call("GET", "/users/me", access);
  EXPECT_EQ(rest.status, 401);

  auto refresh_with = [&](const std::string& token) {
    return Token({{"grant_type", "refresh_token"}, {"client_id", client}, {"refresh_token", token}});
  };
  const Response rotated = refresh_with(refresh);
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  const std::string new_access(rotated.Json().at("access_token").as_string());
  const std::string second(rotated.Json().at("refresh_token").as_string());
  EXPECT_NE(second, refresh);
  EXPECT_EQ(Mcp(new_access, kMcpInitialize).status, 200);

  // A retry with the old token while its successor is unused (the answer was lost) gets a new
  // pair in the successor's place, which stops working.
  const Response retried = refresh_with(refresh);
  ASSERT_EQ(retried.status, 200) << retried.body;
  const std::string third(retried.Json().at("refresh_token").as_string());
  EXPECT_EQ(refresh_with(second).Json().at("error").as_string(), "invalid_grant");
  const Response moved_on = refresh_with(third);
  ASSERT_EQ(moved_on.status, 200) << moved_on.body;
  const std::string latest_access(moved_on.Json().at("access_token").as_string());

  // Once its successor has been used, the old refresh token coming back is a replay: the
  // grant is revoked and every token of it stops working.
  const Response replay = refresh_with(refresh);
  EXPECT_EQ(replay.status, 400);
  EXPECT_EQ(replay.Json().at("error").as_string(), "invalid_grant");
  const Response dead = Mcp(latest_access, kMcpInitialize);
  EXPECT_EQ(dead.status, 401);
  EXPECT_NE(dead.Header("www-authenticate").find("error=\"invalid_token\""), std::string::npos);
}

TEST_P(OAuth, CodesAreSingleUseAndBoundToVerifierRedirectResourceAndClient) {
  const std::string client = RegisterPublicClient();
  const std::string other_client = RegisterPublicClient();
  const Pkce pkce;
  const std::string code = Allow(SignIn(client, pkce), "all").at("code");
  auto attempt = [&](std::vector<std::pair<std::string, std::string>> fields) {
    return Token(fields);
  };
  const std::string resource = Base() + "/mcp";
  const Response wrong_verifier = attempt({{"grant_type", "authorization_code"},
                                           {"client_id", client},
                                           {"code", code},
                                           {"redirect_uri", kRedirect},
                                           {"code_verifier", Pkce().verifier}});
  EXPECT_EQ(wrong_verifier.Json().at("error").as_string(), "invalid_grant");
  const Response wrong_redirect = attempt({{"grant_type", "authorization_code"},
                                           {"client_id", client},
                                           {"code", code},
                                           {"redirect_uri", "http://127.0.0.1:4567/other"},
                                           {"code_verifier", pkce.verifier}});
  EXPECT_EQ(wrong_redirect.Json().at("error").as_string(), "invalid_grant");
  const Response wrong_resource = attempt({{"grant_type", "authorization_code"},
                                           {"client_id", client},
                                           {"code", code},
                                           {"code_verifier", pkce.verifier},
                                           {"resource", "https://other.example/mcp"}});
  EXPECT_EQ(wrong_resource.Json().at("error").as_string(), "invalid_target");
  const Response wrong_client = attempt({{"grant_type", "authorization_code"},
                                         {"client_id", other_client},
                                         {"code", code},
                                         {"code_verifier", pkce.verifier}});
  EXPECT_EQ(wrong_client.Json().at("error").as_string(), "invalid_grant");
  const Response unknown_client = attempt({{"grant_type", "authorization_code"},
                                           {"client_id", "mcpc_nobody"},
                                           {"code", code},
                                           {"code_verifier", pkce.verifier}});
  EXPECT_EQ(unknown_client.status, 401);
  EXPECT_EQ(unknown_client.Json().at("error").as_string(), "invalid_client");
  EXPECT_EQ(attempt({{"grant_type", "password"}, {"client_id", client}}).Json().at("error"),
            "unsupported_grant_type");

  // Failed attempts do not use the code up; the first good exchange does.
  const Response first = ExchangeCode(client, code, pkce);
  ASSERT_EQ(first.status, 200) << first.body;
  const std::string access(first.Json().at("access_token").as_string());
  EXPECT_EQ(Mcp(access, kMcpInitialize).status, 200);
  const Response reused = ExchangeCode(client, code, pkce);
  EXPECT_EQ(reused.status, 400);
  EXPECT_EQ(reused.Json().at("error").as_string(), "invalid_grant");
  EXPECT_EQ(Mcp(access, kMcpInitialize).status, 401);  // what the code issued is revoked
}

TEST_P(OAuth, ConsentLimitsToolsAndAMissingPermissionIsAStepUpChallenge) {
  const json::object read_only = Connect("read_only");
  const std::string reader(read_only.at("access_token").as_string());
  const auto read_tools = ToolNames(reader);
  EXPECT_TRUE(Contains(read_tools, "get_web_analytics"));
  EXPECT_FALSE(Contains(read_tools, "update_project"));
  EXPECT_EQ(read_only.at("scope").as_string().find("manage"), std::string::npos);

  const json::object custom = Connect("custom", {"analytics.view"});
  EXPECT_EQ(custom.at("scope").as_string(), "analytics.view");
  const std::string narrow(custom.at("access_token").as_string());
  const auto narrow_tools = ToolNames(narrow);
  EXPECT_TRUE(Contains(narrow_tools, "get_web_analytics"));
  EXPECT_FALSE(Contains(narrow_tools, "get_top_bots"));
  EXPECT_LT(narrow_tools.size(), read_tools.size());
  const Response refused = CallTool(narrow, "get_project");
  EXPECT_EQ(refused.status, 403) << refused.body;
  const std::string challenge = refused.Header("www-authenticate");
  EXPECT_NE(challenge.find("error=\"insufficient_scope\""), std::string::npos) << challenge;
  EXPECT_NE(challenge.find("scope=\"analytics.view project.view\""), std::string::npos)
      << challenge;
  EXPECT_NE(challenge.find("resource_metadata="), std::string::npos);
}

TEST_P(OAuth, RevokingTheConnectionOrTheTokenEndsItOnTheNextCall) {
  const json::object first = Connect("all");
  const std::string access(first.at("access_token").as_string());
  ASSERT_EQ(Mcp(access, kMcpInitialize).status, 200);

  const std::string session = api().SignIn(email_);
  const Response listed = api().Call("GET", "/users/me/mcp-clients", session);
  ASSERT_EQ(listed.status, 200) << listed.body;
  const json::value listed_body = listed.Json();
  const auto& clients = listed_body.at("clients").as_array();
  ASSERT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients[0].at("clientName").as_string(), "Test Assistant");
  EXPECT_EQ(clients[0].at("projectId").as_string(), creds_.project_id);
  const std::string id(clients[0].at("id").as_string());

  // Another user cannot see or revoke it.
  const Credentials stranger = Bootstrap(GetParam(), Unique("oauth-stranger"), "Site");
  const std::string stranger_session = api().SignIn(stranger.owner_email);
  EXPECT_EQ(api().Call("DELETE", "/users/me/mcp-clients/" + id, stranger_session).status, 404);
  EXPECT_EQ(Mcp(access, kMcpInitialize).status, 200);

  EXPECT_EQ(api().Call("DELETE", "/users/me/mcp-clients/" + id, session).status, 204);
  EXPECT_EQ(Mcp(access, kMcpInitialize).status, 401);
  EXPECT_TRUE(api().Call("GET", "/users/me/mcp-clients", session)
                  .Json()
                  .at("clients")
                  .as_array()
                  .empty());

  // RFC 7009: revoking a refresh token ends its grant, access tokens included.
  const json::object second = Connect("all");
  const std::string second_access(second.at("access_token").as_string());
  const Response revoked = server_->Request(
      "POST", "/oauth/revoke", {{"Content-Type", "application/x-www-form-urlencoded"}},
      Form({{"token", std::string(second.at("refresh_token").as_string())},
            {"client_id", std::string(second.at("client_id").as_string())}}));
  EXPECT_EQ(revoked.status, 200);
  EXPECT_EQ(Mcp(second_access, kMcpInitialize).status, 401);
}

TEST_P(OAuth, AGrantSeesOnlyItsProjectWhateverTheModelSends) {
  const Credentials other = Bootstrap(GetParam(), Unique("oauth-other"), "Site");
  const std::string access(Connect("all").at("access_token").as_string());
  const Response call = CallTool(
      access, "get_project",
      R"({"orgSlug":")" + other.org_slug + R"(","projectId":")" + other.project_id + R"("})");
  ASSERT_EQ(call.status, 200) << call.body;
  EXPECT_EQ(call.Json().at("result").at("structuredContent").at("id").as_string(),
            creds_.project_id);
}

TEST_P(OAuth, EveryCallUsesTheUsersLiveRole) {
  const std::string owner = api().SignIn(email_);
  const std::string email = "admin@" + org_ + ".test";
  const std::string user_id = api().AddMember(org_, owner, email, "admin").user_id;

  const std::string access(
      Connect("all", {}, email, kMemberPassword).at("access_token").as_string());
  EXPECT_TRUE(Contains(ToolNames(access), "update_project"));
  // Demoted to analyst: the same token loses what the role no longer holds, on the next call.
  ASSERT_EQ(
      api().Call("PATCH", "/" + org_ + "/members/" + user_id, owner, R"({"role":"analyst"})")
          .status,
      200);
  const auto tools = ToolNames(access);
  EXPECT_FALSE(Contains(tools, "update_project"));
  EXPECT_TRUE(Contains(tools, "get_web_analytics"));
  // The role lacks it: consenting again cannot help, so it is a refusal, not a step-up.
  const Response refused = CallTool(access, "update_project", R"({"name":"Renamed"})");
  ASSERT_EQ(refused.status, 200) << refused.body;
  EXPECT_TRUE(refused.Json().at("result").at("isError").as_bool());
  EXPECT_NE(refused.body.find("PERM_001"), std::string::npos);
  // Full access follows the role: promoted again, the same token reaches the tool again.
  ASSERT_EQ(
      api().Call("PATCH", "/" + org_ + "/members/" + user_id, owner, R"({"role":"admin"})")
          .status,
      200);
  EXPECT_TRUE(Contains(ToolNames(access), "update_project"));
  // Removed from the organization: nothing left.
  ASSERT_EQ(api().Call("DELETE", "/" + org_ + "/members/" + user_id, owner).status, 204);
  EXPECT_TRUE(ToolNames(access).empty());
}

// A client identified by the URL of its metadata document, on a host name that the server
// resolves through its DNS resolver (c-ares, here a dnsmasq on loopback) and fetches over HTTPS.
TEST_P(OAuth, AMetadataDocumentOnANamedHostIsFetchedThroughTheResolver) {
  const TempDir temp("sightline-cimd-");
  const std::filesystem::path& dir = temp.path();
  MakeLoopbackCertificate(dir, "clients.sightline.test");
  std::filesystem::create_directory(dir / "www");
  ChildProcess documents("node", {(SourceDir() / "tests/interop/static_https_server.mjs").string(),
                                  (dir / "cert.pem").string(), (dir / "key.pem").string(),
                                  (dir / "www").string()});
  const std::string port =
      std::to_string(json::parse(documents.FirstLine()).at("port").as_int64());
  const std::string url = "https://clients.sightline.test:" + port + "/client.json";
  std::ofstream(dir / "www" / "client.json")
      << R"({"client_id":")" + url + R"(","client_name":"Named Host Client",)"
      << R"("redirect_uris":["http://127.0.0.1/callback"]})";
  const Dnsmasq dns({"--host-record=clients.sightline.test,127.0.0.1"});
  ServerProcess server(GetParam(), {"--dns-server", dns.address(), "--client-metadata-private",
                                    "--outbound-ca", (dir / "cert.pem").string()});
  const Pkce pkce;
  auto target = [&](const std::string& client_id) {
    return "/oauth/authorize?" + Form({{"response_type", "code"},
                                       {"client_id", client_id},
                                       {"redirect_uri", "http://127.0.0.1:5555/callback"},
                                       {"code_challenge", pkce.challenge},
                                       {"code_challenge_method", "S256"}});
  };
  const Response page = server.Request("GET", target(url));
  EXPECT_EQ(page.status, 200) << page.body;
  EXPECT_NE(page.body.find("Named Host Client"), std::string::npos);
  // A name the resolver does not know: an error page, and no wait for a system resolver.
  const Response unknown =
      server.Request("GET", target("https://nowhere.sightline.test:" + port + "/client.json"));
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("could not be fetched"), std::string::npos) << unknown.body;
  // A failed document is not fetched again at once: a burst of requests naming it costs nothing.
  const Response again =
      server.Request("GET", target("https://nowhere.sightline.test:" + port + "/client.json"));
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.body.find("a moment ago"), std::string::npos) << again.body;
}

class OAuthShortTokens : public OAuth {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("oauth-ttl");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    email_ = creds_.owner_email;
    server_ = std::make_unique<ServerProcess>(GetParam(),
                                              std::vector<std::string>{"--oauth-access-ttl", "1"});
  }
};

TEST_P(OAuthShortTokens, AnExpiredAccessTokenIsRefusedAndRefreshingRestoresAccess) {
  const json::object tokens = Connect("all");
  EXPECT_EQ(tokens.at("expires_in").as_int64(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const Response expired = Mcp(std::string(tokens.at("access_token").as_string()), kMcpInitialize);
  EXPECT_EQ(expired.status, 401);
  EXPECT_NE(expired.Header("www-authenticate").find("invalid_token"), std::string::npos);
  const Response refreshed =
      Token({{"grant_type", "refresh_token"},
             {"client_id", std::string(tokens.at("client_id").as_string())},
             {"refresh_token", std::string(tokens.at("refresh_token").as_string())}});
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  EXPECT_EQ(Mcp(std::string(refreshed.Json().at("access_token").as_string()), kMcpInitialize).status,
            200);
}

INSTANTIATE_TEST_SUITE_P(Backends, OAuth, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Backends, OAuthShortTokens, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
