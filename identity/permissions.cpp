#include "identity/permissions.h"

#include <array>

namespace sightline::identity {
namespace {

using P = Permission;

constexpr std::array kCatalog = {
    PermissionInfo{P::kOrganizationView, "organization.view", "Read the organization."},
    PermissionInfo{P::kOrganizationManage, "organization.manage",
                   "Rename the organization and change its settings."},
    PermissionInfo{P::kOrganizationDelete, "organization.delete", "Delete the organization."},
    PermissionInfo{P::kMemberView, "member.view", "List members and their roles."},
    PermissionInfo{P::kMemberInvite, "member.invite", "Invite people; list and revoke invitations."},
    PermissionInfo{P::kMemberManage, "member.manage", "Change members' roles and remove members."},
    PermissionInfo{P::kProjectView, "project.view", "Read projects and their settings."},
    PermissionInfo{P::kProjectCreate, "project.create", "Create projects."},
    PermissionInfo{P::kProjectManage, "project.manage", "Change project settings."},
    PermissionInfo{P::kProjectDelete, "project.delete", "Delete projects."},
    PermissionInfo{P::kSdkKeyView, "sdk_key.view", "List SDK keys."},
    PermissionInfo{P::kSdkKeyCreate, "sdk_key.create", "Create SDK keys."},
    PermissionInfo{P::kSdkKeyRevoke, "sdk_key.revoke", "Revoke SDK keys."},
    PermissionInfo{P::kPrivateApiKeyView, "private_api_key.view", "List private API keys."},
    PermissionInfo{P::kPrivateApiKeyCreate, "private_api_key.create", "Create private API keys."},
    PermissionInfo{P::kPrivateApiKeyRevoke, "private_api_key.revoke", "Revoke private API keys."},
    PermissionInfo{P::kAuditLogView, "audit_log.view", "Read the audit log."},
    PermissionInfo{P::kAnalyticsView, "analytics.view", "Read web and product analytics."},
    PermissionInfo{P::kBotsView, "bots.view", "Read crawler analytics."},
    PermissionInfo{P::kBotsClassify, "bots.classify", "Classify a request without storing it."},
    PermissionInfo{P::kEventsIngest, "events.ingest", "Send tracked events (SDK ingestion)."},
    PermissionInfo{P::kBotsIngest, "bots.ingest",
                   "Forward request signals and log drains (server-side ingestion)."},
    PermissionInfo{P::kWebhookCreate, "webhook.create", "Create webhooks."},
    PermissionInfo{P::kAiVisibilityView, "aivisibility.view",
                   "Read AI-visibility reports, answers and their configuration."},
    PermissionInfo{P::kAiVisibilityManage, "aivisibility.manage",
                   "Manage AI-visibility brands, prompts, engines and settings; start runs."},
    PermissionInfo{P::kSiteAuditView, "siteaudit.view",
                   "Read site audits: sites, crawls, pages, issues and the robots-vs-traffic report."},
    PermissionInfo{P::kSiteAuditManage, "siteaudit.manage",
                   "Add and verify sites, start and cancel ServiceAuditBot's crawls."},
    PermissionInfo{P::kAgentUse, "agent.use", "Use the in-dashboard agent assistant."},
    PermissionInfo{P::kAccount, "account.manage",
                   "Read and update your own profile, list and create organizations. Held by "
                   "every user session; never by keys."},
    PermissionInfo{P::kPublic, "auth.public",
                   "Sign in, refresh a session, accept an invitation. Held by everyone."},
};
static_assert(kCatalog.size() == static_cast<std::size_t>(P::kCount));

constexpr std::array kRoles = {Role::kOwner, Role::kAdmin, Role::kDeveloper, Role::kAnalyst,
                               Role::kSupport};
constexpr std::array<std::string_view, 5> kRoleNames = {"owner", "admin", "developer", "analyst",
                                                        "support"};

PermissionSet Of(std::initializer_list<P> permissions) {
  PermissionSet set;
  for (P p : permissions) set.Add(p);
  return set;
}

}  // namespace

std::span<const PermissionInfo> AllPermissions() { return kCatalog; }

std::string_view PermissionName(Permission permission) {
  return kCatalog.at(static_cast<std::size_t>(permission)).name;
}

std::optional<Permission> ParsePermission(std::string_view name) {
  for (const auto& info : kCatalog) {
    if (info.name == name) return info.permission;
  }
  return std::nullopt;
}

PermissionSet PermissionSet::All() {
  PermissionSet set;
  set.bits_.set();
  return set;
}

PermissionSet PermissionSet::Intersect(const PermissionSet& other) const {
  PermissionSet set;
  set.bits_ = bits_ & other.bits_;
  return set;
}

PermissionSet PermissionSet::Union(const PermissionSet& other) const {
  PermissionSet set;
  set.bits_ = bits_ | other.bits_;
  return set;
}

std::vector<std::string_view> PermissionSet::Names() const {
  std::vector<std::string_view> names;
  for (const auto& info : kCatalog) {
    if (Has(info.permission)) names.push_back(info.name);
  }
  return names;
}

std::span<const Role> AllRoles() { return kRoles; }

PermissionSet ViewPermissions() {
  PermissionSet out;
  for (const auto& info : kCatalog) {
    if (info.name.ends_with(".view")) out.Add(info.permission);
  }
  return out;
}

std::string_view RoleName(Role role) { return kRoleNames.at(static_cast<std::size_t>(role)); }

std::optional<Role> ParseRole(std::string_view name) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i) {
    if (kRoleNames[i] == name) return kRoles[i];
  }
  return std::nullopt;
}

PermissionSet RolePermissions(Role role) {
  switch (role) {
    case Role::kOwner: {
      PermissionSet set = PermissionSet::All();
      set.Remove(P::kAccount);  // granted by the credential kind, not by a role
      set.Remove(P::kPublic);
      return set;
    }
    case Role::kAdmin: {
      PermissionSet set = RolePermissions(Role::kOwner);
      set.Remove(P::kOrganizationDelete);
      return set;
    }
    case Role::kDeveloper:
      return Of({P::kOrganizationView, P::kMemberView, P::kProjectView, P::kProjectCreate,
                 P::kProjectManage, P::kSdkKeyView, P::kSdkKeyCreate, P::kSdkKeyRevoke,
                 P::kPrivateApiKeyView, P::kPrivateApiKeyCreate, P::kPrivateApiKeyRevoke,
                 P::kAnalyticsView, P::kBotsView, P::kBotsClassify, P::kEventsIngest,
                 P::kBotsIngest, P::kWebhookCreate, P::kAiVisibilityView, P::kAiVisibilityManage,
                 P::kSiteAuditView, P::kSiteAuditManage, P::kAgentUse});
    case Role::kAnalyst:
      return Of({P::kOrganizationView, P::kMemberView, P::kProjectView, P::kAnalyticsView,
                 P::kBotsView, P::kBotsClassify, P::kAiVisibilityView, P::kSiteAuditView,
                 P::kAgentUse});
    case Role::kSupport:
      // Support reads web analytics and the audit log, and may ask the assistant about them
      // (which then refuses crawler analytics, as the role does).
      return Of({P::kOrganizationView, P::kMemberView, P::kProjectView, P::kAnalyticsView,
                 P::kAuditLogView, P::kAgentUse});
  }
  return {};
}

PermissionSet LimitForPrivateApiKey(const PermissionSet& creator_permissions) {
  // A key is bound to one project: it never manages credentials (spec rule 1), and nothing it
  // holds reaches beyond its project — not the organization's settings, members, invitations
  // or organization-wide audit log, nor the creation or deletion of projects.
  PermissionSet set = creator_permissions;
  for (P p : {P::kSdkKeyView, P::kSdkKeyCreate, P::kSdkKeyRevoke, P::kPrivateApiKeyView,
              P::kPrivateApiKeyCreate, P::kPrivateApiKeyRevoke, P::kOrganizationManage,
              P::kOrganizationDelete, P::kMemberView, P::kMemberInvite, P::kMemberManage,
              P::kAuditLogView, P::kProjectDelete, P::kProjectCreate, P::kAccount}) {
    set.Remove(p);
  }
  return set;
}

}  // namespace sightline::identity
