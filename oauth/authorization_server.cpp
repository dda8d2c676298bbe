#include "oauth/authorization_server.h"

#include <algorithm>

#include "core/crypto.h"
#include "core/http_types.h"
#include "core/json_util.h"
#include "core/text.h"
#include "storage/account_repository.h"
#include "storage/oauth_repository.h"

namespace sightline::oauth {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using identity::Permission;
using identity::PermissionSet;

constexpr std::string_view kAccessPrefix = "mcp_at_";
constexpr std::string_view kRefreshPrefix = "mcp_rt_";
constexpr std::string_view kCodePrefix = "mcp_ac_";
constexpr std::string_view kCliAccessPrefix = "cli_at_";
constexpr std::string_view kCliRefreshPrefix = "cli_rt_";
constexpr std::string_view kAccess = "access";
// The stored scope of a full-access grant: everything the role allows, decided per request.
constexpr std::string_view kEverythingTheRoleAllows = "*";
constexpr std::string_view kRefresh = "refresh";
constexpr std::int64_t kTouchEveryMillis = 10 * 60 * 1000;
constexpr std::int64_t kFailedFetchPauseMillis = 5 * 60 * 1000;
constexpr std::size_t kMaxRememberedFailures = 10000;
constexpr std::int64_t kUnusedClientMillis = 90LL * 24 * 60 * 60 * 1000;
// How long a spent refresh token is remembered, so that its replay revokes the grant.
constexpr std::int64_t kReplayWindowMillis = 24 * 60 * 60 * 1000;
// How long after a refresh its old token may be presented again as a retry.
constexpr std::int64_t kRetryGraceMillis = 2 * 60 * 1000;

Error InvalidRequest(std::string message) {
  return Error(ErrorCode::kOAuthInvalidRequest, std::move(message));
}
Error InvalidGrant(std::string message) {
  return Error(ErrorCode::kOAuthInvalidGrant, std::move(message));
}
Error InvalidClient(std::string message) {
  return Error(ErrorCode::kOAuthInvalidClient, std::move(message));
}

// RFC 6749 §3.1: a parameter sent twice is an invalid request.
Result<std::optional<std::string>> Single(const Params& params, std::string_view name) {
  std::optional<std::string> found;
  for (const auto& [key, value] : params) {
    if (key != name) continue;
    if (found) return InvalidRequest("The parameter '" + std::string(name) + "' is repeated.");
    found = value;
  }
  if (found && found->empty()) found.reset();  // RFC 6749 §3.1: empty means omitted
  return found;
}

std::string Text(const Result<std::optional<std::string>>& value) {
  return value && *value ? **value : std::string();
}

// Scopes this server ignores rather than refuses: clients ask for them by habit, and refresh
// tokens are issued anyway.
bool IsIgnoredScope(std::string_view scope) {
  return scope == "offline_access" || scope == "openid" || scope == "profile" || scope == "email";
}

Result<PermissionSet> ParseScope(std::string_view scope, const PermissionSet& grantable) {
  PermissionSet out;
  for (const std::string& name : core::SplitList(scope, ' ')) {
    if (name.empty() || IsIgnoredScope(name)) continue;
    const auto permission = identity::ParsePermission(name);
    if (!permission || !grantable.Has(*permission)) {
      return Error(ErrorCode::kOAuthInvalidScope,
                   "The scope '" + name + "' is not one this server grants.");
    }
    out.Add(*permission);
  }
  return out;
}

std::string ScopeOf(const PermissionSet& permissions) {
  std::string out;
  for (const std::string_view name : permissions.Names()) {
    if (!out.empty()) out += ' ';
    out += name;
  }
  return out;
}

PermissionSet PermissionsOf(std::string_view scope) {
  PermissionSet out;
  for (const std::string& name : core::SplitList(scope, ' ')) {
    if (auto permission = identity::ParsePermission(name)) out.Add(*permission);
  }
  return out;
}

bool IsVerifierChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// RFC 7636 §4.1 and §4.6: BASE64URL(SHA256(verifier)) == challenge.
bool VerifierMatches(std::string_view verifier, std::string_view challenge) {
  if (verifier.size() < 43 || verifier.size() > 128 ||
      !std::all_of(verifier.begin(), verifier.end(), IsVerifierChar)) {
    return false;
  }
  return core::ConstantTimeEquals(core::Base64UrlEncode(core::Sha256(verifier)), challenge);
}

// What a token or refresh attempt found; revocations must commit, so they are values here
// rather than errors that would roll the transaction back.
struct Verdict {
  std::optional<json::object> answer;
  std::optional<Error> error;
};

}  // namespace

AuthorizationServer::AuthorizationServer(storage::Store& store, const core::Clock& clock,
                                         core::UrlFetcher* fetcher,
                                         AuthorizationServerSettings settings)
    : store_(store), clock_(clock), fetcher_(fetcher), settings_(std::move(settings)) {}

std::vector<std::string> AuthorizationServer::ScopesSupported() const {
  std::vector<std::string> out;
  for (const std::string_view name : settings_.grantable.Names()) out.emplace_back(name);
  return out;
}

json::object AuthorizationServer::Metadata() const {
  const std::string& issuer = settings_.issuer;
  json::array scopes;
  for (const std::string& scope : ScopesSupported()) scopes.emplace_back(scope);
  return {
      {"issuer", issuer},
      {"authorization_endpoint", issuer + "/oauth/authorize"},
      {"token_endpoint", issuer + "/oauth/token"},
      {"registration_endpoint", issuer + "/oauth/register"},
      {"revocation_endpoint", issuer + "/oauth/revoke"},
      {"scopes_supported", std::move(scopes)},
      {"response_types_supported", json::array{"code"}},
      {"response_modes_supported", json::array{"query"}},
      {"grant_types_supported", json::array{"authorization_code", "refresh_token"}},
      {"token_endpoint_auth_methods_supported",
       json::array{"none", "client_secret_basic", "client_secret_post"}},
      {"revocation_endpoint_auth_methods_supported",
       json::array{"none", "client_secret_basic", "client_secret_post"}},
      {"code_challenge_methods_supported", json::array{"S256"}},
      {"client_id_metadata_document_supported", fetcher_ != nullptr},
      {"authorization_response_iss_parameter_supported", true},
      {"service_documentation", issuer + "/openapi.json"},
  };
}

Result<json::object> AuthorizationServer::Register(const json::value& body) {
  auto registered = ParseRegistration(body);
  if (!registered) return registered.error();
  const std::int64_t now = NowMillis();
  auto stored = store_.Write([&](storage::Transaction& tx) -> Result<void> {
    // Clients nobody ever connected (abandoned sign-ins, spam) go after 90 days; each new
    // client sweeps them, so the table stays bounded without a scheduler.
    auto swept = tx.oauth().DeleteUnusedOAuthClients(now - kUnusedClientMillis);
    if (!swept) return swept.error();
    return tx.oauth().UpsertOAuthClient(ToRecord(registered->client, now, now));
  });
  if (!stored) return stored.error();
  return RegistrationResponse(*registered, now / 1000);
}

void AuthorizationServer::FindClientAsync(const std::string& client_id,
                                          std::function<void(Result<OAuthClient>)> done) {
  auto stored =
      store_.Read([&](storage::Transaction& tx) { return tx.oauth().FindOAuthClient(client_id); });
  if (!stored) return done(stored.error());
  const std::int64_t now = NowMillis();
  if (!IsMetadataDocumentUrl(client_id)) {
    if (!*stored) return done(InvalidClient("The client_id is not registered with this server."));
    return done(FromRecord(**stored));
  }
  const std::int64_t ttl_millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(settings_.document_ttl).count();
  if (*stored && now - (*stored)->fetched_at < ttl_millis) return done(FromRecord(**stored));
  if (!fetcher_) {
    return done(InvalidClient("This server does not fetch client metadata documents."));
  }
  std::optional<storage::OAuthClientRecord> stale = std::move(*stored);
  if (RecentlyFailed(client_id)) {
    if (stale) return done(FromRecord(*stale));
    return done(InvalidClient("The client metadata document at " + client_id +
                              " could not be fetched a moment ago; try again in a few minutes."));
  }
  const std::int64_t created_at = stale ? stale->created_at : now;
  fetcher_->Fetch(client_id, [this, client_id, created_at, stale = std::move(stale),
                              done = std::move(done)](Result<std::string> body) {
        if (!body) {
          RememberFailedFetch(client_id);
          // A document that was good yesterday stays usable while its host is unreachable.
          if (stale) return done(FromRecord(*stale));
          return done(InvalidClient("The client metadata document at " + client_id +
                                    " could not be fetched: " + body.error().message()));
        }
        auto client = ParseMetadataDocument(client_id, *body);
        if (!client) return done(client.error());
        const std::int64_t fetched_at = NowMillis();
        auto saved = store_.Write([&](storage::Transaction& tx) -> Result<void> {
          auto swept = tx.oauth().DeleteUnusedOAuthClients(fetched_at - kUnusedClientMillis);
          if (!swept) return swept.error();
          return tx.oauth().UpsertOAuthClient(ToRecord(*client, created_at, fetched_at));
        });
        if (!saved) return done(saved.error());
        done(std::move(*client));
      });
}

void AuthorizationServer::RememberFailedFetch(const std::string& client_id) {
  std::lock_guard lock(failed_mutex_);
  if (failed_until_.size() >= kMaxRememberedFailures) failed_until_.clear();
  failed_until_[client_id] = NowMillis() + kFailedFetchPauseMillis;
}

bool AuthorizationServer::RecentlyFailed(const std::string& client_id) const {
  std::lock_guard lock(failed_mutex_);
  const auto found = failed_until_.find(client_id);
  return found != failed_until_.end() && found->second > NowMillis();
}

Result<std::string> AuthorizationServer::ChooseRedirect(const OAuthClient& client,
                                                        const std::string& requested) const {
  if (requested.empty()) {
    if (client.redirect_uris.size() == 1) return client.redirect_uris.front();
    return Error(ErrorCode::kOAuthInvalidRedirectUri,
                 "redirect_uri is required: the client registered several.");
  }
  if (!RedirectUriAllowed(client, requested)) {
    return Error(ErrorCode::kOAuthInvalidRedirectUri,
                 "The redirect_uri is not registered for this client.");
  }
  return requested;
}

Result<void> AuthorizationServer::CheckResource(const Params& params) const {
  auto resource = Single(params, "resource");
  if (!resource) return resource.error();
  // RFC 8707: the grant is for this server's MCP endpoint; the scheme and host compare without
  // regard to case, and a trailing slash is tolerated.
  if (*resource) {
    std::string given = **resource;
    if (given.ends_with('/')) given.pop_back();
    if (!core::EqualsIgnoreCase(given, settings_.resource)) {
      return Error(ErrorCode::kOAuthInvalidTarget,
                   "The resource must be this server's MCP URL, " + settings_.resource + ".");
    }
  }
  return {};
}

Result<AuthorizationRequest> AuthorizationServer::CheckRequest(OAuthClient client,
                                                               std::string redirect_uri,
                                                               const Params& params) const {
  AuthorizationRequest request;
  for (const std::string_view name :
       {"response_type", "state", "code_challenge", "code_challenge_method", "scope"}) {
    auto value = Single(params, name);
    if (!value) return value.error();
  }
  request.state = Text(Single(params, "state"));
  const std::string response_type = Text(Single(params, "response_type"));
  if (response_type != "code") {
    return Error(ErrorCode::kOAuthUnsupportedResponseType, "response_type must be 'code'.");
  }
  request.code_challenge = Text(Single(params, "code_challenge"));
  const std::string method = Text(Single(params, "code_challenge_method"));
  if (request.code_challenge.empty()) {
    return InvalidRequest("PKCE is required: send code_challenge with method S256.");
  }
  if (method != "S256") return InvalidRequest("code_challenge_method must be S256.");
  if (request.code_challenge.size() != 43 ||
      !std::all_of(request.code_challenge.begin(), request.code_challenge.end(), IsVerifierChar)) {
    return InvalidRequest("code_challenge must be the 43-character BASE64URL of a SHA-256.");
  }
  auto resource = CheckResource(params);
  if (!resource) return resource.error();
  request.resource = settings_.resource;
  const std::string scope = Text(Single(params, "scope"));
  auto requested = ParseScope(scope, settings_.grantable);
  if (!requested) return requested.error();
  request.requested = *requested;
  request.scope_given = !scope.empty();
  request.client = std::move(client);
  request.redirect_uri = std::move(redirect_uri);
  return request;
}

PermissionSet AuthorizationServer::Consented(const storage::OAuthGrantRecord& grant) const {
  return grant.permissions == kEverythingTheRoleAllows ? GrantableFor(grant.resource)
                                                       : PermissionsOf(grant.permissions);
}

const PermissionSet& AuthorizationServer::GrantableFor(std::string_view resource) const {
  const bool cli = !settings_.cli_resource.empty() && resource == settings_.cli_resource;
  return cli ? settings_.cli_grantable : settings_.grantable;
}

Result<std::vector<ConsentOrganization>> AuthorizationServer::ConsentChoices(
    const std::string& user_id) const {
  return oauth::ConsentChoices(store_, user_id, settings_.grantable);
}

Result<std::string> AuthorizationServer::IssueCode(const AuthorizationRequest& request,
                                                   const Consent& consent) {
  const std::string code = std::string(kCodePrefix) + core::RandomBase62(40);
  const std::int64_t now = NowMillis();
  storage::OAuthGrantRecord grant;
  grant.id = core::NewUuidV4();
  grant.client_id = request.client.id;
  grant.user_id = consent.user_id;
  grant.organization_id = consent.organization_id;
  grant.project_id = consent.project_id;
  grant.permissions = consent.follows_role
                          ? std::string(kEverythingTheRoleAllows)
                          : ScopeOf(consent.permissions.Intersect(settings_.grantable));
  grant.read_only = consent.read_only;
  grant.resource = request.resource;
  grant.redirect_uri = request.redirect_uri;
  grant.code_hash = core::Sha256Hex(code);
  grant.code_challenge = request.code_challenge;
  grant.code_expires_at = now + settings_.code_ttl.count() * 1000;
  grant.created_at = now;
  auto stored =
      store_.WriteOne([&](storage::Transaction& tx) { return tx.oauth().InsertOAuthGrant(grant); });
  if (!stored) return stored.error();
  return code;
}

Result<OAuthClient> AuthorizationServer::AuthenticateClient(const TokenRequest& request) {
  auto body_id = Single(request.form, "client_id");
  if (!body_id) return body_id.error();
  auto body_secret = Single(request.form, "client_secret");
  if (!body_secret) return body_secret.error();
  if (request.has_basic && *body_secret) {
    return InvalidRequest("Send the client secret once: in Basic authentication or the body.");
  }
  const std::string client_id = request.has_basic ? request.basic_client_id : Text(body_id);
  if (client_id.empty()) return InvalidClient("client_id is required.");
  if (request.has_basic && *body_id && **body_id != client_id) {
    return InvalidClient("client_id differs from the Basic authentication's.");
  }
  auto stored =
      store_.Read([&](storage::Transaction& tx) { return tx.oauth().FindOAuthClient(client_id); });
  if (!stored) return stored.error();
  if (!*stored) return InvalidClient("The client is unknown.");
  auto client = FromRecord(**stored);
  if (!client) return client.error();
  if (client->is_public()) {
    if (request.has_basic && !request.basic_client_secret.empty()) {
      return InvalidClient("This client is public: it has no secret.");
    }
    return client;
  }
  const bool basic = client->auth_method == "client_secret_basic";
  const std::string secret = basic ? request.basic_client_secret : Text(body_secret);
  if ((basic && !request.has_basic) || (!basic && request.has_basic)) {
    return InvalidClient("Authenticate with " + client->auth_method + ", as registered.");
  }
  if (secret.empty() || !client->secret_hash ||
      !core::ConstantTimeEquals(core::Sha256Hex(secret), *client->secret_hash)) {
    return InvalidClient("The client secret is wrong.");
  }
  return client;
}

Result<json::object> AuthorizationServer::Token(const TokenRequest& request) {
  auto grant_type = Single(request.form, "grant_type");
  if (!grant_type) return grant_type.error();
  if (!*grant_type) return InvalidRequest("grant_type is required.");
  if (**grant_type != "authorization_code" && **grant_type != "refresh_token") {
    return Error(ErrorCode::kOAuthUnsupportedGrant,
                 "grant_type must be authorization_code or refresh_token.");
  }
  auto client = AuthenticateClient(request);
  if (!client) return client.error();
  // A registration that listed its grant types is held to them (RFC 7591 §2).
  if (const json::value* types = client->metadata.if_contains("grant_types");
      client->kind == kRegisteredClient && types && types->is_array()) {
    const auto& listed = types->as_array();
    if (std::find(listed.begin(), listed.end(), json::value(**grant_type)) == listed.end()) {
      return Error(ErrorCode::kOAuthUnauthorizedClient,
                   "This client did not register the " + **grant_type + " grant type.");
    }
  }
  return **grant_type == "authorization_code" ? ExchangeCode(*client, request)
                                              : Refresh(*client, request);
}

Result<json::object> AuthorizationServer::IssueTokens(storage::Transaction& tx,
                                                      const storage::OAuthGrantRecord& grant,
                                                      const std::string& replaces) {
  const std::int64_t now = NowMillis();
  const bool cli = &GrantableFor(grant.resource) == &settings_.cli_grantable;
  const std::string access =
      std::string(cli ? kCliAccessPrefix : kAccessPrefix) + core::RandomBase62(40);
  const std::string refresh =
      std::string(cli ? kCliRefreshPrefix : kRefreshPrefix) + core::RandomBase62(40);
  const storage::OAuthTokenRecord access_row{core::Sha256Hex(access), grant.id,
                                             std::string(kAccess), now,
                                             now + settings_.access_ttl.count() * 1000};
  const storage::OAuthTokenRecord refresh_row{core::Sha256Hex(refresh), grant.id,
                                              std::string(kRefresh), now,
                                              now + settings_.refresh_ttl.count() * 1000};
  for (const auto* row : {&access_row, &refresh_row}) {
    auto stored = tx.oauth().InsertOAuthToken(*row);
    if (!stored) return stored.error();
  }
  if (!replaces.empty()) {
    auto linked = tx.oauth().SetOAuthTokenSuccessor(replaces, refresh_row.hash);
    if (!linked) return linked.error();
  }
  // Every refresh leaves a spent pair behind; the grant keeps a day of them for replay
  // detection, not 90 days' worth.
  auto forgotten = tx.oauth().DeleteSpentOAuthTokens(grant.id, now, now - kReplayWindowMillis);
  if (!forgotten) return forgotten.error();
  auto touched = tx.oauth().TouchOAuthGrant(grant.id, now);
  if (!touched) return touched.error();
  std::string scope = grant.permissions;
  if (scope == kEverythingTheRoleAllows) {  // what the role allows today
    auto membership = tx.accounts().FindMembership(grant.organization_id, grant.user_id);
    if (!membership) return membership.error();
    const auto role = *membership ? identity::ParseRole((*membership)->role) : std::nullopt;
    scope = role ? ScopeOf(identity::RolePermissions(*role).Intersect(
                       GrantableFor(grant.resource)))
                 : "";
  }
  return json::object{{"access_token", access},
                      {"token_type", "Bearer"},
                      {"expires_in", settings_.access_ttl.count()},
                      {"refresh_token", refresh},
                      {"scope", scope}};
}

Result<json::object> AuthorizationServer::ExchangeCode(const OAuthClient& client,
                                                       const TokenRequest& request) {
  std::optional<std::string> params[3];
  const char* names[3] = {"code", "redirect_uri", "code_verifier"};
  for (int i = 0; i < 3; ++i) {
    auto value = Single(request.form, names[i]);
    if (!value) return value.error();
    params[i] = *value;
  }
  const auto& [code, redirect_uri, verifier] = params;
  if (!code) return InvalidRequest("code is required.");
  if (!verifier) return InvalidRequest("code_verifier is required (PKCE).");
  auto resource = CheckResource(request.form);
  if (!resource) return resource.error();
  const std::int64_t now = NowMillis();
  auto verdict = store_.Write([&](storage::Transaction& tx) -> Result<Verdict> {
    auto grant = tx.oauth().FindOAuthGrantByCode(core::Sha256Hex(*code));
    if (!grant) return grant.error();
    if (!*grant || (*grant)->client_id != client.id) {
      return Verdict{std::nullopt, InvalidGrant("The authorization code is unknown.")};
    }
    const storage::OAuthGrantRecord& g = **grant;
    if (g.code_used_at || g.revoked_at) {
      // RFC 9700 §4.5.3.1: a replayed code was likely stolen; what it issued is revoked.
      auto revoked = tx.oauth().RevokeOAuthGrant(g.id, now);
      if (!revoked) return revoked.error();
      return Verdict{std::nullopt, InvalidGrant("The authorization code was already used; the "
                                                "tokens issued with it are revoked.")};
    }
    if (now >= g.code_expires_at) {
      return Verdict{std::nullopt, InvalidGrant("The authorization code has expired.")};
    }
    if (redirect_uri && *redirect_uri != g.redirect_uri) {
      return Verdict{std::nullopt,
                     InvalidGrant("redirect_uri differs from the authorization request's.")};
    }
    if (!VerifierMatches(*verifier, g.code_challenge)) {
      return Verdict{std::nullopt, InvalidGrant("The PKCE code_verifier does not match.")};
    }
    auto claimed = tx.oauth().ClaimOAuthCode(g.id, now);
    if (!claimed) return claimed.error();
    if (!*claimed) {  // another exchange of the same code won the race: a replay all the same
      auto revoked = tx.oauth().RevokeOAuthGrant(g.id, now);
      if (!revoked) return revoked.error();
      return Verdict{std::nullopt, InvalidGrant("The authorization code was already used; the "
                                                "tokens issued with it are revoked.")};
    }
    auto tokens = IssueTokens(tx, g);
    if (!tokens) return tokens.error();
    return Verdict{std::move(*tokens), std::nullopt};
  });
  if (!verdict) return verdict.error();
  if (verdict->error) return *verdict->error;
  return std::move(*verdict->answer);
}

Result<json::object> AuthorizationServer::Refresh(const OAuthClient& client,
                                                  const TokenRequest& request) {
  auto refresh_token = Single(request.form, "refresh_token");
  if (!refresh_token) return refresh_token.error();
  if (!*refresh_token) return InvalidRequest("refresh_token is required.");
  auto scope = Single(request.form, "scope");
  if (!scope) return scope.error();
  auto resource = CheckResource(request.form);
  if (!resource) return resource.error();
  const std::int64_t now = NowMillis();
  auto verdict = store_.Write([&](storage::Transaction& tx) -> Result<Verdict> {
    const std::string hash = core::Sha256Hex(**refresh_token);
    auto found = tx.oauth().FindOAuthToken(hash);
    if (!found) return found.error();
    if (!*found || (*found)->token.kind != kRefresh || (*found)->grant.client_id != client.id) {
      return Verdict{std::nullopt, InvalidGrant("The refresh token is unknown.")};
    }
    const storage::OAuthGrantRecord& grant = (*found)->grant;
    const storage::OAuthTokenRecord& token = (*found)->token;
    if (grant.revoked_at || token.revoked_at) {
      return Verdict{std::nullopt, InvalidGrant("The refresh token was revoked.")};
    }
    if (*scope) {
      auto asked = ParseScope(**scope, settings_.grantable);
      if (!asked) return Verdict{std::nullopt, asked.error()};
      if (asked->Intersect(Consented(grant)) != *asked) {
        return Verdict{std::nullopt, Error(ErrorCode::kOAuthInvalidScope,
                                           "A refresh cannot widen the granted scope.")};
      }
    }
    // Rotation (OAuth 2.1 §4.3.1): an old refresh token coming back means two parties hold it,
    // and the whole grant ends, unless it is the client retrying a refresh whose answer it lost
    // (or two of its processes refreshing at once): within the grace window, while the token
    // that replaced it has never been used, the retry gets a new pair in that one's place.
    const auto spent = [&](const storage::OAuthTokenRecord& old) -> Result<Verdict> {
      if (old.replaced_by && now - old.used_at.value_or(0) <= kRetryGraceMillis) {
        auto successor = tx.oauth().FindOAuthToken(*old.replaced_by);
        if (!successor) return successor.error();
        if (*successor && !(*successor)->token.used_at && !(*successor)->token.revoked_at) {
          auto retired = tx.oauth().RevokeOAuthToken(*old.replaced_by, now);
          if (!retired) return retired.error();
          auto tokens = IssueTokens(tx, grant, hash);
          if (!tokens) return tokens.error();
          return Verdict{std::move(*tokens), std::nullopt};
        }
      }
      auto revoked = tx.oauth().RevokeOAuthGrant(grant.id, now);
      if (!revoked) return revoked.error();
      return Verdict{std::nullopt, InvalidGrant("The refresh token was already used; the grant "
                                                "is revoked.")};
    };
    if (token.used_at) return spent(token);
    if (now >= token.expires_at) {
      return Verdict{std::nullopt, InvalidGrant("The refresh token has expired.")};
    }
    auto claimed = tx.oauth().ClaimOAuthToken(hash, now);
    if (!claimed) return claimed.error();
    if (!*claimed) {  // a concurrent refresh with the same token won: judge it as spent
      auto again = tx.oauth().FindOAuthToken(hash);
      if (!again) return again.error();
      if (!*again) return Verdict{std::nullopt, InvalidGrant("The refresh token is unknown.")};
      return spent((*again)->token);
    }
    auto tokens = IssueTokens(tx, grant, hash);
    if (!tokens) return tokens.error();
    return Verdict{std::move(*tokens), std::nullopt};
  });
  if (!verdict) return verdict.error();
  if (verdict->error) return *verdict->error;
  return std::move(*verdict->answer);
}

Result<void> AuthorizationServer::Revoke(const TokenRequest& request) {
  auto token = Single(request.form, "token");
  if (!token) return token.error();
  if (!*token) return InvalidRequest("token is required.");
  auto client = AuthenticateClient(request);
  if (!client) return client.error();
  const std::int64_t now = NowMillis();
  return store_.Write([&](storage::Transaction& tx) -> Result<void> {
    const std::string hash = core::Sha256Hex(**token);
    auto found = tx.oauth().FindOAuthToken(hash);
    if (!found) return found.error();
    // RFC 7009 §2.2: an unknown token, or another client's, is answered like a revoked one.
    if (!*found || (*found)->grant.client_id != client->id) return {};
    if ((*found)->token.kind == kRefresh) {
      auto revoked = tx.oauth().RevokeOAuthGrant((*found)->grant.id, now);
      if (!revoked) return revoked.error();
      return {};
    }
    auto revoked = tx.oauth().RevokeOAuthToken(hash, now);
    if (!revoked) return revoked.error();
    return {};
  });
}

bool AuthorizationServer::LooksLikeAccessToken(std::string_view token) {
  return token.starts_with(kAccessPrefix);
}

Result<identity::Principal> AuthorizationServer::AuthenticateAccessToken(std::string_view token) {
  return AuthenticateGrantToken(token, settings_.resource, identity::CredentialKind::kMcpToken);
}

bool AuthorizationServer::LooksLikeCliToken(std::string_view token) {
  return token.starts_with(kCliAccessPrefix);
}

Result<identity::Principal> AuthorizationServer::AuthenticateCliToken(
    std::string_view token, std::string_view client_ip) {
  return AuthenticateGrantToken(token, settings_.cli_resource,
                                identity::CredentialKind::kCliToken, client_ip);
}

Result<identity::Principal> AuthorizationServer::AuthenticateGrantToken(
    std::string_view token, std::string_view resource, identity::CredentialKind kind,
    std::string_view client_ip) {
  const auto invalid = [] {
    return Error(ErrorCode::kAuthInvalidCredential, "The access token is unknown or revoked.");
  };
  const bool cli = kind == identity::CredentialKind::kCliToken;
  if (resource.empty() || !(cli ? LooksLikeCliToken(token) : LooksLikeAccessToken(token))) {
    return invalid();
  }
  const std::string hash = core::Sha256Hex(token);
  auto found =
      store_.Read([&](storage::Transaction& tx) { return tx.oauth().FindOAuthToken(hash); });
  if (!found) return found.error();
  if (!*found || !core::ConstantTimeEquals((*found)->token.hash, hash)) return invalid();
  const storage::OAuthTokenGrant& row = **found;
  if (row.token.kind != kAccess || row.token.revoked_at || row.grant.revoked_at ||
      row.grant.resource != resource) {
    return invalid();
  }
  const std::int64_t now = NowMillis();
  if (now >= row.token.expires_at) {
    return Error(ErrorCode::kAuthExpiredCredential, "The access token has expired; refresh it.");
  }
  identity::Principal principal;
  principal.kind = kind;
  principal.credential_id = row.grant.id;
  principal.user_id = row.grant.user_id;
  principal.organization_id = row.grant.organization_id;
  principal.organization_slug = row.organization_slug;
  principal.project_id = row.grant.project_id;
  principal.read_only = row.grant.read_only;
  // Consent ∩ the live role: a user who left the organization holds nothing (403 on every call,
  // as for a private API key whose creator left).
  if (row.role) {
    if (const auto role = identity::ParseRole(*row.role)) {
      const PermissionSet role_allows =
          identity::RolePermissions(*role).Intersect(GrantableFor(resource));
      principal.permissions = Consented(row.grant).Intersect(role_allows);
      principal.consentable = role_allows;
    }
  }
  if (!row.grant.last_used_at || now - *row.grant.last_used_at >= kTouchEveryMillis) {
    // Best effort: "last used" on the connected-clients list is approximate by design.
    // A command-line login's sessions list also shows where it was last used from.
    (void)store_.Write([&](storage::Transaction& tx) -> Result<void> {
      auto touched = tx.oauth().TouchOAuthGrant(row.grant.id, now);
      if (!touched || !cli || client_ip.empty()) return touched;
      return tx.oauth().RecordCliUse(row.grant.id, client_ip);
    });
  }
  return principal;
}

}  // namespace sightline::oauth
