#include "features/accounts/cli_login_operations.h"

#include "core/text.h"
#include "oauth/device_login.h"
#include "storage/oauth_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

Result<oauth::DeviceLogin*> Logins(OperationContext& context) {
  if (context.services.device_login == nullptr) {
    return core::Error(core::ErrorCode::kUnavailable,
                       "Command-line logins are not available on this server.");
  }
  return context.services.device_login;
}

json::array NameArray(std::string_view names) {
  json::array out;
  for (const std::string& name : core::SplitList(names, ' ')) out.emplace_back(name);
  return out;
}

// A grant's consented permissions; none listed when it follows the role ("*").
json::array GrantedNames(const storage::OAuthGrantRecord& grant) {
  return grant.permissions == "*" ? json::array{} : NameArray(grant.permissions);
}

json::value PlaceJson(const storage::CliSessionRecord& session) {
  if (session.country.empty() && session.region.empty() && session.city.empty()) return nullptr;
  return json::object{{"country", session.country},
                      {"region", session.region},
                      {"city", session.city}};
}

std::vector<std::string> Strings(const json::object& args, std::string_view name) {
  std::vector<std::string> out;
  if (const json::value* list = args.if_contains(name); list && list->is_array()) {
    for (const json::value& item : list->as_array()) out.emplace_back(item.as_string());
  }
  return out;
}

Result<json::value> RunStartCliLogin(OperationContext& context, const json::object& args) {
  auto logins = Logins(context);
  if (!logins) return logins.error();
  auto started = (*logins)->Start({RequiredString(args, "clientName"),
                                   OptionalString(args, "hostname").value_or(""),
                                   OptionalString(args, "os").value_or(""),
                                   Strings(args, "permissions"),
                                   OptionalString(args, "projectId"),
                                   std::string(context.request.client_ip)});
  if (!started) return started.error();
  return json::value(json::object{{"id", started->id},
                                  {"deviceCode", started->device_code},
                                  {"userCode", started->user_code},
                                  {"verificationUri", started->verification_uri},
                                  {"verificationUriComplete", started->verification_uri_complete},
                                  {"expiresIn", started->expires_in},
                                  {"interval", started->interval}});
}

Result<json::value> RunPollCliLogin(OperationContext& context, const json::object& args) {
  auto logins = Logins(context);
  if (!logins) return logins.error();
  auto answer = (*logins)->Poll(RequiredString(args, "sessionId"),
                                RequiredString(args, "deviceCode"),
                                std::string(context.request.client_ip));
  if (!answer) return answer.error();
  return json::value(std::move(*answer));
}

json::array ChoicesJson(const std::vector<oauth::ConsentOrganization>& choices) {
  json::array out;
  for (const oauth::ConsentOrganization& organization : choices) {
    json::array projects;
    for (const oauth::ConsentProject& project : organization.projects) {
      projects.push_back(json::object{{"id", project.id}, {"name", project.name}});
    }
    json::array permissions;
    for (std::string_view name : organization.grantable.Names()) permissions.emplace_back(name);
    out.push_back(json::object{{"slug", organization.slug},
                               {"name", organization.name},
                               {"role", organization.role},
                               {"permissions", std::move(permissions)},
                               {"projects", std::move(projects)}});
  }
  return out;
}

// What each permission the user could grant here means, in catalog order.
json::array CatalogJson(const std::vector<oauth::ConsentOrganization>& choices) {
  json::array out;
  for (const identity::PermissionInfo& info : identity::AllPermissions()) {
    const bool offered = std::ranges::any_of(choices, [&](const oauth::ConsentOrganization& o) {
      return o.grantable.Has(info.permission);
    });
    if (offered) {
      out.push_back(json::object{{"name", info.name}, {"description", info.description}});
    }
  }
  return out;
}

Result<json::value> RunGetCliLogin(OperationContext& context, const json::object& args) {
  auto logins = Logins(context);
  if (!logins) return logins.error();
  const std::string& user_id = *context.principal.user_id;
  auto session = (*logins)->Lookup(user_id, RequiredString(args, "userCode"));
  if (!session) return session.error();
  auto choices = (*logins)->Choices(user_id);
  if (!choices) return choices.error();
  const auto code = oauth::DeviceLogin::NormalizeUserCode(RequiredString(args, "userCode"));
  return json::value(json::object{
      {"id", session->id},
      {"userCode", code->substr(0, 4) + "-" + code->substr(4)},
      {"clientName", session->client_name},
      {"hostname", session->hostname},
      {"os", session->os},
      {"ip", session->ip},
      {"location", PlaceJson(*session)},
      {"requestedPermissions", NameArray(session->requested_permissions)},
      {"requestedProjectId", session->requested_project_id
                                 ? json::value(*session->requested_project_id)
                                 : json::value(nullptr)},
      {"createdAt", core::FormatRfc3339(session->created_at)},
      {"expiresAt", core::FormatRfc3339(session->expires_at)},
      {"organizations", ChoicesJson(*choices)},
      {"permissionCatalog", CatalogJson(*choices)}});
}

Result<std::optional<identity::PermissionSet>> ChosenPermissions(const json::object& args) {
  const json::value* list = args.if_contains("permissions");
  if (list == nullptr) return std::optional<identity::PermissionSet>();
  identity::PermissionSet chosen;
  for (const std::string& name : Strings(args, "permissions")) {
    const auto permission = identity::ParsePermission(name);
    if (!permission) return core::Error::Invalid("permissions", "Unknown permission '" + name + "'.");
    chosen.Add(*permission);
  }
  return std::optional<identity::PermissionSet>(chosen);
}

Result<json::value> RunApproveCliLogin(OperationContext& context, const json::object& args) {
  auto logins = Logins(context);
  if (!logins) return logins.error();
  auto chosen = ChosenPermissions(args);
  if (!chosen) return chosen.error();
  const oauth::CliApproval approval{RequiredString(args, "sessionId"),
                                    RequiredString(args, "userCode"),
                                    RequiredString(args, "organization"),
                                    RequiredString(args, "projectId"), *chosen};
  AuditEntry audit{"cli_session.approve", "cli_session", approval.session_id, {}, {}};
  auto grant = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    auto made = (*logins)->Approve(tx, *context.principal.user_id, approval);
    if (made) {
      audit.organization_id = made->organization_id;
      audit.details = {{"projectId", made->project_id}, {"permissions", made->permissions}};
    }
    return made;
  });
  if (!grant) return grant.error();
  return json::value(json::object{{"id", approval.session_id},
                                  {"status", "approved"},
                                  {"organization", approval.organization_slug},
                                  {"projectId", grant->project_id},
                                  {"permissions", GrantedNames(*grant)},
                                  {"followsRole", grant->permissions == "*"}});
}

Result<json::value> RunDenyCliLogin(OperationContext& context, const json::object& args) {
  auto logins = Logins(context);
  if (!logins) return logins.error();
  const std::string session_id = RequiredString(args, "sessionId");
  auto denied = context.store.Write([&](storage::Transaction& tx) {
    return (*logins)->Deny(tx, *context.principal.user_id, session_id,
                           RequiredString(args, "userCode"));
  });
  if (!denied) return denied.error();
  return json::value(json::object{{"id", session_id}, {"status", "denied"}});
}

json::object SessionJson(const storage::CliSessionView& view) {
  const storage::CliSessionRecord& session = view.session;
  return {{"id", session.id},
          {"clientName", session.client_name},
          {"hostname", session.hostname},
          {"os", session.os},
          {"ip", session.ip},
          {"location", PlaceJson(session)},
          {"organization", json::object{{"slug", view.organization_slug},
                                        {"name", view.organization_name}}},
          {"project", json::object{{"id", view.grant.project_id}, {"name", view.project_name}}},
          {"permissions", GrantedNames(view.grant)},
          {"followsRole", view.grant.permissions == "*"},
          {"createdAt", core::FormatRfc3339(session.decided_at.value_or(session.created_at))},
          {"lastUsedAt", NullableTime(view.grant.last_used_at)},
          {"lastUsedIp", session.last_used_ip ? json::value(*session.last_used_ip)
                                              : json::value(nullptr)}};
}

Result<std::vector<storage::CliSessionView>> SessionsOf(OperationContext& context) {
  return context.store.Read([&](storage::Transaction& tx) {
    return tx.oauth().ListCliSessionsOfUser(*context.principal.user_id);
  });
}

Result<json::value> RunListCliSessions(OperationContext& context, const json::object& args) {
  auto sessions = SessionsOf(context);
  if (!sessions) return sessions.error();
  // Every listed session is approved, so it has its decision's time.
  return AnswerWholeList(
      ListSpec{"list_cli_sessions", "sessions", PageOrder::kDescending}, args,
      std::move(*sessions),
      [](const storage::CliSessionView& v) {
        return TimeIdKey(v.session.decided_at.value_or(0), v.session.id);
      },
      SessionJson);
}

Result<json::value> RunRevokeCliSession(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "sessionId");
  auto sessions = SessionsOf(context);
  if (!sessions) return sessions.error();
  const auto found = std::ranges::find_if(
      *sessions, [&](const storage::CliSessionView& view) { return view.session.id == id; });
  // Someone else's session is answered exactly like one that does not exist.
  if (found == sessions->end()) return NotFound("command-line session");
  AuditEntry audit{"cli_session.revoke", "cli_session", id,
                   {{"clientName", found->session.client_name}},
                   found->grant.organization_id};
  auto revoked = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto done = tx.oauth().RevokeOAuthGrant(found->grant.id, context.clock.NowMillis());
    if (!done) return done.error();
    return {};
  });
  if (!revoked) return revoked.error();
  return NoContent();
}

constexpr std::string_view kStartedByTheCli =
    "A command-line login is started and collected by the CLI itself, not by a model.";
constexpr std::string_view kApprovedByAPerson =
    "Approving a command-line login is a person's decision in the browser.";

}  // namespace

const OperationSpec kStartCliLogin{
    .name = "start_cli_login",
    .summary = "Start a command-line login",
    .description =
        "Starts a browser login for a command-line client (the RFC 8628 device flow): the "
        "client shows `userCode` and opens `verificationUriComplete`; the user confirms the "
        "code on the dashboard and chooses organization, project and permissions. Poll "
        "`poll_cli_login` every `interval` seconds with `deviceCode`. The codes expire after "
        "`expiresIn` seconds. Anonymous, limited per IP address.",
    .tag = "CLI login",
    .method = core::HttpMethod::kPost,
    .path = "/auth/cli/sessions",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .success_status = 201,
    .mcp_exclusion_reason = kStartedByTheCli,
    .error_statuses = "429",
    .run = RunStartCliLogin,
};

const OperationSpec kPollCliLogin{
    .name = "poll_cli_login",
    .summary = "Collect a command-line login's tokens",
    .description =
        "The CLI's poll: once the user approved, the access token (1 hour) and the rotating "
        "refresh token (for `grant_type=refresh_token` with `client_id=sightline-cli` at the "
        "OAuth token endpoint), issued once. Before that OAUTH_012 (pending) or OAUTH_013 "
        "(polled too fast: `details.interval` is the new interval); OAUTH_014 after a denial, "
        "OAUTH_015 once expired, OAUTH_003 for an unknown device code or tokens already "
        "collected.",
    .tag = "CLI login",
    .method = core::HttpMethod::kPost,
    .path = "/auth/cli/sessions/{sessionId}/token",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kStartedByTheCli,
    .error_statuses = "429",
    .run = RunPollCliLogin,
};

const OperationSpec kGetCliLogin{
    .name = "get_cli_login",
    .summary = "Look up a command-line login by its code",
    .description =
        "What the approval page shows: the pending login the user code names (client, host, "
        "OS, IP address and place, requested permissions and project, expiry) and the "
        "organizations and projects the user may approve it for, with what their role there "
        "allows. CLI_001 for an unknown, expired or decided code; repeated wrong codes are "
        "throttled (AUTH_014).",
    .tag = "CLI login",
    .method = core::HttpMethod::kGet,
    .path = "/auth/cli/sessions/lookup",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kApprovedByAPerson,
    .error_statuses = "429",
    .run = RunGetCliLogin,
};

const OperationSpec kApproveCliLogin{
    .name = "approve_cli_login",
    .summary = "Approve a command-line login",
    .description =
        "The signed-in user approves the login whose code they confirmed, for one project "
        "with the chosen permissions (within their role; without `permissions`, whatever the "
        "role allows at each request). The CLI's next poll collects the tokens. Recorded in "
        "the audit log.",
    .tag = "CLI login",
    .method = core::HttpMethod::kPost,
    .path = "/auth/cli/sessions/{sessionId}/approve",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kApprovedByAPerson,
    .run = RunApproveCliLogin,
};

const OperationSpec kDenyCliLogin{
    .name = "deny_cli_login",
    .summary = "Deny a command-line login",
    .description = "The CLI's next poll gets OAUTH_014; the code cannot be used again.",
    .tag = "CLI login",
    .method = core::HttpMethod::kPost,
    .path = "/auth/cli/sessions/{sessionId}/deny",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kApprovedByAPerson,
    .run = RunDenyCliLogin,
};

const OperationSpec kListCliSessions{
    .name = "list_cli_sessions",
    .summary = "List command-line sessions",
    .description =
        "The signed-in user's approved command-line logins that are not revoked, newest "
        "first: client, host, where it started, project, permissions, last use.",
    .tag = "Users",
    .method = core::HttpMethod::kGet,
    .path = "/users/me/cli-sessions",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kApprovedByAPerson,
    .run = RunListCliSessions,
};

const OperationSpec kRevokeCliSession{
    .name = "revoke_cli_session",
    .summary = "Revoke a command-line session",
    .description =
        "Revokes the login's grant and every token issued for it: the CLI's next request gets "
        "401. 404 for another user's session. Recorded in the audit log.",
    .tag = "Users",
    .method = core::HttpMethod::kDelete,
    .path = "/users/me/cli-sessions/{sessionId}",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kDestructive,
    .credentials = CredentialKind::kUserSession,
    .success_status = 204,
    .mcp_exclusion_reason = kApprovedByAPerson,
    .run = RunRevokeCliSession,
};

}  // namespace sightline::tools
