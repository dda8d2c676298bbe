// The permission catalog and the role → permission matrix. Every operation names exactly one
// permission from this catalog; a credential's effective permissions are computed per request.
#pragma once

#include <bitset>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sightline::identity {

enum class Permission : unsigned {
  kOrganizationView,
  kOrganizationManage,
  kOrganizationDelete,
  kMemberView,
  kMemberInvite,
  kMemberManage,
  kProjectView,
  kProjectCreate,
  kProjectManage,
  kProjectDelete,
  kSdkKeyView,
  kSdkKeyCreate,
  kSdkKeyRevoke,
  kPrivateApiKeyView,
  kPrivateApiKeyCreate,
  kPrivateApiKeyRevoke,
  kAuditLogView,
  kAnalyticsView,
  kBotsView,
  kBotsClassify,
  kEventsIngest,
  kBotsIngest,
  kWebhookCreate,
  kAiVisibilityView,
  kAiVisibilityManage,
  kSiteAuditView,
  kSiteAuditManage,
  kAgentUse,
  // Not granted by roles but by the kind of credential: every user session holds
  // `account.manage` (its own profile and organizations); everyone, signed in or not, holds
  // `auth.public` (sign-in, token refresh, accepting an invitation).
  kAccount,
  kPublic,
  kCount,  // not a permission: the size of the catalog
};

struct PermissionInfo {
  Permission permission;
  std::string_view name;  // "analytics.view"
  std::string_view description;
};

std::span<const PermissionInfo> AllPermissions();
std::string_view PermissionName(Permission permission);
std::optional<Permission> ParsePermission(std::string_view name);

class PermissionSet {
 public:
  PermissionSet() = default;
  static PermissionSet All();
  bool Has(Permission p) const { return bits_.test(static_cast<unsigned>(p)); }
  void Add(Permission p) { bits_.set(static_cast<unsigned>(p)); }
  void Remove(Permission p) { bits_.reset(static_cast<unsigned>(p)); }
  PermissionSet Intersect(const PermissionSet& other) const;
  PermissionSet Union(const PermissionSet& other) const;
  std::vector<std::string_view> Names() const;  // in catalog order
  bool operator==(const PermissionSet&) const = default;

 private:
  std::bitset<static_cast<unsigned>(Permission::kCount)> bits_;
};

enum class Role { kOwner, kAdmin, kDeveloper, kAnalyst, kSupport };
std::span<const Role> AllRoles();
std::string_view RoleName(Role role);
std::optional<Role> ParseRole(std::string_view name);
PermissionSet RolePermissions(Role role);

// The permissions that only let their holder look (`*.view`): the read-only consent preset.
PermissionSet ViewPermissions();

// What a private API key may hold: its creator's permissions in the key's project, minus every
// credential-management permission (spec rule 1).
PermissionSet LimitForPrivateApiKey(const PermissionSet& creator_permissions);

}  // namespace sightline::identity
