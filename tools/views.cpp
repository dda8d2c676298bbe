#include "tools/views.h"

#include "core/clock.h"

#include <boost/json/parse.hpp>

namespace sightline::tools {

namespace json = boost::json;

json::value NullableString(const std::optional<std::string>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}
json::value NullableInteger(const std::optional<std::int64_t>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}
json::value NullableTime(const std::optional<std::int64_t>& unix_millis) {
  return unix_millis ? json::value(core::FormatRfc3339(*unix_millis)) : json::value(nullptr);
}

namespace {

void PutOptional(json::object& out, std::string_view name, const std::optional<std::string>& v) {
  if (v) out[name] = *v;
}

void PutTime(json::object& out, std::string_view name, const std::optional<std::int64_t>& v) {
  if (v) out[name] = core::FormatRfc3339(*v);
}

std::string_view InvitationStatus(const storage::InvitationRecord& invitation,
                                  std::int64_t now) {
  if (invitation.accepted_at) return "accepted";
  if (invitation.revoked_at) return "revoked";
  if (invitation.expires_at <= now) return "expired";
  return "pending";
}

}  // namespace

json::object UserView(const storage::UserRecord& user) {
  return json::object{{"id", user.id},
                      {"email", user.email},
                      {"firstName", user.first_name},
                      {"lastName", user.last_name},
                      {"twoFactorEnabled", user.two_factor_enabled},
                      {"createdAt", core::FormatRfc3339(user.created_at)}};
}

json::object CurrentUserView(const storage::UserRecord& user,
                             const std::vector<storage::MembershipOfUser>& memberships) {
  json::object out = UserView(user);
  json::array organizations;
  for (const auto& m : memberships) organizations.push_back(OrganizationView(m.organization, m.role));
  out["organizations"] = std::move(organizations);
  return out;
}

json::object OrganizationView(const storage::OrganizationRecord& org,
                              std::string_view caller_role) {
  json::object out{{"id", org.id},
                   {"slug", org.slug},
                   {"name", org.name},
                   {"requireTwoFactor", org.require_two_factor},
                   {"createdAt", core::FormatRfc3339(org.created_at)},
                   {"updatedAt", core::FormatRfc3339(org.updated_at)}};
  if (!caller_role.empty()) out["role"] = caller_role;
  return out;
}

json::object MemberView(const storage::MemberRecord& member) {
  return json::object{{"userId", member.user.id},
                      {"email", member.user.email},
                      {"firstName", member.user.first_name},
                      {"lastName", member.user.last_name},
                      {"role", member.role},
                      {"joinedAt", core::FormatRfc3339(member.joined_at)}};
}

json::object InvitationView(const storage::InvitationRecord& invitation, std::int64_t now) {
  json::object out{{"id", invitation.id},
                   {"email", invitation.email},
                   {"role", invitation.role},
                   {"status", InvitationStatus(invitation, now)},
                   {"createdAt", core::FormatRfc3339(invitation.created_at)},
                   {"expiresAt", core::FormatRfc3339(invitation.expires_at)}};
  PutOptional(out, "invitedBy", invitation.invited_by);
  PutTime(out, "acceptedAt", invitation.accepted_at);
  return out;
}

json::object KeyView(const storage::ApiKeyRecord& key) {
  json::object out{{"id", key.id},
                   {"name", key.name},
                   {"kind", storage::KeyKindName(key.kind)},
                   {"projectId", key.project_id},
                   {"displayPrefix", key.display_prefix},
                   {"createdAt", core::FormatRfc3339(key.created_at)}};
  PutOptional(out, "createdBy", key.created_by);
  PutTime(out, "revokedAt", key.revoked_at);
  // An SDK key is public (it is in every tracked page); a private key is shown once, at creation.
  if (key.kind == storage::KeyKind::kSdk) PutOptional(out, "key", key.public_key);
  return out;
}

json::object AuditView(const storage::AuditRecord& entry) {
  json::object actor{{"credentialKind", entry.credential_kind}};
  PutOptional(actor, "userId", entry.actor_user_id);
  PutOptional(actor, "credentialId", entry.credential_id);
  json::object out{{"id", entry.id},
                   {"action", entry.action},
                   {"actor", std::move(actor)},
                   {"createdAt", core::FormatRfc3339(entry.created_at)}};
  PutOptional(out, "targetType", entry.target_type);
  PutOptional(out, "targetId", entry.target_id);
  PutOptional(out, "projectId", entry.project_id);
  PutOptional(out, "requestId", entry.request_id);
  boost::system::error_code ec;
  json::value details = json::parse(entry.details_json, ec);
  out["details"] = !ec && details.is_object() ? std::move(details) : json::object();
  return out;
}

json::object AuthView(const identity::SessionTokens& tokens, json::object user) {
  return json::object{{"accessToken", tokens.access_token},
                      {"tokenType", "Bearer"},
                      {"expiresIn", tokens.access_expires_in},
                      {"refreshToken", tokens.refresh_token},
                      {"refreshTokenExpiresIn", tokens.refresh_expires_in},
                      {"user", std::move(user)}};
}

}  // namespace sightline::tools
