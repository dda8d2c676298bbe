#include "features/accounts/user_operations.h"

#include "identity/passwords.h"
#include "identity/sessions.h"
#include "storage/account_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

struct Me {
  storage::UserRecord user;
  std::vector<storage::MembershipOfUser> memberships;
};

Result<Me> LoadMe(storage::Transaction& tx, const std::string& user_id) {
  auto user = tx.accounts().FindUserById(user_id);
  if (!user) return user.error();
  if (!*user) return core::Error(core::ErrorCode::kAuthInvalidCredential, "The user no longer exists.");
  auto memberships = tx.accounts().ListOrganizationsOfUser(user_id);
  if (!memberships) return memberships.error();
  return Me{std::move(**user), std::move(*memberships)};
}

Result<json::value> RunGetCurrentUser(OperationContext& context, const json::object&) {
  auto me = context.store.Read([&](storage::Transaction& tx) {
    return LoadMe(tx, *context.principal.user_id);
  });
  if (!me) return me.error();
  return json::value(CurrentUserView(me->user, me->memberships));
}

Result<json::value> RunUpdateCurrentUser(OperationContext& context, const json::object& args) {
  const std::string& user_id = *context.principal.user_id;
  AuditEntry audit{"user.update", "user", user_id, {}, {}};
  auto me = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<Me> {
    auto me = LoadMe(tx, user_id);
    if (!me) return me.error();
    if (auto first = OptionalString(args, "firstName")) me->user.first_name = *first;
    if (auto last = OptionalString(args, "lastName")) me->user.last_name = *last;
    me->user.updated_at = context.clock.NowMillis();
    auto written = tx.accounts().UpdateUserNames(me->user);
    if (!written) return written.error();
    return me;
  });
  if (!me) return me.error();
  return json::value(CurrentUserView(me->user, me->memberships));
}

// The current password proves it is the user (a session left open on a shared computer is not
// enough); the other sessions end, as after a password reset anywhere: whoever else held one
// loses it on their next request. The session that asked stays signed in.
Result<json::value> RunChangePassword(OperationContext& context, const json::object& args) {
  const std::string& user_id = *context.principal.user_id;
  auto me = context.store.Read([&](storage::Transaction& tx) { return LoadMe(tx, user_id); });
  if (!me) return me.error();
  // Checked (and throttled) outside the write: a wrong password must count, not roll back.
  auto checked = context.services.sessions.CheckCurrentPassword(
      me->user, RequiredString(args, "currentPassword"));
  if (!checked) return checked.error();
  auto hash = identity::HashPassword(RequiredString(args, "newPassword"));
  if (!hash) return hash.error();
  AuditEntry audit{"user.password.change", "user", user_id, {}, {}};
  auto changed = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto user = tx.accounts().FindUserById(user_id);
    if (!user) return user.error();
    // Another change since the check: the password just checked is no longer the current one.
    if (!*user || (*user)->password_hash != me->user.password_hash) {
      return core::Error(core::ErrorCode::kAuthWrongPassword, "The current password is wrong.");
    }
    const std::int64_t now = context.clock.NowMillis();
    auto written = tx.accounts().UpdateUserPassword(user_id, *hash, now);
    if (!written) return written.error();
    auto ended = tx.accounts().RevokeOtherSessions(user_id, context.principal.credential_id, now);
    if (!ended) return ended.error();
    audit.details = json::object{{"otherSessionsEnded", *ended}};
    return {};
  });
  if (!changed) return changed.error();
  return NoContent();
}

Result<json::value> RunGetCurrentUserInOrganization(OperationContext& context,
                                                    const json::object&) {
  auto me = context.store.Read([&](storage::Transaction& tx) {
    return LoadMe(tx, *context.principal.user_id);
  });
  if (!me) return me.error();
  json::object out = CurrentUserView(me->user, me->memberships);
  const std::string role = context.role.value_or("");
  out["currentOrganization"] = OrganizationView(*context.organization, role);
  out["currentOrganizationRole"] = role;
  json::array permissions;
  if (auto parsed = identity::ParseRole(role)) {
    for (auto name : identity::RolePermissions(*parsed).Names()) permissions.push_back(json::string(name));
  }
  out["permissions"] = std::move(permissions);
  return json::value(std::move(out));
}

constexpr std::string_view kAccountOnly =
    "The operation is about the signed-in user's own account.";

}  // namespace

const OperationSpec kGetCurrentUser{
    .name = "get_current_user",
    .summary = "Get the signed-in user",
    .description = "The user's profile and the organizations they belong to, with their role in "
                   "each.",
    .tag = "Users",
    .method = core::HttpMethod::kGet,
    .path = "/users/me",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kBeyondTheBoundProject,
    .run = RunGetCurrentUser,
};

const OperationSpec kUpdateCurrentUser{
    .name = "update_current_user",
    .summary = "Update the signed-in user's name",
    .description = "Changes the first and/or last name (UpdateUserRequest). Only sent fields "
                   "change.",
    .tag = "Users",
    .method = core::HttpMethod::kPatch,
    .path = "/users/me",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kAccountOnly,
    .run = RunUpdateCurrentUser,
};

const OperationSpec kChangePassword{
    .name = "change_password",
    .summary = "Change the signed-in user's password",
    .description = "Needs the current password (400 AUTH_012 when wrong) and a new one of 8 "
                   "characters or more. Every other session of the user ends; the one that "
                   "asked stays signed in. After 5 wrong current passwords in 15 minutes, "
                   "429 AUTH_014 until the window ends.",
    .tag = "Users",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/password",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kUserSession,
    .success_status = 204,
    .mcp_exclusion_reason = "Handles passwords.",
    .error_statuses = "429",
    .run = RunChangePassword,
};

const OperationSpec kGetCurrentUserInOrganization{
    .name = "get_current_user_in_organization",
    .summary = "Get the signed-in user within an organization",
    .description = "Like get_current_user, plus `currentOrganization`, "
                   "`currentOrganizationRole` and the role's permissions in that organization. "
                   "404 when the user is not a member.",
    .tag = "Users",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/users/me",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kBeyondTheBoundProject,
    .run = RunGetCurrentUserInOrganization,
};

}  // namespace sightline::tools
