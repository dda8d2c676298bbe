#include "api/consent_page.h"

#include <algorithm>
#include <array>

#include "core/text.h"
#include "core/url.h"

namespace sightline::api {
namespace {

using oauth::ConsentPreset;

constexpr std::string_view kStyle = R"(
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;
box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.6rem 0 .2rem;font-weight:600}
fieldset{border:1px solid #d0d4da;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
fieldset label{display:inline;font-weight:400;margin-left:.3rem}
.choice{margin:.35rem 0}input[type=email],input[type=password],select{width:100%;
padding:.45rem;font:inherit;box-sizing:border-box}
.actions{display:flex;gap:.75rem;margin-top:1.2rem}button{font:inherit;padding:.5rem 1.2rem;
border-radius:6px;border:1px solid #1b1f24;background:#fff;cursor:pointer}
button.primary{background:#1b1f24;color:#fff}.alert{background:#fdecea;border:1px solid #f5c2bd;
padding:.6rem .8rem;border-radius:6px}.note{color:#4b5563;font-size:.9rem}
code{word-break:break-all}
)";

// Keeps the project list to the chosen organization's, and makes ticking a permission choose
// the custom preset. The page works without it: the server checks every choice.
constexpr std::string_view kScript = R"(
const org = document.getElementById('organization');
const project = document.getElementById('project');
function syncProjects() {
  for (const group of project.querySelectorAll('optgroup')) {
    const shown = group.dataset.organization === org.value;
    group.hidden = !shown;
    for (const option of group.querySelectorAll('option')) option.disabled = !shown;
  }
  const chosen = project.selectedOptions[0];
  if (!chosen || chosen.disabled) {
    const first = project.querySelector('optgroup:not([hidden]) option');
    if (first) first.selected = true;
  }
}
org.addEventListener('change', syncProjects);
syncProjects();
for (const box of document.querySelectorAll('input[name=permission]')) {
  box.addEventListener('change', () => {
    document.getElementById('preset-custom').checked = true;
  });
}
)";

// The passkey ceremony: a challenge from the registry's sign-in options, the browser's
// navigator.credentials.get(), and the answer posted as the form's `credential` (the JSON the
// API's sign_in_with_passkey takes), which the server verifies.
constexpr std::string_view kPasskeyScript = R"({
const form = document.getElementById('passkey-form');
const note = document.getElementById('passkey-status');
const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const bytes = (value) => Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')),
  (c) => c.charCodeAt(0));
form.querySelector('button').addEventListener('click', async () => {
  note.textContent = '';
  try {
    if (!window.PublicKeyCredential) throw new Error('This browser cannot use passkeys.');
    const answer = await fetch(form.dataset.options, { method: 'POST', credentials: 'omit',
      headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const options = await answer.json();
    if (!answer.ok) throw new Error(options.error?.message ?? 'Passkeys are not available.');
    const publicKey = { ...options.publicKey, challenge: bytes(options.publicKey.challenge) };
    const credential = await navigator.credentials.get({ publicKey });
    const response = credential.response;
    form.elements.challenge.value = options.challengeId;
    form.elements.credential.value = JSON.stringify({ id: credential.id,
      rawId: text(credential.rawId), type: credential.type, response: {
        clientDataJSON: text(response.clientDataJSON),
        authenticatorData: text(response.authenticatorData),
        signature: text(response.signature),
        userHandle: response.userHandle ? text(response.userHandle) : null } });
    form.submit();
  } catch (error) {
    note.textContent = error.name === 'NotAllowedError'
      ? 'No passkey was used. Try again, or use another way to sign in.' : error.message;
  }
});
})";

std::string Head(std::string_view nonce, std::string_view title) {
  std::string html =
      "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      "<title>";
  html += HtmlEscape(title);
  html += "</title><style nonce=\"" + HtmlEscape(nonce) + "\">";
  html += kStyle;
  html += "</style></head><body><main>";
  return html;
}

std::string Hidden(std::string_view name, std::string_view value) {
  return "<input type=\"hidden\" name=\"" + HtmlEscape(name) + "\" value=\"" + HtmlEscape(value) +
         "\">";
}

// The authorization request's own parameters ride along; the forms' fields never do (a
// re-rendered form would otherwise post a stale choice beside the new one).
constexpr std::array<std::string_view, 8> kRequestParameters = {
    "response_type", "client_id", "redirect_uri", "state", "code_challenge",
    "code_challenge_method", "scope", "resource"};

std::string HiddenFields(const ConsentPageContext& page) {
  std::string html;
  for (const auto& [name, value] : page.request) {
    if (std::find(kRequestParameters.begin(), kRequestParameters.end(), name) ==
        kRequestParameters.end()) {
      continue;
    }
    html += Hidden(name, value);
  }
  html += Hidden("csrf", page.csrf_token);
  return html;
}

std::string Alert(std::string_view error) {
  if (error.empty()) return {};
  return "<p class=\"alert\" role=\"alert\">" + HtmlEscape(error) + "</p>";
}

// Who is asking and where the browser goes afterwards: the security BCP's consent MUSTs.
std::string ClientBlock(const ConsentPageContext& page) {
  std::string host = page.redirect_uri;
  if (const auto url = core::SplitUrl(page.redirect_uri)) host = url->host;
  std::string html = "<h1>Connect " + HtmlEscape(page.client_name) + " to Sightline</h1>";
  html += "<p><strong>" + HtmlEscape(page.client_name) +
          "</strong> asks to use Sightline's MCP tools on your behalf. Afterwards your browser "
          "returns to <strong>" +
          HtmlEscape(host) + "</strong>.</p>";
  if (const auto url = core::SplitUrl(page.redirect_uri); url && core::IsLoopbackHost(url->host)) {
    html +=
        "<p class=\"note\">That is an application on this computer. Continue only if you "
        "just started the connection yourself.</p>";
  }
  if (page.metadata_document) {
    html += "<p class=\"note\">Client identified by <code>" + HtmlEscape(page.client_id) +
            "</code>.</p>";
  }
  return html;
}

std::string PermissionId(std::string_view name) {
  std::string id = "permission-";
  for (const char c : name) id += c == '.' ? '-' : c;
  return id;
}

std::string Radio(std::string_view id, std::string_view value, bool checked,
                  std::string_view label) {
  return "<div class=\"choice\"><input type=\"radio\" id=\"" + std::string(id) +
         "\" name=\"preset\" value=\"" + std::string(value) + "\"" + (checked ? " checked" : "") +
         "><label for=\"" + std::string(id) + "\">" + HtmlEscape(label) + "</label></div>";
}

std::string OrganizationSelect(const std::vector<oauth::ConsentOrganization>& choices,
                               const ConsentSelection& selection) {
  std::string html =
      "<label for=\"organization\">Organization</label>"
      "<select id=\"organization\" name=\"organization\">";
  for (const auto& organization : choices) {
    html += "<option value=\"" + HtmlEscape(organization.id) + "\"" +
            (organization.id == selection.organization_id ? " selected" : "") + ">" +
            HtmlEscape(organization.name) + " (" + HtmlEscape(organization.role) + ")</option>";
  }
  html += "</select><label for=\"project\">Project</label><select id=\"project\" name=\"project\">";
  for (const auto& organization : choices) {
    html += "<optgroup label=\"" + HtmlEscape(organization.name) + "\" data-organization=\"" +
            HtmlEscape(organization.id) + "\">";
    for (const auto& project : organization.projects) {
      html += "<option value=\"" + HtmlEscape(project.id) + "\"" +
              (project.id == selection.project_id ? " selected" : "") + ">" +
              HtmlEscape(project.name) + "</option>";
    }
    html += "</optgroup>";
  }
  return html + "</select>";
}

std::string PermissionFields(const std::vector<oauth::ConsentOrganization>& choices,
                             const ConsentSelection& selection) {
  const identity::PermissionSet offered = oauth::OfferedPermissions(choices);
  std::string html = "<fieldset><legend>Access</legend>";
  html += Radio("preset-all", "all", selection.preset == ConsentPreset::kAll,
                "Full access: everything your role allows, as it changes");
  html += Radio("preset-read-only", "read_only", selection.preset == ConsentPreset::kReadOnly,
                "Read-only: view reports and settings, change nothing");
  html += Radio("preset-custom", "custom", selection.preset == ConsentPreset::kCustom,
                "Only the permissions selected below");
  html += "</fieldset><fieldset><legend>Permissions</legend>";
  for (const auto& info : identity::AllPermissions()) {
    if (!offered.Has(info.permission)) continue;
    const std::string id = PermissionId(info.name);
    html += "<div class=\"choice\"><input type=\"checkbox\" id=\"" + id +
            "\" name=\"permission\" value=\"" + std::string(info.name) + "\"" +
            (selection.ticked.Has(info.permission) ? " checked" : "") + "><label for=\"" + id +
            "\">" + HtmlEscape(info.description) + " (" + std::string(info.name) +
            ")</label></div>";
  }
  html +=
      "<p class=\"note\">Only what your role in the chosen organization allows is granted. "
      "Full access follows your role as it changes; a read-only or chosen set never grows, "
      "and shrinks when your role does.</p></fieldset>";
  return html;
}

// A form whose only button runs the passkey ceremony; `pending` names the sign-in it completes
// (empty: the passkey alone signs in).
std::string PasskeyForm(const ConsentPageContext& page, std::string_view pending,
                        std::string_view methods, std::string_view label) {
  std::string html = "<form method=\"post\" action=\"\" id=\"passkey-form\" aria-label=\"" +
                     HtmlEscape(label) + "\" data-options=\"" +
                     HtmlEscape(page.passkey_options_url) + "\">";
  html += HiddenFields(page);
  html += Hidden("action", "passkey") + Hidden("challenge", "") + Hidden("credential", "");
  if (!pending.empty()) html += Hidden("pending", pending) + Hidden("methods", methods);
  html += "<div class=\"actions\"><button type=\"button\">" + HtmlEscape(label) +
          "</button></div><p class=\"note\" id=\"passkey-status\" role=\"status\" "
          "aria-live=\"polite\"></p></form>";
  html += "<script nonce=\"" + HtmlEscape(page.nonce) + "\">";
  html += kPasskeyScript;
  return html + "</script>";
}

bool Offers(const std::vector<std::string>& methods, std::string_view method) {
  return std::find(methods.begin(), methods.end(), method) != methods.end();
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string PageHead(std::string_view nonce, std::string_view title) { return Head(nonce, title); }

core::HttpResponse HtmlPage(int status, std::string html, std::string_view nonce,
                            std::string_view extra_csp) {
  core::HttpResponse response;
  response.status = status;
  response.headers.Set("Content-Type", "text/html; charset=utf-8");
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("Content-Security-Policy",
                       "default-src 'none'; script-src 'nonce-" + std::string(nonce) +
                           "'; style-src 'nonce-" + std::string(nonce) +
                           "'; frame-ancestors 'none'; base-uri 'none'" +
                           (extra_csp.empty() ? "" : "; " + std::string(extra_csp)));
  response.headers.Set("X-Frame-Options", "DENY");
  response.headers.Set("X-Content-Type-Options", "nosniff");
  response.headers.Set("Referrer-Policy", "same-origin");
  response.body = std::move(html);
  return response;
}

std::string RenderSignInPage(const ConsentPageContext& page, std::string_view email,
                             std::string_view error) {
  std::string html = Head(page.nonce, "Sign in to connect " + page.client_name);
  html += ClientBlock(page);
  html += Alert(error);
  html += "<form method=\"post\" action=\"\" aria-label=\"Sign in\">";
  html += HiddenFields(page);
  html +=
      "<label for=\"email\">Email</label><input id=\"email\" name=\"email\" type=\"email\" "
      "autocomplete=\"username\" required value=\"" +
      HtmlEscape(email) + "\">";
  html +=
      "<label for=\"password\">Password</label><input id=\"password\" name=\"password\" "
      "type=\"password\" autocomplete=\"current-password\" required>";
  html +=
      "<div class=\"actions\"><button class=\"primary\" type=\"submit\" name=\"action\" "
      "value=\"signin\">Sign in</button><button type=\"submit\" name=\"action\" "
      "value=\"deny\" formnovalidate>Cancel</button></div></form>";
  if (!page.passkey_options_url.empty()) {
    html += PasskeyForm(page, "", "", "Sign in with a passkey");
  }
  return html + "</main></body></html>";
}

std::string RenderTwoFactorPage(const ConsentPageContext& page, std::string_view pending_token,
                                const std::vector<std::string>& methods, std::string_view error) {
  const bool passkey = Offers(methods, "passkey") && !page.passkey_options_url.empty();
  std::string html = Head(page.nonce, "Two-factor authentication");
  html += ClientBlock(page);
  html += Alert(error);
  if (Offers(methods, "totp")) {
    html += "<form method=\"post\" action=\"\" aria-label=\"Two-factor authentication\">";
    html += HiddenFields(page);
    html += Hidden("pending", pending_token) + Hidden("methods", core::JoinStrings(methods, ","));
    html +=
        "<label for=\"code\">Code from your authenticator app, or a backup code</label>"
        "<input id=\"code\" name=\"code\" inputmode=\"numeric\" "
        "autocomplete=\"one-time-code\" required autofocus>";
    html +=
        "<div class=\"actions\"><button class=\"primary\" type=\"submit\" name=\"action\" "
        "value=\"verify\">Verify</button><button type=\"submit\" name=\"action\" "
        "value=\"deny\" formnovalidate>Cancel</button></div></form>";
  } else if (!passkey) {
    html +=
        "<p class=\"alert\" role=\"alert\">Your account's second factor is a passkey, and this "
        "server cannot use passkeys (its public URL names no host). Ask its administrator to "
        "set one, or add an authenticator app in the dashboard's account settings.</p>";
  }
  if (passkey) {
    html += PasskeyForm(page, pending_token, core::JoinStrings(methods, ","), "Use your passkey");
  }
  if (!Offers(methods, "totp")) {
    html += "<form method=\"post\" action=\"\" aria-label=\"Cancel\">" + HiddenFields(page) +
            "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"deny\">"
            "Cancel</button></div></form>";
  }
  return html + "</main></body></html>";
}

std::string RenderConsentPage(const ConsentPageContext& page, std::string_view user_email,
                              const std::vector<oauth::ConsentOrganization>& choices,
                              const ConsentSelection& selection, std::string_view error) {
  std::string html = Head(page.nonce, "Allow " + page.client_name + " to use Sightline");
  html += ClientBlock(page);
  html += Alert(error);
  html += "<form method=\"post\" action=\"\" aria-label=\"Consent\">";
  html += HiddenFields(page);
  html += "<p class=\"note\">Signed in as " + HtmlEscape(user_email) +
          ". <button type=\"submit\" name=\"action\" value=\"signout\">Use another "
          "account</button></p>";
  if (choices.empty()) {
    html +=
        "<p class=\"alert\" role=\"alert\">You are not a member of any organization with a "
        "project yet, so there is nothing to connect.</p>";
    html +=
        "<div class=\"actions\"><button type=\"submit\" name=\"action\" value=\"deny\">"
        "Deny</button></div></form>";
    return html + "</main></body></html>";
  }
  html += OrganizationSelect(choices, selection);
  html += PermissionFields(choices, selection);
  html +=
      "<div class=\"actions\"><button class=\"primary\" type=\"submit\" name=\"action\" "
      "value=\"allow\">Allow</button><button type=\"submit\" name=\"action\" "
      "value=\"deny\">Deny</button></div></form>";
  html += "<script nonce=\"" + HtmlEscape(page.nonce) + "\">";
  html += kScript;
  html += "</script>";
  return html + "</main></body></html>";
}

std::string RenderErrorPage(std::string_view nonce, std::string_view title,
                            std::string_view message, std::string_view return_url) {
  std::string html = Head(nonce, title);
  html += "<h1>" + HtmlEscape(title) + "</h1>";
  html += "<p role=\"alert\">" + HtmlEscape(message) + "</p>";
  if (return_url.empty()) {
    html += "<p class=\"note\">Return to the application and start the connection again.</p>";
  } else {
    std::string host(return_url);
    if (const auto url = core::SplitUrl(return_url)) host = url->host;
    html += "<p><a href=\"" + HtmlEscape(return_url) + "\">Return to " + HtmlEscape(host) +
            "</a> and start the connection again.</p>";
  }
  return html + "</main></body></html>";
}

}  // namespace sightline::api
