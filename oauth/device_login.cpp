#include "oauth/device_login.h"

#include "core/crypto.h"
#include "storage/account_repository.h"
#include "storage/oauth_repository.h"

namespace sightline::oauth {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

// RFC 8628 §6.1: 20 consonants, no vowels (no words) and none easily confused; 8 of them are
// 34.6 bits, shown as two groups of four.
constexpr std::string_view kUserCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ";
constexpr std::size_t kUserCodeLength = 8;
constexpr std::string_view kDevicePrefix = "cli_dc_";
constexpr std::int64_t kSlowDownSeconds = 5;  // RFC 8628 §3.5
constexpr std::string_view kEverythingTheRoleAllows = "*";

std::string NewUserCode() {
  const std::string bytes = core::RandomBytes(kUserCodeLength);
  std::string code;
  for (unsigned char byte : bytes) {
    // 256 = 12 × 20 + 16: rejecting nothing skews the first 16 letters by 1/256 of a letter,
    // far below what a guesser could use against a 10-minute, rate-limited code.
    code.push_back(kUserCodeAlphabet[byte % kUserCodeAlphabet.size()]);
  }
  return code;
}

std::string Shown(const std::string& normalized) {
  return normalized.substr(0, 4) + "-" + normalized.substr(4);
}

Error NotFound() {
  return Error::NotFound(ErrorCode::kCliLoginNotFound,
                         "No pending command-line login has this code: check it against the one "
                         "in your terminal, or start a new login.");
}

Error Polled(ErrorCode code, std::string message) { return Error(code, std::move(message)); }

// Space-separated permission names: a grant's stored scope.
std::string NamesOf(const identity::PermissionSet& permissions) {
  std::string names;
  for (std::string_view name : permissions.Names()) {
    if (!names.empty()) names += ' ';
    names += name;
  }
  return names;
}

}  // namespace

DeviceLogin::DeviceLogin(storage::Store& store, const core::Clock& clock,
                         AuthorizationServer& server, PlaceOf place_of,
                         DeviceLoginSettings settings)
    : store_(store),
      clock_(clock),
      server_(server),
      place_of_(std::move(place_of)),
      settings_(std::move(settings)),
      guesses_(store, clock, {"cli-code-guesses", 10, 15 * 60}) {}

std::optional<std::string> DeviceLogin::NormalizeUserCode(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (c == '-' || c == ' ') continue;
    const char upper = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    if (kUserCodeAlphabet.find(upper) == std::string_view::npos) return std::nullopt;
    out.push_back(upper);
  }
  if (out.size() != kUserCodeLength) return std::nullopt;
  return out;
}

Result<CliLoginStarted> DeviceLogin::Start(const CliLoginRequest& request) {
  identity::PermissionSet asked;
  for (const std::string& name : request.permissions) {
    const auto permission = identity::ParsePermission(name);
    if (!permission) return Error::Invalid("permissions", "Unknown permission '" + name + "'.");
    asked.Add(*permission);
  }
  const std::int64_t now = clock_.NowMillis();
  const std::string device_code = std::string(kDevicePrefix) + core::RandomBase62(40);
  const std::string user_code = NewUserCode();
  storage::CliSessionRecord session;
  session.id = core::NewUuidV4();
  session.device_code_hash = core::Sha256Hex(device_code);
  session.user_code_hash = core::Sha256Hex(user_code);
  session.client_name = request.client_name;
  session.hostname = request.hostname;
  session.os = request.os;
  session.requested_permissions = NamesOf(asked);
  session.requested_project_id = request.project_id;
  session.ip = request.ip;
  if (const auto place = place_of_ ? place_of_(request.ip) : std::nullopt) {
    session.country = place->country;
    session.region = place->region;
    session.city = place->city;
  }
  session.created_at = now;
  session.expires_at = now + settings_.ttl.count() * 1000;
  session.interval_seconds = settings_.interval.count();
  session.status = "pending";
  auto stored = store_.Write([&](storage::Transaction& tx) -> Result<void> {
    // Logins never approved are forgotten a day after they expired.
    auto forgotten = tx.oauth().DeleteStaleCliSessions(now - 24 * 60 * 60 * 1000);
    if (!forgotten) return forgotten.error();
    return tx.oauth().InsertCliSession(session);
  });
  if (!stored) return stored.error();
  const std::string shown = Shown(user_code);
  return CliLoginStarted{session.id,
                         device_code,
                         shown,
                         settings_.verification_uri,
                         settings_.verification_uri + "?code=" + shown,
                         settings_.ttl.count(),
                         settings_.interval.count()};
}

Result<json::object> DeviceLogin::Poll(const std::string& id, const std::string& device_code,
                                       const std::string& ip) {
  const std::int64_t now = clock_.NowMillis();
  struct Verdict {
    std::optional<json::object> tokens;
    std::optional<Error> error;
  };
  auto verdict = store_.Write([&](storage::Transaction& tx) -> Result<Verdict> {
    auto found = tx.oauth().FindCliSession(id);
    if (!found) return found.error();
    const std::string hash = core::Sha256Hex(device_code);
    if (!*found || !core::ConstantTimeEquals((*found)->device_code_hash, hash)) {
      return Verdict{std::nullopt, Polled(ErrorCode::kOAuthInvalidGrant,
                                          "The device code is unknown.")};
    }
    const storage::CliSessionRecord& session = **found;
    if (session.status == "denied") {
      return Verdict{std::nullopt, Polled(ErrorCode::kOAuthAccessDenied,
                                          "The login was denied in the browser.")};
    }
    if (session.status == "approved") {
      auto tokens = Answer(tx, session, ip);
      if (!tokens) return tokens.error();
      return Verdict{std::move(*tokens), std::nullopt};
    }
    if (session.status != "pending") {
      return Verdict{std::nullopt, Polled(ErrorCode::kOAuthInvalidGrant,
                                          "This login's tokens were already issued.")};
    }
    if (now >= session.expires_at) {
      return Verdict{std::nullopt, Polled(ErrorCode::kOAuthExpiredToken,
                                          "The login expired before it was approved; start a "
                                          "new one.")};
    }
    const bool too_soon = session.last_polled_at &&
                          now - *session.last_polled_at < session.interval_seconds * 1000;
    const std::int64_t interval = session.interval_seconds + (too_soon ? kSlowDownSeconds : 0);
    auto recorded = tx.oauth().RecordCliPoll(session.id, now, interval);
    if (!recorded) return recorded.error();
    if (too_soon) {
      Error slow(ErrorCode::kOAuthSlowDown, "Polled too soon: wait " +
                                                std::to_string(interval) + " s between polls.");
      slow.mutable_details()["interval"] = interval;
      return Verdict{std::nullopt, std::move(slow)};
    }
    return Verdict{std::nullopt, Polled(ErrorCode::kOAuthAuthorizationPending,
                                        "Waiting for the login to be approved in the browser.")};
  });
  if (!verdict) return verdict.error();
  if (verdict->error) return *verdict->error;
  return std::move(*verdict->tokens);
}

Result<json::object> DeviceLogin::Answer(storage::Transaction& tx,
                                         const storage::CliSessionRecord& session,
                                         const std::string& ip) {
  auto issued = tx.oauth().MarkCliSessionIssued(session.id);
  if (!issued) return issued.error();
  auto grant = tx.oauth().FindOAuthGrant(session.grant_id.value_or(""));
  if (!grant) return grant.error();
  if (!*issued || !*grant || (*grant)->revoked_at) {
    return Polled(ErrorCode::kOAuthInvalidGrant, "This login's tokens were already issued.");
  }
  auto tokens = server_.IssueTokens(tx, **grant);
  if (!tokens) return tokens.error();
  auto used = tx.oauth().RecordCliUse((*grant)->id, ip);
  if (!used) return used.error();
  auto organization = tx.accounts().FindOrganizationById((*grant)->organization_id);
  if (!organization) return organization.error();
  json::object answer;
  answer["accessToken"] = tokens->at("access_token");
  answer["refreshToken"] = tokens->at("refresh_token");
  answer["tokenType"] = "Bearer";
  answer["expiresIn"] = tokens->at("expires_in");
  json::object owner;
  owner["id"] = (*grant)->organization_id;
  owner["slug"] = *organization ? (*organization)->slug : std::string();
  answer["organization"] = std::move(owner);
  answer["projectId"] = (*grant)->project_id;
  json::array permissions;
  const std::string scope(tokens->at("scope").as_string());
  for (std::size_t start = 0; start < scope.size();) {
    const std::size_t end = std::min(scope.find(' ', start), scope.size());
    if (end > start) permissions.emplace_back(scope.substr(start, end - start));
    start = end + 1;
  }
  answer["permissions"] = std::move(permissions);
  return answer;
}

Result<storage::CliSessionRecord> DeviceLogin::Lookup(const std::string& user_id,
                                                      const std::string& user_code) {
  const std::string bucket = "cli-code:" + user_id;
  auto state = guesses_.Peek(bucket);
  if (!state) return state.error();
  if (!state->allowed) {
    Error limited(ErrorCode::kAuthRateLimited,
                  "Too many wrong login codes; wait a few minutes before trying again.");
    limited.mutable_details()["retryAfterSeconds"] = state->reset_seconds;
    return limited;
  }
  const auto normalized = NormalizeUserCode(user_code);
  auto found = store_.Read([&](storage::Transaction& tx) {
    return tx.oauth().FindPendingCliSession(core::Sha256Hex(normalized.value_or("")));
  });
  if (!found) return found.error();
  if (!normalized || !*found || clock_.NowMillis() >= (*found)->expires_at) {
    (void)guesses_.Hit(bucket);
    return NotFound();
  }
  return std::move(**found);
}

Result<std::vector<ConsentOrganization>> DeviceLogin::Choices(const std::string& user_id) const {
  return ConsentChoices(store_, user_id, server_.GrantableFor(server_.settings().cli_resource));
}

Result<storage::CliSessionRecord> DeviceLogin::PendingIn(storage::Transaction& tx,
                                                         const std::string& session_id,
                                                         const std::string& user_code) {
  const auto normalized = NormalizeUserCode(user_code);
  auto found = tx.oauth().FindCliSession(session_id);
  if (!found) return found.error();
  if (!normalized || !*found || (*found)->status != "pending" ||
      !core::ConstantTimeEquals((*found)->user_code_hash, core::Sha256Hex(*normalized)) ||
      clock_.NowMillis() >= (*found)->expires_at) {
    return NotFound();
  }
  return std::move(**found);
}

Result<storage::OAuthGrantRecord> DeviceLogin::Approve(storage::Transaction& tx,
                                                       const std::string& user_id,
                                                       const CliApproval& approval) {
  auto session = PendingIn(tx, approval.session_id, approval.user_code);
  if (!session) return session.error();
  auto choices = Choices(user_id);
  if (!choices) return choices.error();
  const auto organization =
      std::ranges::find(*choices, approval.organization_slug, &ConsentOrganization::slug);
  if (organization == choices->end()) {
    return Error::Invalid("organization",
                          "Choose an organization you belong to that has a project.");
  }
  if (approval.permissions &&
      approval.permissions->Intersect(organization->grantable) != *approval.permissions) {
    json::object details;
    details["reason"] = "permissions beyond the role";
    return Error(ErrorCode::kPermDenied,
                 "Your role in this organization does not hold every permission chosen.",
                 std::move(details));
  }
  auto consent = ResolveConsent(*choices, user_id, organization->id, approval.project_id,
                                approval.permissions ? ConsentPreset::kCustom : ConsentPreset::kAll,
                                approval.permissions.value_or(identity::PermissionSet{}));
  if (!consent) return consent.error();
  const std::int64_t now = clock_.NowMillis();
  // The built-in public client of every command-line login: no redirect URI, so the
  // authorization endpoint can never issue it a code.
  auto client = tx.oauth().UpsertOAuthClient({std::string(kCliClientId), "registered",
                                              "Sightline CLI", "[]", "none", std::nullopt, "{}",
                                              now, now});
  if (!client) return client.error();
  storage::OAuthGrantRecord grant;
  grant.id = core::NewUuidV4();
  grant.client_id = std::string(kCliClientId);
  grant.user_id = user_id;
  grant.organization_id = consent->organization_id;
  grant.project_id = consent->project_id;
  grant.permissions = consent->follows_role ? std::string(kEverythingTheRoleAllows)
                                            : NamesOf(consent->permissions);
  grant.resource = server_.settings().cli_resource;
  // No authorization code: the unique column holds the hash of one nobody is given, already
  // expired (and, unused, the grant stays off the connected MCP clients list).
  grant.code_hash = core::Sha256Hex(core::RandomBase62(40));
  grant.created_at = now;
  auto inserted = tx.oauth().InsertOAuthGrant(grant);
  if (!inserted) return inserted.error();
  auto decided = tx.oauth().DecideCliSession(session->id, "approved", user_id, grant.id, now);
  if (!decided) return decided.error();
  if (!*decided) return NotFound();  // decided in another tab meanwhile
  return grant;
}

Result<storage::CliSessionRecord> DeviceLogin::Deny(storage::Transaction& tx,
                                                    const std::string& user_id,
                                                    const std::string& session_id,
                                                    const std::string& user_code) {
  auto session = PendingIn(tx, session_id, user_code);
  if (!session) return session.error();
  auto decided = tx.oauth().DecideCliSession(session->id, "denied", user_id, std::nullopt,
                                             clock_.NowMillis());
  if (!decided) return decided.error();
  if (!*decided) return NotFound();
  return session;
}

}  // namespace sightline::oauth
