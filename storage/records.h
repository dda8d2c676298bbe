// Rows of the store, as plain values. Times are Unix milliseconds (UTC).
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

// A user's two-factor authentication (TOTP) state; secrets are the raw key bytes, base32.
struct TwoFactorRecord {
  std::string user_id;
  std::optional<std::string> secret;          // set once enabled
  std::optional<std::string> pending_secret;  // between setup and enable
  std::optional<std::int64_t> pending_created_at;
  std::optional<std::int64_t> enabled_at;
  std::int64_t last_step = 0;  // the last TOTP time step accepted
};

// A passkey (WebAuthn credential) of a user.
struct PasskeyRecord {
  std::string id;
  std::string user_id;
  std::string credential_id;  // base64url of the raw id
  std::string public_key;     // base64url of the COSE_Key
  std::int64_t algorithm = 0;  // COSE: -7 ES256, -8 EdDSA
  std::int64_t sign_count = 0;
  std::string aaguid;      // hex; all zeros when the authenticator does not say
  std::string label;
  std::string transports;  // comma-separated ("internal,hybrid")
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
};

// A WebAuthn ceremony in progress: the challenge the server issued, used once.
struct WebAuthnChallengeRecord {
  std::string id;
  std::optional<std::string> user_id;  // registration: the user; sign-in: none yet
  std::string purpose;                 // "register" or "authenticate"
  std::string challenge;               // base64url
  std::int64_t expires_at = 0;
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

// Links a visitor's anonymous id to an identified user (identify).
struct IdentityRecord {
  std::string project_id;
  std::string anonymous_id;
  std::string user_id;
  std::string traits_json = "{}";
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

// Events counted for a project in one calendar month (UTC), for usage and billing figures.
struct UsageRecord {
  std::string project_id;
  std::string month;  // "2026-11"
  std::int64_t human_events = 0;
  std::int64_t bot_events = 0;
};

// A real-time notification raised by an event sent with `notify: true`.
struct NotificationRecord {
  std::string id;
  std::string project_id;
  std::string event_id;
  std::string event;
  std::string channel;
  std::optional<std::string> icon;
  std::optional<std::string> description;
  std::optional<std::string> user_id;
  std::int64_t created_at = 0;
};

// Filters of the events feed; newest first, `before` is the cursor of the last row seen.
struct EventQuery {
  std::string project_id;
  std::optional<std::string> channel;
  std::optional<std::string> event;
  std::optional<std::string> user_id;
  std::optional<std::int64_t> from;  // inclusive, ms
  std::optional<std::int64_t> to;    // exclusive, ms
  std::optional<std::pair<std::int64_t, std::string>> before;  // (occurred_at, id), exclusive
  std::size_t limit = 50;
};

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

// One conversation with the agent assistant, owned by a user in a project.
struct AgentConversationRecord {
  std::string id;
  std::string organization_id;
  std::string project_id;
  std::string user_id;
  std::optional<std::string> workflow_id;
  std::string title;
  // "idle", "running", "canceling" (a stop was asked) or "awaiting_approval"
  std::string status = "idle";
  std::optional<std::int64_t> run_started_at;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

// One message of a conversation, in order (`seq` from 1).
struct AgentMessageRecord {
  std::string conversation_id;
  std::int64_t seq = 0;
  std::string id;
  std::string role;     // "user", "assistant", "tool_call" or "tool_result"
  std::string content;  // text; JSON for tool calls and results
  std::optional<std::string> tool_call_id;
  std::optional<std::string> tool_name;
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::int64_t created_at = 0;
  // Tool calls of write operations: "pending" until the user decides, then "approved" or
  // "rejected"; nullopt for everything else.
  std::optional<std::string> approval;
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

// A vendor's IP-range list as last fetched (the vendor's own JSON).
struct BotRangeListRecord {
  std::string list_id;
  std::string body;
  std::int64_t fetched_at = 0;
};

// ---- Report rollups (storage/repository_rollups.cpp): each local day of a reporting zone, and
// each local hour of it, aggregated once from the raw rows and rebuilt when they change.

// Persisted in the rollup tables' `span` column: a local day, a local hour, or an aligned
// block of 2, 4, 8, 16 or 32 local days (a block of 2^k days starts on a day number divisible
// by 2^k, counting from 1970-01-01), merged from its two halves so that a long window reads a
// few blocks instead of every day.
enum class RollupSpan : std::int64_t {
  kDay = 0, kHour = 1, kDays2 = 2, kDays4 = 3, kDays8 = 4, kDays16 = 5, kDays32 = 6
};
inline constexpr int kRollupBlockLevels = 5;  // kDays2 … kDays32
// The block span of 2^level days (level 1 … kRollupBlockLevels).
constexpr RollupSpan BlockSpan(int level) { return static_cast<RollupSpan>(level + 1); }
constexpr int BlockLevel(RollupSpan span) { return static_cast<int>(span) - 1; }

// Which raw rows changed: events ('w', web analytics) or crawler requests ('b').
enum class RollupSource : char { kWeb = 'w', kBots = 'b' };

// A UTC hour (unix_ms / 3 600 000) whose rows changed since its days were last rolled up. A
// builder clears the mark only if `generation` is still the one it read.
struct RollupMark {
  RollupSource source = RollupSource::kWeb;
  std::int64_t hour = 0;
  std::int64_t generation = 0;
};

// One human event outside `__analytics` as the web rollup reads it; nullopt columns read "".
struct RollupEvent {
  std::string id;
  std::optional<std::string> session_id;
  std::string visitor;  // the anonymous id, else the user id, else ""
  std::int64_t occurred_at = 0;
  std::string event, channel, path, referrer;
  std::string utm_source, utm_medium, utm_campaign, utm_term, utm_content;
  std::string country, region, city, browser, os, device;
};

// What a breakdown groups by. Pages count pageviews (`screen_view` events); entry and exit
// pages count visits by their first and last pageview; channel and event count events; every
// other dimension counts visitors. The numbers are persisted (web_rollups.dimension).
enum class WebDimension {
  kPage = 1, kEntryPage, kExitPage, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm,
  kUtmContent, kCountry, kRegion, kCity, kBrowser, kOs, kDevice, kChannel, kEvent
};
// web_rollups.dimension of the rows that hold a whole period's figures (value "").
inline constexpr std::int64_t kWebTotalsDimension = 0;

// One period (a local day or hour) of web analytics, for the whole period or one value of a
// dimension. Visit figures belong to the period the visit started in.
struct WebRollupRow {
  RollupSpan span = RollupSpan::kDay;
  std::int64_t dimension = kWebTotalsDimension;
  std::int64_t period_start = 0;  // UTC ms of the local day's or hour's start
  std::string value;
  std::int64_t events = 0;     // the rows this value counts (events, pageviews or visits)
  std::int64_t pageviews = 0;  // `screen_view` events among them
  std::int64_t visits = 0, bounces = 0;
  std::int64_t duration_ms = 0;  // sum over visits of last event − first event
  std::int64_t timed_views = 0;  // pageviews followed by another one of their visit
  std::int64_t view_ms = 0;      // sum over those of the time to the next pageview
  std::string visitors;          // a serialized core::DistinctSketch
};

// Crawler requests of one period, in rows of one kind (persisted in bot_rollups.kind):
// - kAgent: per bot name, vendor, category, AI flag and verification outcome;
// - kCountry, kPath: the same per country or path (`value`), for filtered rankings;
// - narrow rows for the unfiltered rankings, every other column "" (or 0):
//   kCountryBot per country and bot name, kPathOnly per path, kPathVendor per path and vendor.
// Missing names read "". Every kind but kPath and kPathVendor (nearly a row per request) is
// also rolled up into blocks of days.
enum class BotRollupKind : std::int64_t {
  kAgent = 0, kCountry = 1, kPath = 2, kCountryBot = 3, kPathOnly = 4, kPathVendor = 5
};

// ---- Crawler reports, read from the rollups.

// What a crawler report groups by: the bot's name, its vendor, the client's country, the actor
// category, or the requested path. A missing value groups as "".
enum class BotGrouping { kBot, kVendor, kCountry, kCategory, kPath };

// Rolled-up periods of one span, by their starts.
struct RollupPeriods {
  RollupSpan span = RollupSpan::kDay;
  std::vector<std::int64_t> starts;
};

// The periods a report reads: `span` rows of `zone` starting in [start_ms, end_ms) or, when
// `blocks` is set, exactly those periods (the same window cut into the largest blocks rolled
// up; rows of a kind without blocks are still read by day).
struct RollupRange {
  std::string project_id;
  std::string zone;
  RollupSpan span = RollupSpan::kDay;
  std::int64_t start_ms = 0;  // inclusive
  std::int64_t end_ms = 0;    // exclusive
  std::vector<RollupPeriods> blocks;
};

// A block of days rolled up (rollup_blocks).
struct RollupBlock {
  RollupSpan span = RollupSpan::kDays2;
  std::int64_t start_ms = 0;
};

struct BotReportQuery {
  RollupRange range;
  BotGrouping grouping = BotGrouping::kBot;
  // Filters (nullopt: any).
  std::optional<std::string> actor_type;  // verified_bot, spoofed_bot, suspected_bot, unknown
  std::optional<bool> is_ai;
  std::optional<std::string> vendor;  // exact vendor name
  std::optional<std::string> search;  // case-insensitive substring of the bot's name or vendor
  // Only these group keys (the selected period's rows, for their comparison figures).
  std::optional<std::vector<std::string>> keys;
  std::int64_t limit = 1000;
  std::int64_t offset = 0;
};

// One group: requests, distinct bots (not counted per path: 0), and (grouping by bot) the
// bot's attribution.
struct BotGroupRow {
  std::string key;
  std::int64_t requests = 0;
  std::int64_t distinct_bots = 0;
  std::optional<std::string> vendor, category;
  bool is_ai = false;
};

struct BotGroupTotals {
  std::int64_t groups = 0;
  std::int64_t requests = 0;
};

// Requests of one group in one rolled-up period.
struct BotPeriodRow {
  std::int64_t period_start = 0;
  std::string key;
  std::int64_t requests = 0;
};

// ---- Web analytics, read from the rollups.

struct WebRollupQuery {
  RollupRange range;
  std::int64_t dimension = kWebTotalsDimension;
  std::optional<std::vector<std::string>> values;  // only these values
};

// A dimension's values ranked by their stored row count (`events`), then value.
struct WebValueCount {
  std::string value;
  std::int64_t count = 0;
};
struct WebValueRanking {
  std::vector<WebValueCount> page;  // the `limit` values after `offset`
  std::int64_t values = 0;          // values in the whole ranking
};

struct PageDurationRow {
  std::string path;
  std::int64_t pageviews = 0;
  std::int64_t measured = 0;     // pageviews followed by another pageview of the same visit
  std::int64_t duration_ms = 0;  // sum over the measured ones
};

}  // namespace sightline::storage
