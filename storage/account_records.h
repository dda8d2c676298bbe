// Rows of the accounts area (storage/account_repository.h), as plain values: users,
// organizations, memberships, projects, API keys, sign-in sessions, invitations, the audit log.
// Times are Unix milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

struct UserRecord {
  std::string id;
  std::string email;  // stored lowercased; unique
  std::string password_hash;  // libsodium argon2id string
  std::string first_name;
  std::string last_name;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  bool two_factor_enabled = false;  // set by the two-factor issue's enable/disable operations
};

struct OrganizationRecord {
  std::string id;
  std::string slug;  // unique, URL-safe
  std::string name;
  bool require_two_factor = false;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

struct MembershipRecord {
  std::string organization_id;
  std::string user_id;
  std::string role;  // owner, admin, developer, analyst, support
  std::int64_t created_at = 0;
};

struct ProjectRecord {
  std::string id;
  std::string organization_id;
  std::string name;
  std::string reporting_timezone = "UTC";
  bool bot_detection = true;
  bool event_storage = true;
  bool ip_logging = false;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  // The site's own domains (example.com covers its subdomains): a referrer within them is the
  // site itself, not a source (docs/reports.md, "Referrers").
  std::vector<std::string> domains;
};

enum class KeyKind { kSdk, kPrivate };

const char* KeyKindName(KeyKind kind);  // "sdk" / "private"
struct ApiKeyRecord {
  std::string id;
  std::string organization_id;
  std::string project_id;
  KeyKind kind = KeyKind::kSdk;
  std::string name;
  std::string secret_hash;     // SHA-256 hex of the whole key; a private key is never stored
  std::string display_prefix;  // e.g. "sk_service_AbC1" so people can tell keys apart
  std::optional<std::string> created_by;  // user id
  std::int64_t created_at = 0;
  std::optional<std::int64_t> revoked_at;
  // An SDK key itself: public by design (it sits in every tracked page and can only send
  // events), so it is kept to be shown and copied again. None for private keys and for SDK
  // keys made before it was kept.
  std::optional<std::string> public_key;
};

// A member of an organization: the user and their role.
struct MemberRecord {
  UserRecord user;
  std::string role;
  std::int64_t joined_at = 0;
};

// An organization seen from one of its members.
struct MembershipOfUser {
  OrganizationRecord organization;
  std::string role;
};

// A sign-in: one refresh-token family. Access tokens (JWT) name it as "sid", so revoking the
// session ends every token issued for it on the next request.
struct SessionRecord {
  std::string id;
  std::string user_id;
  std::string kind = "session";  // "session", or "two_factor_setup" for the setup token
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::optional<std::int64_t> revoked_at;
  std::optional<std::string> user_agent;
};

// One refresh token of a session, stored hashed. A token is used once: refreshing marks it used
// and issues the next; presenting a used token again revokes the whole session (theft).
struct RefreshTokenRecord {
  std::string token_hash;
  std::string session_id;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> used_at;
};

struct InvitationRecord {
  std::string id;
  std::string organization_id;
  std::string email;  // lowercased
  std::string role;
  std::string token_hash;  // SHA-256 hex of the invitation token; the token is shown once
  std::optional<std::string> invited_by;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::optional<std::int64_t> accepted_at;
  std::optional<std::string> accepted_by;
  std::optional<std::int64_t> revoked_at;
};

struct AuditRecord {
  std::string id;
  std::string organization_id;  // empty for account-level actions (stored as NULL)
  std::optional<std::string> project_id;
  std::optional<std::string> actor_user_id;
  std::string credential_kind;  // "user_session", "private_api_key", "mcp_token", "system"
  std::optional<std::string> credential_id;
  std::string action;  // "project.update", "member.remove", ...
  std::optional<std::string> target_type;
  std::optional<std::string> target_id;
  std::optional<std::string> request_id;
  std::string details_json = "{}";
  std::int64_t created_at = 0;
};

// Filters of the audit-log listing; newest first, `before` is the cursor of the last row seen.
struct AuditQuery {
  std::string organization_id;
  std::optional<std::string> actor_user_id;
  std::optional<std::string> action;
  std::optional<std::int64_t> from;  // inclusive, ms
  std::optional<std::int64_t> to;    // exclusive, ms
  std::optional<std::pair<std::int64_t, std::string>> before;  // (created_at, id), exclusive
  std::size_t limit = 50;
};

// A key with its creator's current role in the key's organization (nullopt when the creator
// is no longer a member): everything authentication needs, read in one query.
struct CredentialGrant {
  ApiKeyRecord key;
  std::optional<std::string> creator_role;
  // Read with the key, so a request needs no second read to know where it acts.
  OrganizationRecord organization;
  std::optional<ProjectRecord> project;
};

}  // namespace sightline::storage
