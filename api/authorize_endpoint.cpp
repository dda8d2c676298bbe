// /oauth/authorize (api/authorize_endpoint.h): the browser side of the authorization server. GET
// validates the request and shows the sign-in or consent page; POST carries the page's forms (sign
// in, sign out, allow, deny). Invalid clients and redirect URIs get an error page and are never
// redirected to; other faults of the request get an error page that links back to the client
// (the user follows it: RFC 9700 §4.11.2); once the user has acted (deny, consent), failures go
// back to the client with `error`, `state` and `iss`.
//
// State lives in the browser: the authorization request rides along as hidden fields and is
// checked again on every POST; a signed HttpOnly cookie remembers who signed in; a CSRF token in
// a second cookie must match the form's (double submit), and a POST from another Origin is
// refused. `__Host-` cookies with `Secure` when the public URL is https.
#include "api/authorize_endpoint.h"

#include <boost/json/parse.hpp>
#include <map>

#include "api/consent_page.h"
#include "api/error_response.h"
#include "api/exchange.h"
#include "api/http_methods.h"
#include "core/crypto.h"
#include "core/text.h"
#include "core/url.h"
#include "mcp/discovery.h"

namespace sightline::api {
namespace {

using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using core::Result;

using Cookies = std::map<std::string, std::string, std::less<>>;

constexpr std::string_view kAuthorizePath = "/oauth/authorize";
const PathMethods kAuthorizeMethods{{HttpMethod::kGet, HttpMethod::kHead, HttpMethod::kPost},
                                    CorsPolicy::kNone,
                                    ErrorForm::kErrorResponse,
                                    "Only GET and POST are served here."};

// What the asynchronous part needs of the request (the request itself is gone by then).
struct AuthorizeInput {
  bool post = false;
  oauth::Params params;
  Cookies cookies;
  std::optional<std::string> origin;
  std::string user_agent;
};

Cookies ParseCookies(const HttpRequest& request) {
  Cookies cookies;
  const auto header = request.headers.Get("Cookie");
  if (!header) return cookies;
  std::string_view rest = *header;
  while (!rest.empty()) {
    const std::size_t semicolon = rest.find(';');
    const std::string_view pair = core::TrimSpaces(rest.substr(0, semicolon));
    rest = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 1);
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) continue;
    cookies.emplace(std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)));
  }
  return cookies;
}

std::string Param(const oauth::Params& params, std::string_view name) {
  for (const auto& [key, value] : params) {
    if (key == name) return value;
  }
  return {};
}

std::string AppendQuery(std::string url, const oauth::Params& params) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  for (const auto& [name, value] : params) {
    if (value.empty()) continue;
    url += separator;
    url += core::PercentEncode(name) + "=" + core::PercentEncode(value);
    separator = '&';
  }
  return url;
}

// What is wrong with a request before the client is looked up: the error page to show.
struct InputProblem {
  int status;
  std::string_view title;
  std::string_view message;
};

std::optional<InputProblem> ReadInput(const HttpRequest& request, AuthorizeInput& input) {
  input.post = request.method == HttpMethod::kPost;
  if (input.post) {
    const auto type = request.headers.Get("Content-Type");
    if (!type || core::MediaTypeOf(*type) != "application/x-www-form-urlencoded") {
      return InputProblem{415, "Unsupported form", "Submit the page's own form."};
    }
    input.params = core::ParseQuery(request.body);
  } else {
    input.params = core::ParseQuery(request.query());
  }
  input.cookies = ParseCookies(request);
  if (auto origin = request.headers.Get("Origin")) input.origin = core::ToLowerAscii(*origin);
  if (Param(input.params, "client_id").empty()) {
    return InputProblem{400, "Unknown application", "The request names no client_id."};
  }
  return std::nullopt;
}

HttpResponse Redirect(const std::string& location) {
  HttpResponse response;
  response.status = 303;
  response.headers.Set("Location", location);
  response.headers.Set("Cache-Control", "no-store");
  return response;
}

class AuthorizePages {
 public:
  AuthorizePages(oauth::AuthorizationServer& server, identity::SessionService& sessions,
                 identity::PasskeyService& passkeys, const std::string& api_url)
      : server_(server),
        sessions_(sessions),
        passkeys_(passkeys),
        issuer_(mcp::AuthorizationServerIssuer(api_url)),
        secure_(api_url.starts_with("https://")) {}

  HttpResponse Respond(const AuthorizeInput& input, Result<oauth::OAuthClient> client) const {
    const std::string nonce = core::Base64UrlEncode(core::RandomBytes(16));
    if (!client) {
      return HtmlPage(400, RenderErrorPage(nonce, "Unknown application", client.error().message()),
                      nonce);
    }
    auto redirect = server_.ChooseRedirect(*client, Param(input.params, "redirect_uri"));
    if (!redirect) {
      return HtmlPage(400, RenderErrorPage(nonce, "Invalid redirect", redirect.error().message()),
                      nonce);
    }
    const std::string state = Param(input.params, "state");
    auto request = server_.CheckRequest(std::move(*client), *redirect, input.params);
    if (!request) {
      // RFC 9700 §4.11.2: before the user has done anything, the server does not send the
      // browser on to a redirect URI that anyone could have registered; the page links to it.
      return HtmlPage(400,
                      RenderErrorPage(nonce, "This connection request cannot be completed",
                                      request.error().message(),
                                      ErrorLocation(*redirect, state, request.error())),
                      nonce);
    }

    ConsentPageContext page{input.params,
                            CsrfToken(input),
                            nonce,
                            request->client.name,
                            request->client.id,
                            request->redirect_uri,
                            request->client.kind == oauth::kMetadataDocumentClient};
    if (page.client_name.empty()) page.client_name = request->client.id;
    // The registry's create_passkey_sign_in_options, under the API base (which is the issuer).
    if (passkeys_.available()) page.passkey_options_url = issuer_ + "/auth/passkeys/options";
    HttpResponse response =
        input.post ? HandlePost(input, *request, page) : HandleGet(input, *request, page);
    if (!input.cookies.contains(CsrfCookie())) {
      response.headers.Add("Set-Cookie", Cookie(CsrfCookie(), page.csrf_token, 3600));
    }
    return response;
  }

 private:
  // A page of this request's forms: its script may ask the API for a passkey challenge.
  static HttpResponse Page(int status, std::string html, const ConsentPageContext& page) {
    return HtmlPage(status, std::move(html), page.nonce,
                    page.passkey_options_url.empty() ? "" : "connect-src 'self'");
  }

  std::string SessionCookie() const {
    return secure_ ? "__Host-sightline_oauth_session" : "sightline_oauth_session";
  }
  std::string CsrfCookie() const {
    return secure_ ? "__Host-sightline_oauth_csrf" : "sightline_oauth_csrf";
  }
  std::string Cookie(const std::string& name, const std::string& value,
                     std::int64_t max_age) const {
    return name + "=" + value + "; Path=/; Max-Age=" + std::to_string(max_age) +
           "; HttpOnly; SameSite=Lax" + (secure_ ? "; Secure" : "");
  }
  std::string CsrfToken(const AuthorizeInput& input) const {
    if (auto it = input.cookies.find(CsrfCookie());
        it != input.cookies.end() && it->second.size() >= 32) {
      return it->second;
    }
    return core::Base64UrlEncode(core::RandomBytes(24));
  }

  std::string ErrorLocation(const std::string& redirect_uri, const std::string& state,
                            const core::Error& error, std::string_view name = {}) const {
    const std::string_view error_name = name.empty() ? OAuthErrorName(error) : name;
    return AppendQuery(redirect_uri, {{"error", std::string(error_name)},
                                      {"error_description", error.message()},
                                      {"state", state},
                                      {"iss", issuer_}});
  }
  HttpResponse ErrorRedirect(const std::string& redirect_uri, const std::string& state,
                             const core::Error& error, std::string_view name = {}) const {
    return Redirect(ErrorLocation(redirect_uri, state, error, name));
  }

  std::optional<storage::UserRecord> SignedInUser(const AuthorizeInput& input) const {
    const auto it = input.cookies.find(SessionCookie());
    if (it == input.cookies.end()) return std::nullopt;
    auto user = sessions_.AuthenticateBrowser(it->second);
    if (!user) return std::nullopt;
    return std::move(*user);
  }

  HttpResponse HandleGet(const AuthorizeInput& input, const oauth::AuthorizationRequest& request,
                         const ConsentPageContext& page) const {
    if (auto user = SignedInUser(input)) return ConsentPage(*user, request, page);
    return Page(200, RenderSignInPage(page, "", ""), page);
  }

  HttpResponse HandlePost(const AuthorizeInput& input, const oauth::AuthorizationRequest& request,
                          const ConsentPageContext& page) const {
    const auto csrf_cookie = input.cookies.find(CsrfCookie());
    const std::string csrf_form = Param(input.params, "csrf");
    const bool same_origin = !input.origin || *input.origin == core::OriginOf(issuer_);
    if (!same_origin || csrf_cookie == input.cookies.end() || csrf_form.empty() ||
        !core::ConstantTimeEquals(csrf_cookie->second, csrf_form)) {
      return Page(403,
                  RenderErrorPage(page.nonce, "This form has expired",
                                  "The page was not sent by this server's sign-in form, or "
                                  "it is too old."),
                  page);
    }
    const std::string action = Param(input.params, "action");
    if (action == "deny") {
      return ErrorRedirect(
          request.redirect_uri, request.state,
          core::Error(core::ErrorCode::kOAuthInvalidRequest, "The user denied the request."),
          "access_denied");
    }
    if (action == "signin") return SignIn(input, request, page);
    if (action == "verify") return Verify(input, request, page);
    if (action == "passkey") return SignInWithPasskey(input, request, page);
    const auto user = SignedInUser(input);
    if (action == "signout" || !user) {
      HttpResponse response =
          Page(200,
               RenderSignInPage(page, "",
                                action == "signout" ? "" : "Your sign-in expired; sign in again."),
               page);
      response.headers.Add("Set-Cookie", Cookie(SessionCookie(), "", 0));
      return response;
    }
    return Allow(input, *user, request, page);
  }

  HttpResponse SignIn(const AuthorizeInput& input, const oauth::AuthorizationRequest& request,
                      const ConsentPageContext& page) const {
    const std::string email = Param(input.params, "email");
    auto signed_in = sessions_.SignInBrowser(email, Param(input.params, "password"));
    if (!signed_in) {
      return Page(200, RenderSignInPage(page, email, signed_in.error().message()), page);
    }
    if (!signed_in->two_factor_token.empty()) {
      return Page(
          200,
          RenderTwoFactorPage(page, signed_in->two_factor_token, signed_in->two_factor_methods, ""),
          page);
    }
    return SignedIn(*signed_in, request, page);
  }

  HttpResponse Verify(const AuthorizeInput& input, const oauth::AuthorizationRequest& request,
                      const ConsentPageContext& page) const {
    const std::string pending = Param(input.params, "pending");
    auto signed_in = sessions_.CompleteBrowserSignIn(pending, Param(input.params, "code"));
    if (signed_in) return SignedIn(*signed_in, request, page);
    // A wrong code asks again; an expired or forged pending sign-in starts over.
    if (signed_in.error().code() == core::ErrorCode::kAuthBadTwoFactorCode ||
        signed_in.error().code() == core::ErrorCode::kAuthRateLimited) {
      return Page(
          200,
          RenderTwoFactorPage(page, pending, core::SplitList(Param(input.params, "methods")),
                              signed_in.error().message()),
          page);
    }
    return Page(200, RenderSignInPage(page, "", "Your sign-in expired; sign in again."), page);
  }

  // A passkey signs in alone (user verification makes it two factors), or completes a pending
  // sign-in as its second factor (`pending`; checked before the ceremony spends its challenge).
  HttpResponse SignInWithPasskey(const AuthorizeInput& input,
                                 const oauth::AuthorizationRequest& request,
                                 const ConsentPageContext& page) const {
    const std::string pending = Param(input.params, "pending");
    if (!pending.empty() && !sessions_.PendingBrowserSignIn(pending)) {
      return Page(200, RenderSignInPage(page, "", "Your sign-in expired; sign in again."), page);
    }
    auto passkey_user = VerifiedPasskey(input);
    auto signed_in = !passkey_user ? Result<identity::BrowserSignIn>(passkey_user.error())
                     : pending.empty()
                         ? sessions_.SignInBrowserAs(*passkey_user)
                         : sessions_.CompleteBrowserSignInWithPasskey(pending, *passkey_user);
    if (signed_in) return SignedIn(*signed_in, request, page);
    const std::string error = signed_in.error().message();
    if (pending.empty()) return Page(200, RenderSignInPage(page, "", error), page);
    return Page(
        200,
        RenderTwoFactorPage(page, pending, core::SplitList(Param(input.params, "methods")), error),
        page);
  }

  // The user the form's passkey answer signs in: AUTH_013 when it does not verify.
  Result<storage::UserRecord> VerifiedPasskey(const AuthorizeInput& input) const {
    if (!passkeys_.available()) {
      return core::Error(core::ErrorCode::kUnavailable,
                         "This server cannot use passkeys: its public URL names no host.");
    }
    boost::system::error_code failed;
    const boost::json::value credential =
        boost::json::parse(Param(input.params, "credential"), failed);
    if (failed || !credential.is_object()) {
      return core::Error(core::ErrorCode::kAuthBadPasskey, "The passkey's answer is missing.");
    }
    auto assertion = identity::ReadPasskeyAssertion(credential.as_object());
    if (!assertion) return assertion.error();
    return passkeys_.FinishAuthentication(Param(input.params, "challenge"), *assertion);
  }

  HttpResponse SignedIn(const identity::BrowserSignIn& signed_in,
                        const oauth::AuthorizationRequest& request,
                        const ConsentPageContext& page) const {
    HttpResponse response = ConsentPage(signed_in.user, request, page);
    response.headers.Add("Set-Cookie",
                         Cookie(SessionCookie(), signed_in.token, signed_in.expires_in));
    return response;
  }

  HttpResponse Allow(const AuthorizeInput& input, const storage::UserRecord& user,
                     const oauth::AuthorizationRequest& request,

                     const ConsentPageContext& page) const {
    ConsentSelection selection{Param(input.params, "organization"),
                               Param(input.params, "project"),
                               oauth::ConsentPreset::kCustom,
                               {}};
    const std::string preset = Param(input.params, "preset");
    if (preset == "all") selection.preset = oauth::ConsentPreset::kAll;
    if (preset == "read_only") selection.preset = oauth::ConsentPreset::kReadOnly;
    for (const auto& [name, value] : input.params) {
      if (name != "permission") continue;
      if (auto permission = identity::ParsePermission(value)) selection.ticked.Add(*permission);
    }
    auto choices = server_.ConsentChoices(user.id);
    if (!choices) return ErrorRedirect(request.redirect_uri, request.state, choices.error());
    auto consent = oauth::ResolveConsent(*choices, user.id, selection.organization_id,
                                         selection.project_id, selection.preset, selection.ticked);
    if (!consent) {  // the same page again, with the choices just read and the reason
      return Page(
          400, RenderConsentPage(page, user.email, *choices, selection, consent.error().message()),
          page);
    }
    auto code = server_.IssueCode(request, *consent);
    if (!code) return ErrorRedirect(request.redirect_uri, request.state, code.error());
    return Redirect(AppendQuery(request.redirect_uri,
                                {{"code", *code}, {"state", request.state}, {"iss", issuer_}}));
  }

  HttpResponse ConsentPage(const storage::UserRecord& user,
                           const oauth::AuthorizationRequest& request,
                           const ConsentPageContext& page) const {
    auto choices = server_.ConsentChoices(user.id);
    if (!choices) {
      return Page(503, RenderErrorPage(page.nonce, "Try again", choices.error().message()), page);
    }
    return Page(
        200, RenderConsentPage(page, user.email, *choices, DefaultSelection(*choices, request), ""),
        page);
  }

  // The first organization and project; the requested scope as a custom choice, or everything
  // the role allows when the client asked for nothing in particular.
  static ConsentSelection DefaultSelection(const std::vector<oauth::ConsentOrganization>& choices,
                                           const oauth::AuthorizationRequest& request) {
    ConsentSelection selection;
    if (!choices.empty()) {
      selection.organization_id = choices.front().id;
      selection.project_id = choices.front().projects.front().id;
    }
    const identity::PermissionSet offered = oauth::OfferedPermissions(choices);
    selection.preset =
        request.scope_given ? oauth::ConsentPreset::kCustom : oauth::ConsentPreset::kAll;
    selection.ticked = request.scope_given ? request.requested.Intersect(offered) : offered;
    return selection;
  }

  oauth::AuthorizationServer& server_;
  identity::SessionService& sessions_;
  identity::PasskeyService& passkeys_;
  const std::string issuer_;
  const bool secure_;
};

}  // namespace

AuthorizeEndpoint::AuthorizeEndpoint(oauth::AuthorizationServer& server,
                                     identity::SessionService& sessions,
                                     identity::PasskeyService& passkeys, RateLimits& limits,
                                     std::string api_url)
    : server_(server),
      sessions_(sessions),
      passkeys_(passkeys),
      limits_(limits),
      api_url_(std::move(api_url)) {}

bool AuthorizeEndpoint::Claims(const Target& target) const {
  return target.api && target.path == kAuthorizePath;
}

std::optional<HttpResponse> AuthorizeEndpoint::Serve(const HttpRequest& request,
                                                     const Target&,
                                                     const std::shared_ptr<Exchange>& exchange) {
  exchange->set_route(kAuthorizePath);
  if (auto answered = AnswerMethod(request, kAuthorizeMethods, *exchange)) return answered;
  const std::string nonce = core::Base64UrlEncode(core::RandomBytes(16));
  // Every request counts against its IP's window: POSTs try passwords, and a GET may make the
  // server fetch a client metadata document.
  if (auto limited = limits_.CountAnonymous(request)) {
    exchange->NoteFailure(*limited);
    return HtmlPage(429, RenderErrorPage(nonce, "Too many attempts", limited->message()), nonce);
  }
  auto input = std::make_shared<AuthorizeInput>();
  if (const auto problem = ReadInput(request, *input)) {
    return HtmlPage(problem->status, RenderErrorPage(nonce, problem->title, problem->message),
                    nonce);
  }
  const std::string client_id = Param(input->params, "client_id");
  server_.FindClientAsync(client_id, [this, exchange, input](Result<oauth::OAuthClient> client) {
    const AuthorizePages pages(server_, sessions_, passkeys_, api_url_);
    exchange->Finish(pages.Respond(*input, std::move(client)));
  });
  return std::nullopt;
}

}  // namespace sightline::api
