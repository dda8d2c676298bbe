#include "core/error.h"

#include "core/clock.h"
#include "core/result.h"

#include <array>
#include <stdexcept>

namespace sightline::core {
namespace {

constexpr std::array kErrorTable = {
    ErrorInfo{ErrorCode::kAuthMalformedCredential, "AUTH_001", 401, "Malformed credential",
              "A credential was sent but is not of any form this route accepts."},
    ErrorInfo{ErrorCode::kAuthInvalidCredential, "AUTH_002", 401, "Invalid credential",
              "The credential is well formed but unknown or revoked."},
    ErrorInfo{ErrorCode::kAuthRequired, "AUTH_003", 401, "Authentication required",
              "No credential was sent to a route that needs one."},
    ErrorInfo{ErrorCode::kAuthExpiredCredential, "AUTH_004", 401, "Credential expired",
              "The credential was valid once but has expired."},
    ErrorInfo{ErrorCode::kAuthWrongCredentialKind, "AUTH_005", 401,
              "Credential kind not accepted here",
              "A valid credential of a kind this route does not accept (an SDK key on a private "
              "route, for example)."},
    ErrorInfo{ErrorCode::kAuthBadLogin, "AUTH_006", 401, "Invalid email or password",
              "Sign-in with an unknown email or a wrong password (the two are not told apart)."},
    ErrorInfo{ErrorCode::kAuthBadTwoFactorCode, "AUTH_007", 400, "Invalid two-factor code",
              "The authenticator or backup code is wrong, expired, or was used already (each "
              "code is accepted once). Repeated wrong codes are throttled (AUTH_014)."},
    ErrorInfo{ErrorCode::kAuthNoPendingTwoFactor, "AUTH_008", 400, "No pending two-factor setup",
              "Enabling two-factor authentication needs a setup started with "
              "`POST /users/me/2fa/setup` first."},
    ErrorInfo{ErrorCode::kAuthTwoFactorEnabled, "AUTH_009", 409,
              "Two-factor authentication already enabled",
              "Disable it first to set up a new authenticator."},
    ErrorInfo{ErrorCode::kAuthTwoFactorNotEnabled, "AUTH_010", 400,
              "Two-factor authentication not enabled",
              "Backup codes belong to an enabled second factor."},
    ErrorInfo{ErrorCode::kAuthTwoFactorRequired, "AUTH_011", 403,
              "Two-factor authentication required by an organization",
              "An organization the user belongs to requires two-factor authentication, so it "
              "cannot be disabled; `details.organizations` lists them "
              "(TwoFactorDisableForbiddenResponse)."},
    ErrorInfo{ErrorCode::kAuthWrongPassword, "AUTH_012", 400, "Wrong password",
              "The password given to confirm a security change is not the account's."},
    ErrorInfo{ErrorCode::kAuthBadPasskey, "AUTH_013", 400, "Passkey not accepted",
              "The passkey response does not verify: wrong challenge, origin or relying party, "
              "a bad signature, an unknown or another user's credential, an unsupported key "
              "type, or a signature counter that went backwards (a cloned authenticator)."},
    ErrorInfo{ErrorCode::kAuthRateLimited, "AUTH_014", 429, "Rate limit exceeded",
              "The credential used up its requests for the current window; `Retry-After` and "
              "`details.retryAfterSeconds` say when to retry."},
    ErrorInfo{ErrorCode::kPermDenied, "PERM_001", 403, "Permission denied",
              "The credential was accepted but lacks the permission the operation requires. "
              "Retrying with the same credential never helps."},
    ErrorInfo{ErrorCode::kValComparison, "VAL_001", 400, "Invalid comparison request",
              "A lone `compareFrom`/`compareTo`, a reversed pair, or a comparison window starting "
              "more than one year before the selection."},
    ErrorInfo{ErrorCode::kValMalformedJson, "VAL_002", 400, "Malformed JSON",
              "The request body is not valid JSON, or not a JSON object where one is required."},
    ErrorInfo{ErrorCode::kValInvalidParameter, "VAL_003", 400, "Invalid parameter",
              "A parameter is missing, of the wrong type or out of range; `details.field` names "
              "it."},
    ErrorInfo{ErrorCode::kValBodyTooLarge, "VAL_004", 413, "Request body too large",
              "The request body exceeds the server's body limit (`--max-body-bytes`)."},
    ErrorInfo{ErrorCode::kValHeadersTooLarge, "VAL_005", 431, "Request headers too large",
              "The request line and headers exceed the server's header limit."},
    ErrorInfo{ErrorCode::kValUnsupportedMediaType, "VAL_006", 415, "Unsupported media type",
              "A body was sent with a `Content-Type` other than `application/json`."},
    ErrorInfo{ErrorCode::kValBadRequest, "VAL_007", 400, "Bad request",
              "The HTTP request itself could not be parsed."},
    ErrorInfo{ErrorCode::kOrgNotFound, "ORG_001", 404, "Organization not found",
              "The organization does not exist or is not visible to this credential."},
    ErrorInfo{ErrorCode::kOrgSlugTaken, "ORG_002", 409, "Organization slug taken",
              "Another organization already uses this slug, or it is reserved; "
              "`details.field` is `slug`."},
    ErrorInfo{ErrorCode::kOrgLastOwner, "ORG_003", 409, "Last owner",
              "The change would leave the organization without an owner."},
    ErrorInfo{ErrorCode::kOrgAlreadyMember, "ORG_004", 409, "Already a member",
              "The person is already a member of the organization."},
    ErrorInfo{ErrorCode::kOrgInvitationNotPending, "ORG_005", 409, "Invitation not pending",
              "The invitation was already accepted or revoked, or has expired."},
    ErrorInfo{ErrorCode::kProjectNotFound, "PROJECT_001", 404, "Project not found",
              "The project does not exist or is not visible to this credential."},
    ErrorInfo{ErrorCode::kProjectNameTaken, "PROJECT_002", 409, "Project name taken",
              "The organization already has a project with this name; `details.field` is "
              "`name`."},
    ErrorInfo{ErrorCode::kRouteNotFound, "REQ_001", 404, "No such route",
              "No operation is served at this path."},
    ErrorInfo{ErrorCode::kMethodNotAllowed, "REQ_002", 405, "Method not allowed",
              "The path exists but not with this HTTP method; `Allow` lists the methods."},
    ErrorInfo{ErrorCode::kConflict, "REQ_003", 409, "Conflict",
              "The request conflicts with the current state of the resource."},
    ErrorInfo{ErrorCode::kResourceNotFound, "REQ_004", 404, "Not found",
              "The member, invitation or key does not exist or is not visible to this "
              "credential; `details.resource` names the kind."},
    ErrorInfo{ErrorCode::kOriginNotAllowed, "REQ_005", 403, "Origin not allowed",
              "A browser request to `/api/mcp` from an origin the server does not trust, or with a "
              "`Host` that is not the server's (DNS-rebinding protection)."},
    ErrorInfo{ErrorCode::kNotAcceptable, "REQ_006", 406, "Not acceptable",
              "The `Accept` header rules out every media type the route answers with (`/api/mcp` "
              "needs both `application/json` and `text/event-stream`)."},
    ErrorInfo{ErrorCode::kMcpSessionRequired, "MCP_001", 400, "MCP session required",
              "A request to `/api/mcp` other than `initialize` came without `MCP-Session-Id`."},
    ErrorInfo{ErrorCode::kMcpSessionNotFound, "MCP_002", 404, "MCP session not found",
              "The `MCP-Session-Id` is unknown, was ended (DELETE), expired, or belongs to another "
              "credential; the client starts a new session with `initialize`."},
    ErrorInfo{ErrorCode::kMcpUnsupportedVersion, "MCP_003", 400, "Unsupported MCP protocol version",
              "`MCP-Protocol-Version` names a revision this server does not speak; "
              "`details.supported` lists those it does."},
    ErrorInfo{ErrorCode::kOAuthInvalidRequest, "OAUTH_001", 400, "Invalid OAuth request",
              "An OAuth request lacks a required parameter, repeats one, or has one that is "
              "malformed (for example PKCE other than S256).",
              "invalid_request"},
    ErrorInfo{ErrorCode::kOAuthInvalidClient, "OAUTH_002", 401, "Invalid OAuth client",
              "The client is unknown, or its authentication at the token endpoint failed.",
              "invalid_client"},
    ErrorInfo{ErrorCode::kOAuthInvalidGrant, "OAUTH_003", 400, "Invalid grant",
              "The authorization code or refresh token is unknown, expired, revoked, already "
              "used, or was issued to another client, redirect URI or PKCE verifier.",
              "invalid_grant"},
    ErrorInfo{ErrorCode::kOAuthUnauthorizedClient, "OAUTH_004", 400, "Unauthorized client",
              "The client may not use this grant type or response type.", "unauthorized_client"},
    ErrorInfo{ErrorCode::kOAuthUnsupportedGrant, "OAUTH_005", 400, "Unsupported grant type",
              "The token endpoint serves `authorization_code` and `refresh_token` only.",
              "unsupported_grant_type"},
    ErrorInfo{ErrorCode::kOAuthInvalidScope, "OAUTH_006", 400, "Invalid scope",
              "A requested scope is not a permission this server grants, or a refresh asked for "
              "more than the grant holds.",
              "invalid_scope"},
    ErrorInfo{ErrorCode::kOAuthInvalidTarget, "OAUTH_007", 400, "Invalid target",
              "The `resource` (RFC 8707) is not this server's MCP URL or not the one the grant "
              "was made for.",
              "invalid_target"},
    ErrorInfo{ErrorCode::kOAuthInvalidRedirectUri, "OAUTH_008", 400, "Invalid redirect URI",
              "A registered or requested redirect URI is not an absolute https URL or a loopback "
              "http URL, or does not match the client's registration.",
              "invalid_redirect_uri"},
    ErrorInfo{ErrorCode::kOAuthInvalidMetadata, "OAUTH_009", 400, "Invalid client metadata",
              "Dynamic registration metadata, or a client metadata document, is malformed or "
              "asks for something this server does not support.",
              "invalid_client_metadata"},
    ErrorInfo{ErrorCode::kOAuthInsufficientScope, "OAUTH_010", 403, "Insufficient scope",
              "The MCP connection's consent does not include the permission this tool needs; "
              "`WWW-Authenticate` names the scope to ask for.",
              "insufficient_scope"},
    ErrorInfo{ErrorCode::kOAuthUnsupportedResponseType, "OAUTH_011", 400,
              "Unsupported response type",
              "The authorization endpoint serves `response_type=code` only.",
              "unsupported_response_type"},
    ErrorInfo{ErrorCode::kOAuthAuthorizationPending, "OAUTH_012", 400, "Authorization pending",
              "A command-line login (RFC 8628 device flow) is still waiting for the user to "
              "approve it in the browser; poll again after `interval` seconds.",
              "authorization_pending"},
    ErrorInfo{ErrorCode::kOAuthSlowDown, "OAUTH_013", 400, "Slow down",
              "A command-line login was polled faster than its interval; the interval grew by "
              "5 seconds (`details.interval`).",
              "slow_down"},
    ErrorInfo{ErrorCode::kOAuthAccessDenied, "OAUTH_014", 403, "Access denied",
              "The user denied the command-line login in the browser.", "access_denied"},
    ErrorInfo{ErrorCode::kOAuthExpiredToken, "OAUTH_015", 400, "Login expired",
              "The command-line login's device code expired before it was approved (10 "
              "minutes); start a new login.",
              "expired_token"},
    ErrorInfo{ErrorCode::kCliLoginNotFound, "CLI_001", 404, "Command-line login not found",
              "No pending command-line login has this user code or id: it is mistyped, "
              "expired, or was already approved or denied."},
    ErrorInfo{ErrorCode::kAgentNotConfigured, "AGENT_001", 503, "Assistant not configured",
              "The agent assistant has no language model provider configured on this server; "
              "`get_agent_status` says so too. Nothing was stored."},
    ErrorInfo{ErrorCode::kAgentBusy, "AGENT_002", 409, "Answer in progress",
              "The assistant is still answering in this conversation (or waits for a decision "
              "on a tool call it proposed); wait for the answer, or cancel it, then send again."},
    ErrorInfo{ErrorCode::kAgentProviderFailed, "AGENT_003", 502, "Language model provider failed",
              "The language model provider could not be reached, refused the request or did not "
              "answer in time; `details` says which. The question stays in the conversation."},
    ErrorInfo{ErrorCode::kAiNothingToRun, "AIV_001", 409, "Nothing to run",
              "An AI-visibility run needs at least one active prompt and one active engine in "
              "the project; add them first. No run was created."},
    ErrorInfo{ErrorCode::kAiBudgetReached, "AIV_002", 429, "AI-visibility budget reached",
              "The project reached its daily budget of runs or tokens (`details.budget`, "
              "`details.limit`, `details.used`); raise it in the AI-visibility settings or wait "
              "until the past 24 hours hold less. A run that reaches the token budget stops and "
              "skips its remaining answers."},
    ErrorInfo{ErrorCode::kAiEngineKeyUnreadable, "AIV_003", 503, "Engine key unreadable",
              "The engine's API key was sealed with another encryption key than the server's "
              "(`--encryption-key-file`); set the key again with `update_ai_engine`."},
    ErrorInfo{ErrorCode::kAuditSiteNotVerified, "AUDIT_001", 409, "Site ownership not proven",
              "ServiceAuditBot crawls only sites whose ownership the project proved: publish the "
              "site's token (file, meta tag or DNS TXT record) and call `verify_audit_site`."},
    ErrorInfo{ErrorCode::kAuditCrawlActive, "AUDIT_002", 409, "Crawl already running",
              "The site has a queued or running crawl (`details.crawlId`); wait for it or cancel "
              "it first."},
    ErrorInfo{ErrorCode::kAuditSiteExists, "AUDIT_003", 409, "Site already added",
              "The project already has this site (`details.siteId`)."},
    ErrorInfo{ErrorCode::kInternal, "SYS_001", 500, "Internal error",
              "An unexpected failure; the `X-Request-Id` locates it in the server's log."},
    ErrorInfo{ErrorCode::kUnavailable, "SYS_002", 503, "Service unavailable",
              "The server is at capacity (connection cap, full queue) or shutting down; retry "
              "later."},
    ErrorInfo{ErrorCode::kStorageUnavailable, "SYS_003", 503, "Storage unavailable",
              "The database could not be reached or is busy; `Retry-After` says when to retry."},
};

constexpr bool TableMatchesEnumOrder() {
  for (std::size_t i = 0; i < kErrorTable.size(); ++i) {
    if (static_cast<std::size_t>(kErrorTable[i].code) != i) return false;
  }
  return true;
}
static_assert(TableMatchesEnumOrder(), "kErrorTable must list every ErrorCode in enum order");

}  // namespace

std::span<const ErrorInfo> AllErrorInfos() { return kErrorTable; }

const ErrorInfo& Describe(ErrorCode code) {
  return kErrorTable.at(static_cast<std::size_t>(code));
}

Error::Error(ErrorCode code, std::string message, boost::json::object details)
    : code_(code), message_(std::move(message)), details_(std::move(details)) {}

Error Error::Invalid(std::string field, std::string message) {
  boost::json::object details;
  details["field"] = field;
  return Error(ErrorCode::kValInvalidParameter, std::move(message), std::move(details));
}

Error Error::Internal(std::string internal_message) {
  Error error(ErrorCode::kInternal, "An unexpected error occurred.");
  error.WithInternal(std::move(internal_message));
  return error;
}

Error Error::NotFound(ErrorCode code, std::string message) {
  return Error(code, std::move(message));
}

void throw_exception_from_error(const Error& error, const boost::source_location& loc) {
  throw std::logic_error(std::string("unchecked Result error ") + std::string(error.info().id) +
                         ": " + error.message() + " " + error.internal() + " at " +
                         loc.file_name() + ":" + std::to_string(loc.line()));
}

boost::json::object ErrorResponseBody(const Error& error, std::int64_t now_millis,
                                      std::string_view request_id) {
  boost::json::object inner;
  inner["code"] = error.info().id;
  inner["message"] = error.message();
  if (!error.details().empty()) inner["details"] = error.details();
  boost::json::object body;
  body["error"] = std::move(inner);
  body["timestamp"] = FormatRfc3339(now_millis);
  if (!request_id.empty()) body["requestId"] = request_id;
  return body;
}

}  // namespace sightline::core
