// The HTML of the MCP authorization pages: sign-in, consent (organization, project,
// permissions) and the error page shown when a request cannot even be sent back to its client.
// Every control has a label (screen readers and getByLabel/getByRole drive it); the only scripts
// and style carry the response's CSP nonce. The passkey button is the one control that needs
// the script (WebAuthn has no form); everything else works without it. Pure functions: text
// in, escaped HTML out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/http_types.h"
#include "identity/permissions.h"
#include "oauth/authorization_server.h"
#include "oauth/consent.h"

namespace sightline::api {

// What every page of one authorization request shows and every form posts back.
struct ConsentPageContext {
  oauth::Params request;  // the authorization request's parameters, re-sent as hidden fields
  std::string csrf_token;
  std::string nonce;  // the CSP nonce of this response
  std::string client_name;
  std::string client_id;
  std::string redirect_uri;
  bool metadata_document = false;  // the client_id is its metadata document's URL
  // Where the page's script asks for a passkey challenge (the registry's
  // create_passkey_sign_in_options); empty when this server cannot use passkeys.
  std::string passkey_options_url;
};

// What the consent form shows selected.
struct ConsentSelection {
  std::string organization_id;
  std::string project_id;
  oauth::ConsentPreset preset = oauth::ConsentPreset::kAll;
  identity::PermissionSet ticked;
};

// Email and password, and a passkey (two factors in one) when the server can use them.
std::string RenderSignInPage(const ConsentPageContext& page, std::string_view email,
                             std::string_view error);
// The second step of a sign-in that needs a second factor, carrying the pending sign-in in a
// hidden field: a code from the authenticator app (or a backup code) when `methods` has
// "totp", the user's passkey when it has "passkey".
std::string RenderTwoFactorPage(const ConsentPageContext& page, std::string_view pending_token,
                                const std::vector<std::string>& methods, std::string_view error);
std::string RenderConsentPage(const ConsentPageContext& page, std::string_view user_email,
                              const std::vector<oauth::ConsentOrganization>& choices,
                              const ConsentSelection& selection, std::string_view error);
// With `return_url`, a link back to the client carrying the error (the user follows it; the
// server does not redirect on its own to a URI that anyone could have registered).
std::string RenderErrorPage(std::string_view nonce, std::string_view title,
                            std::string_view message, std::string_view return_url = {});

std::string HtmlEscape(std::string_view text);
// A server-rendered page with the headers the security BCP asks for: nothing cached, no
// framing, only our own nonce'd script and style, no referrer leaking the request's parameters
// to other sites ("same-origin", not "no-referrer", which would make the browser send
// `Origin: null` with the forms). `extra_csp` adds directives ("connect-src 'self'").
core::HttpResponse HtmlPage(int status, std::string html, std::string_view nonce,
                            std::string_view extra_csp = {});
// The pages' shared head (title, viewport, the stylesheet under `nonce`), through `<main>`.
std::string PageHead(std::string_view nonce, std::string_view title);

}  // namespace sightline::api
