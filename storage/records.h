// Rows of the store, as plain values. Times are Unix milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sightline::storage {

struct UserRecord {
  std::string id;
  std::string email;  // stored lowercased; unique
  std::string password_hash;  // libsodium argon2id string
  std::string first_name;
  std::string last_name;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
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
};

enum class KeyKind { kSdk, kPrivate };
const char* KeyKindName(KeyKind kind);  // "sdk" / "private"

struct ApiKeyRecord {
  std::string id;
  std::string organization_id;
  std::string project_id;
  KeyKind kind = KeyKind::kSdk;
  std::string name;
  std::string secret_hash;     // SHA-256 hex of the whole key; the key itself is never stored
  std::string display_prefix;  // e.g. "sk_service_AbC1" so people can tell keys apart
  std::optional<std::string> created_by;  // user id
  std::int64_t created_at = 0;
  std::optional<std::int64_t> revoked_at;
};

// A key with its creator's current role in the key's organization (nullopt when the creator
// is no longer a member): everything authentication needs, read in one query.
struct CredentialGrant {
  ApiKeyRecord key;
  std::optional<std::string> creator_role;
};

// One tracked event as stored, enrichment included (the spec's `__` tags, unprefixed).
struct EventRecord {
  std::string id;
  std::string project_id;
  std::int64_t occurred_at = 0;  // client timestamp, or receipt time
  std::int64_t received_at = 0;
  std::string event;
  std::string channel;
  std::optional<std::string> user_id, anonymous_id, session_id;
  std::optional<std::string> icon, description;
  bool notify = false;
  std::string tags_json = "{}";  // the client's own tags, a JSON object
  std::optional<std::string> ip;  // kept only when the project logs IPs
  std::optional<std::string> user_agent;
  std::optional<std::string> browser, browser_version, os, os_version, device, brand, model;
  std::optional<double> device_confidence;
  std::optional<std::string> signal_source;
  bool in_app = false;
  std::optional<std::string> country, region, city;
  std::optional<std::string> path, referrer;
  std::optional<std::string> utm_source, utm_medium, utm_campaign, utm_term, utm_content;
  bool is_bot = false;
  std::optional<std::string> actor_type, bot_name, bot_vendor, actor_category;
  bool actor_verified = false;
  std::optional<std::string> verification_method;
  std::optional<double> actor_confidence;
  bool is_ai = false;
};

// One classified crawler request forwarded by a customer's server, edge or log drain.
struct BotRequestRecord {
  std::string id;
  std::string project_id;
  std::int64_t occurred_at = 0;
  std::int64_t received_at = 0;
  std::string event = "server_request";
  std::string source = "server";  // "server" or the log-drain source name
  std::optional<std::string> ip;
  std::string user_agent;
  std::optional<std::string> method, host, path, referrer;
  std::string actor_type;
  std::optional<std::string> bot_name, bot_vendor, actor_category;
  bool actor_verified = false;
  std::string verification_method = "none";
  double actor_confidence = 0;
  bool is_ai = false;
  std::optional<std::string> country;
  bool counts_toward_usage = true;  // false for the service's own verified crawler
};

}  // namespace sightline::storage
