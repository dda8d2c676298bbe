// The one error type of Sightline and its code table.
//
// Every failure a client can see is an `Error` carrying an `ErrorCode`. The code table in
// error.cpp maps each code to its public id ("AUTH_003"), its HTTP status and a title; the
// ErrorResponse renderer in api/ is the only place that turns an Error into bytes.
// Error is a cheap-to-move value type; it is safe to copy between threads.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sightline::core {

enum class ErrorCode : std::uint16_t {
  kAuthMalformedCredential,  // AUTH_001
  kAuthInvalidCredential,    // AUTH_002
  kAuthRequired,             // AUTH_003
  kAuthExpiredCredential,    // AUTH_004
  kAuthWrongCredentialKind,  // AUTH_005
  kAuthBadLogin,             // AUTH_006
  kAuthBadTwoFactorCode,     // AUTH_007
  kAuthNoPendingTwoFactor,   // AUTH_008
  kAuthTwoFactorEnabled,     // AUTH_009
  kAuthTwoFactorNotEnabled,  // AUTH_010
  kAuthTwoFactorRequired,    // AUTH_011
  kAuthWrongPassword,        // AUTH_012
  kAuthBadPasskey,           // AUTH_013
  kAuthRateLimited,          // AUTH_014
  kPermDenied,               // PERM_001
  kValComparison,            // VAL_001
  kValMalformedJson,         // VAL_002
  kValInvalidParameter,      // VAL_003
  kValBodyTooLarge,          // VAL_004
  kValHeadersTooLarge,       // VAL_005
  kValUnsupportedMediaType,  // VAL_006
  kValBadRequest,            // VAL_007
  kOrgNotFound,              // ORG_001
  kOrgSlugTaken,             // ORG_002
  kOrgLastOwner,             // ORG_003
  kOrgAlreadyMember,         // ORG_004
  kOrgInvitationNotPending,  // ORG_005
  kProjectNotFound,          // PROJECT_001
  kProjectNameTaken,         // PROJECT_002
  kRouteNotFound,            // REQ_001
  kMethodNotAllowed,         // REQ_002
  kConflict,                 // REQ_003
  kResourceNotFound,         // REQ_004
  kOriginNotAllowed,         // REQ_005
  kNotAcceptable,            // REQ_006
  kMcpSessionRequired,       // MCP_001
  kMcpSessionNotFound,       // MCP_002
  kMcpUnsupportedVersion,    // MCP_003
  kOAuthInvalidRequest,      // OAUTH_001
  kOAuthInvalidClient,       // OAUTH_002
  kOAuthInvalidGrant,        // OAUTH_003
  kOAuthUnauthorizedClient,  // OAUTH_004
  kOAuthUnsupportedGrant,    // OAUTH_005
  kOAuthInvalidScope,        // OAUTH_006
  kOAuthInvalidTarget,       // OAUTH_007
  kOAuthInvalidRedirectUri,  // OAUTH_008
  kOAuthInvalidMetadata,     // OAUTH_009
  kOAuthInsufficientScope,   // OAUTH_010
  kOAuthUnsupportedResponseType,  // OAUTH_011
  kOAuthAuthorizationPending,     // OAUTH_012
  kOAuthSlowDown,                 // OAUTH_013
  kOAuthAccessDenied,             // OAUTH_014
  kOAuthExpiredToken,             // OAUTH_015
  kCliLoginNotFound,              // CLI_001
  kAgentNotConfigured,       // AGENT_001
  kAgentBusy,                // AGENT_002
  kAgentProviderFailed,      // AGENT_003
  kAiNothingToRun,           // AIV_001
  kAiBudgetReached,          // AIV_002
  kAiEngineKeyUnreadable,    // AIV_003
  kAuditSiteNotVerified,     // AUDIT_001
  kAuditCrawlActive,         // AUDIT_002
  kAuditSiteExists,          // AUDIT_003
  kInternal,                 // SYS_001
  kUnavailable,              // SYS_002
  kStorageUnavailable,       // SYS_003
};

struct ErrorInfo {
  ErrorCode code;
  std::string_view id;  // the public, stable code clients branch on
  int http_status;
  std::string_view title;        // one line for docs/errors.md
  std::string_view when;         // when the server answers with it
  // The RFC 6749 / 7591 / 8707 `error` value the OAuth endpoints answer with; empty for codes
  // that are not OAuth's own.
  std::string_view oauth_error = {};
};

// The whole table, in declaration order of ErrorCode. Used by docs generation and tests.
std::span<const ErrorInfo> AllErrorInfos();
const ErrorInfo& Describe(ErrorCode code);

class Error {
 public:
  // Default: an internal error (boost::system::result requires a default-constructible E).
  Error() : Error(ErrorCode::kInternal, "An unexpected error occurred.") {}
  Error(ErrorCode code, std::string message, boost::json::object details = {});

  // Named constructors for the common cases.
  static Error Invalid(std::string field, std::string message);  // VAL_003 with details.field
  static Error Internal(std::string internal_message);           // SYS_001; message is generic
  static Error NotFound(ErrorCode code, std::string message);

  ErrorCode code() const { return code_; }
  const ErrorInfo& info() const { return Describe(code_); }
  int http_status() const { return info().http_status; }
  const std::string& message() const { return message_; }
  const boost::json::object& details() const { return details_; }
  boost::json::object& mutable_details() { return details_; }

  // Diagnostic text for logs only; never sent to clients.
  const std::string& internal() const { return internal_; }
  Error& WithInternal(std::string text) {
    internal_ = std::move(text);
    return *this;
  }

 private:
  ErrorCode code_;
  std::string message_;
  boost::json::object details_;
  std::string internal_;
};

// The ErrorResponse body, the one shape every failure takes on the wire (REST bodies, MCP tool
// errors): {"error":{"code","message","details"?},"timestamp":"<RFC 3339>","requestId"?}.
boost::json::object ErrorResponseBody(const Error& error, std::int64_t now_millis,
                                      std::string_view request_id);

}  // namespace sightline::core
