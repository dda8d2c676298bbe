// Rows of the OAuth and MCP area (storage/oauth_repository.h), as plain values: the clients,
// grants (consents with their authorization codes) and tokens of the /mcp authorization server,
// and MCP sessions. Times are Unix milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

// One MCP session (Streamable HTTP). Only the hash of its id is stored; `credential` names what
// opened it ("key:<key id>"), and requests presenting any other credential do not see it.
struct McpSessionRecord {
  std::string id_hash;
  std::string credential;
  std::string protocol_version;
  std::optional<std::string> client_name;
  std::optional<std::string> client_version;
  std::string log_level = "info";
  std::int64_t created_at = 0;
  std::int64_t last_used_at = 0;
  std::optional<std::int64_t> ended_at;
};

// A client of the OAuth authorization server: one that registered itself (RFC 7591, kind
// "registered") or one whose client_id is the URL of its metadata document (kind
// "metadata_document"; the row caches the fetched document).
struct OAuthClientRecord {
  std::string id;  // the client_id
  std::string kind;
  std::string name;
  std::string redirect_uris;  // a JSON array of strings
  std::string auth_method;    // none, client_secret_basic or client_secret_post
  std::optional<std::string> secret_hash;
  std::string metadata;  // the client's metadata as a JSON object, echoed on registration
  std::int64_t created_at = 0;
  std::int64_t fetched_at = 0;  // when a metadata document was last read
};

// One consent: a user let a client act in one project with a subset of their permissions.
// The authorization code the consent produced lives here too, hashed and single-use.
struct OAuthGrantRecord {
  std::string id;
  std::string client_id;
  std::string user_id;
  std::string organization_id;
  std::string project_id;
  std::string permissions;  // space-separated permission names: the granted scope
  bool read_only = false;
  std::string resource;  // the MCP URL the grant is for (RFC 8707)
  std::string redirect_uri;
  std::string code_hash;
  std::string code_challenge;  // PKCE S256
  std::int64_t code_expires_at = 0;
  std::optional<std::int64_t> code_used_at;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
  std::optional<std::int64_t> revoked_at;
};

// An access or refresh token of a grant, stored hashed. A refresh token is used once.
struct OAuthTokenRecord {
  std::string hash;
  std::string grant_id;
  std::string kind;  // "access" or "refresh"
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::optional<std::int64_t> used_at;
  std::optional<std::int64_t> revoked_at;
  std::optional<std::string> replaced_by;  // a spent refresh token: the hash of its successor
};

// A token with its grant and the grant user's live role in the grant's organization (nullopt
// when no longer a member): what authenticating an MCP request needs, in one query.
struct OAuthTokenGrant {
  OAuthTokenRecord token;
  OAuthGrantRecord grant;
  std::optional<std::string> role;
  std::string organization_slug;  // of the grant's organization, read with the token
};

// A grant with the names a user recognizes it by, for "connected MCP clients".
struct OAuthGrantView {
  OAuthGrantRecord grant;
  std::string client_name;
  std::string organization_slug;
  std::string project_name;
};

// A command-line login (RFC 8628 device flow): pending until the user approves or denies it;
// an approval links the OAuth grant made for it. Codes are stored as SHA-256 hashes.
struct CliSessionRecord {
  std::string id;
  std::string device_code_hash;
  std::string user_code_hash;  // of the normalized code (8 letters, no dash, upper case)
  std::string client_name, hostname, os;
  std::string requested_permissions;  // space-separated names; "" asks for what the role allows
  std::optional<std::string> requested_project_id;
  std::string ip, country, region, city;  // where the login started
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::int64_t interval_seconds = 5;
  std::optional<std::int64_t> last_polled_at;
  std::string status;  // pending, approved, denied or issued (the tokens went out)
  std::optional<std::string> user_id;
  std::optional<std::string> grant_id;
  std::optional<std::int64_t> decided_at;
  std::optional<std::string> last_used_ip;
};

// An approved command-line login with its grant and the names a user recognizes it by.
struct CliSessionView {
  CliSessionRecord session;
  OAuthGrantRecord grant;
  std::string organization_slug, organization_name, project_name;
};

}  // namespace sightline::storage
