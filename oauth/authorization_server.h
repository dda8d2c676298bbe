// The OAuth 2.1 authorization server of the MCP endpoint: metadata (RFC 8414), client
// registration (RFC 7591) and metadata-document clients, authorization requests with PKCE S256
// and resource indicators (RFC 8707), codes, tokens with refresh rotation, revocation (RFC 7009),
// and the resource server's side: an access token → the Principal it acts as.
//
// A grant is one consent: user, client, organization, project, a subset of the user's
// permissions, read-only or not. Every request re-reads the grant and the user's live role, so a
// revoked grant or a changed role applies to the next request. Codes and tokens are opaque
// random strings stored only as SHA-256 hashes. No HTTP here: api/oauth_routes.cpp is the
// adapter. Thread-safe.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "core/url_fetcher.h"
#include "identity/principal.h"
#include "oauth/client_metadata.h"
#include "oauth/consent.h"
#include "storage/store.h"

namespace sightline::storage {
struct OAuthGrantRecord;
}

namespace sightline::oauth {

struct AuthorizationServerSettings {
  std::string issuer;    // the public URL without a trailing slash, exactly as advertised
  std::string resource;  // the MCP endpoint's URL: every grant is for it
  identity::PermissionSet grantable;  // what a consent may include (the MCP tools' permissions)
  // The REST API's URL: the resource of command-line logins' grants (oauth/device_login.h),
  // whose tokens (cli_at_…) the REST API takes, and what such a consent may include.
  std::string cli_resource;
  identity::PermissionSet cli_grantable;
  std::chrono::seconds access_ttl{60 * 60};
  std::chrono::seconds refresh_ttl{90 * 24 * 60 * 60};
  std::chrono::seconds code_ttl{10 * 60};
  std::chrono::seconds document_ttl{24 * 60 * 60};  // how long a fetched client document is used
};

// Query or form parameters in order, as received.
using Params = std::vector<std::pair<std::string, std::string>>;

// An authorization request that passed every check: what the consent page shows and the code
// is bound to.
struct AuthorizationRequest {
  OAuthClient client;
  std::string redirect_uri;
  std::string state;  // echoed back; may be empty
  std::string code_challenge;
  std::string resource;
  identity::PermissionSet requested;  // the requested scope, known permissions only
  bool scope_given = false;
};

// A token endpoint or revocation request, its client credentials taken from the body or from
// HTTP Basic authentication.
struct TokenRequest {
  Params form;
  std::string basic_client_id;  // from `Authorization: Basic`, when sent
  std::string basic_client_secret;
  bool has_basic = false;
};

class AuthorizationServer {
 public:
  AuthorizationServer(storage::Store& store, const core::Clock& clock, core::UrlFetcher* fetcher,
                      AuthorizationServerSettings settings);

  const AuthorizationServerSettings& settings() const { return settings_; }
  // RFC 8414 metadata; the same document answers OpenID-style discovery.
  boost::json::object Metadata() const;
  // The scope names the server grants: the grantable permissions' names.
  std::vector<std::string> ScopesSupported() const;

  // RFC 7591 registration: the 201 body, or OAUTH_008 / OAUTH_009.
  core::Result<boost::json::object> Register(const boost::json::value& body);

  // The client a client_id names: a registered one, or the metadata document at that URL
  // (fetched, checked and cached). OAUTH_002 when there is none. `done` runs once, on any thread.
  void FindClientAsync(const std::string& client_id,
                       std::function<void(core::Result<OAuthClient>)> done);
  // The redirect URI of an authorization request: the one named, if registered, or the client's
  // only one. OAUTH_008 otherwise; the caller then shows the error and must NOT redirect.
  core::Result<std::string> ChooseRedirect(const OAuthClient& client,
                                           const std::string& requested) const;
  // Every other check of an authorization request (response_type, PKCE S256, resource, scope);
  // these errors go back to the client through its redirect URI.
  core::Result<AuthorizationRequest> CheckRequest(OAuthClient client, std::string redirect_uri,
                                                  const Params& params) const;
  // The organizations and projects a user may connect, with what their role there grants.
  core::Result<std::vector<ConsentOrganization>> ConsentChoices(const std::string& user_id) const;
  // Records the consent as a grant and returns its authorization code (single use, short-lived).
  core::Result<std::string> IssueCode(const AuthorizationRequest& request, const Consent& consent);

  // The token endpoint: authorization_code and refresh_token grants; the JSON answer.
  core::Result<boost::json::object> Token(const TokenRequest& request);
  // RFC 7009: revokes the token if it belongs to the client (a refresh token ends its whole
  // grant); unknown tokens are not an error.
  core::Result<void> Revoke(const TokenRequest& request);

  // An access token presented to /mcp: AUTH_002 when unknown, revoked or not for this resource,
  // AUTH_004 when expired. The principal acts for the grant's user in the grant's project with
  // consent ∩ the user's live role.
  core::Result<identity::Principal> AuthenticateAccessToken(std::string_view token);
  static bool LooksLikeAccessToken(std::string_view token);
  // A command-line login's access token presented to the REST API, from `client_ip`: the same
  // checks for the REST API's resource; the principal is of kind kCliToken.
  core::Result<identity::Principal> AuthenticateCliToken(std::string_view token,
                                                         std::string_view client_ip);
  static bool LooksLikeCliToken(std::string_view token);

  // Inserts a fresh access and refresh token for the grant, recorded as the successor of the
  // refresh token hashed `replaces` (when refreshing); the token response. Command-line
  // logins' grants get cli_ tokens.
  core::Result<boost::json::object> IssueTokens(storage::Transaction& tx,
                                                const storage::OAuthGrantRecord& grant,
                                                const std::string& replaces = {});
  // What a consent to `resource` may include.
  const identity::PermissionSet& GrantableFor(std::string_view resource) const;

 private:
  core::Result<OAuthClient> AuthenticateClient(const TokenRequest& request);
  core::Result<boost::json::object> ExchangeCode(const OAuthClient& client,
                                                 const TokenRequest& request);
  core::Result<boost::json::object> Refresh(const OAuthClient& client, const TokenRequest& request);
  // An access token of a grant for `resource`, as a principal of `kind`, presented from
  // `client_ip` (recorded for command-line logins).
  core::Result<identity::Principal> AuthenticateGrantToken(std::string_view token,
                                                           std::string_view resource,
                                                           identity::CredentialKind kind,
                                                           std::string_view client_ip = {});
  core::Result<void> CheckResource(const Params& params) const;
  // A grant's stored scope as permissions ("*": every grantable one, the role decides).
  identity::PermissionSet Consented(const storage::OAuthGrantRecord& grant) const;
  std::int64_t NowMillis() const { return clock_.NowMillis(); }

  // Remembers a metadata document that could not be fetched, so that a burst of requests naming
  // it (or naming a host that never answers) does not fetch again for a while.
  void RememberFailedFetch(const std::string& client_id);
  bool RecentlyFailed(const std::string& client_id) const;

  storage::Store& store_;
  const core::Clock& clock_;
  core::UrlFetcher* fetcher_;
  const AuthorizationServerSettings settings_;
  mutable std::mutex failed_mutex_;
  std::unordered_map<std::string, std::int64_t> failed_until_;  // client_id → unix millis
};

}  // namespace sightline::oauth
