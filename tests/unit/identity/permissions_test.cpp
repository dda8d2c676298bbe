#include "identity/permissions.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::identity {
namespace {

using Names = std::vector<std::string_view>;

// Every permission name in the catalog, in catalog order.
const Names kAll = {"organization.view",
                    "organization.manage",
                    "organization.delete",
                    "member.view",
                    "member.invite",
                    "member.manage",
                    "project.view",
                    "project.create",
                    "project.manage",
                    "project.delete",
                    "sdk_key.view",
                    "sdk_key.create",
                    "sdk_key.revoke",
                    "private_api_key.view",
                    "private_api_key.create",
                    "private_api_key.revoke",
                    "audit_log.view",
                    "analytics.view",
                    "bots.view",
                    "bots.classify",
                    "events.ingest",
                    "bots.ingest",
                    "webhook.create",
                    "aivisibility.view",
                    "aivisibility.manage",
                    "siteaudit.view",
                    "siteaudit.manage",
                    "agent.use"};

bool IsCredentialPermission(std::string_view name) {
  return name.starts_with("sdk_key.") || name.starts_with("private_api_key.");
}

TEST(PermissionCatalog, NamesAreUniqueLowercaseDottedAndInEnumOrder) {
  std::set<std::string_view> names;
  std::size_t index = 0;
  for (const PermissionInfo& info : AllPermissions()) {
    EXPECT_EQ(static_cast<std::size_t>(info.permission), index++) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate " << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    const auto dot = info.name.find('.');
    ASSERT_NE(dot, std::string_view::npos) << info.name;
    EXPECT_EQ(info.name.find('.', dot + 1), std::string_view::npos) << info.name;
    EXPECT_GT(dot, 0u) << info.name;
    EXPECT_LT(dot + 1, info.name.size()) << info.name;
    for (char c : info.name) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_' || c == '.') << info.name;
    }
  }
  EXPECT_EQ(index, static_cast<std::size_t>(Permission::kCount));
  Names everything = kAll;
  everything.push_back("account.manage");  // held by user sessions, not granted by roles
  everything.push_back("auth.public");     // held by everyone
  EXPECT_EQ(PermissionSet::All().Names(), everything);
}

TEST(PermissionCatalog, NamesRoundTrip) {
  for (const PermissionInfo& info : AllPermissions()) {
    EXPECT_EQ(PermissionName(info.permission), info.name);
    EXPECT_EQ(ParsePermission(info.name), info.permission);
  }
  EXPECT_EQ(ParsePermission("analytics.view"), Permission::kAnalyticsView);
  EXPECT_EQ(ParsePermission("Analytics.View"), std::nullopt);
  EXPECT_EQ(ParsePermission("analytics"), std::nullopt);
  EXPECT_EQ(ParsePermission("sdk_key.*"), std::nullopt);
  EXPECT_EQ(ParsePermission(""), std::nullopt);
}

TEST(Roles, NamesRoundTrip) {
  const std::vector<std::string_view> expected = {"owner", "admin", "developer", "analyst",
                                                  "support"};
  std::vector<std::string_view> names;
  for (Role role : AllRoles()) {
    names.push_back(RoleName(role));
    EXPECT_EQ(ParseRole(RoleName(role)), role);
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(ParseRole("Owner"), std::nullopt);
  EXPECT_EQ(ParseRole("superuser"), std::nullopt);
  EXPECT_EQ(ParseRole(""), std::nullopt);
}

TEST(RolePermissions, OwnerHoldsEveryRolePermission) {
  EXPECT_EQ(RolePermissions(Role::kOwner).Names(), kAll);
  EXPECT_FALSE(RolePermissions(Role::kOwner).Has(Permission::kAccount));
  EXPECT_FALSE(RolePermissions(Role::kOwner).Has(Permission::kPublic));
}

TEST(RolePermissions, AdminIsOwnerWithoutOrganizationDelete) {
  const PermissionSet admin = RolePermissions(Role::kAdmin);
  EXPECT_FALSE(admin.Has(Permission::kOrganizationDelete));
  Names expected = kAll;
  std::erase(expected, "organization.delete");
  EXPECT_EQ(admin.Names(), expected);
}

TEST(RolePermissions, Developer) {
  EXPECT_EQ(RolePermissions(Role::kDeveloper).Names(),
            (Names{"organization.view", "member.view", "project.view", "project.create",
                   "project.manage", "sdk_key.view", "sdk_key.create", "sdk_key.revoke",
                   "private_api_key.view", "private_api_key.create", "private_api_key.revoke",
                   "analytics.view", "bots.view", "bots.classify", "events.ingest", "bots.ingest",
                   "webhook.create", "aivisibility.view", "aivisibility.manage", "siteaudit.view",
                   "siteaudit.manage", "agent.use"}));
}

TEST(RolePermissions, AnalystReadsButManagesNoCredentials) {
  const PermissionSet analyst = RolePermissions(Role::kAnalyst);
  EXPECT_EQ(analyst.Names(), (Names{"organization.view", "member.view", "project.view",
                                    "analytics.view", "bots.view", "bots.classify",
                                    "aivisibility.view", "siteaudit.view", "agent.use"}));
  EXPECT_FALSE(analyst.Has(Permission::kSdkKeyCreate));
  EXPECT_FALSE(analyst.Has(Permission::kPrivateApiKeyCreate));
}

TEST(RolePermissions, Support) {
  EXPECT_EQ(RolePermissions(Role::kSupport).Names(),
            (Names{"organization.view", "member.view", "project.view", "audit_log.view",
                   "analytics.view", "agent.use"}));
}

TEST(LimitForPrivateApiKey, NeverCreatesOrDeletesCredentials) {
  for (Role role : AllRoles()) {
    const PermissionSet limited = LimitForPrivateApiKey(RolePermissions(role));
    for (Permission p : {Permission::kSdkKeyCreate, Permission::kSdkKeyRevoke,
                         Permission::kPrivateApiKeyCreate, Permission::kPrivateApiKeyRevoke}) {
      EXPECT_FALSE(limited.Has(p)) << RoleName(role) << " " << PermissionName(p);
    }
    // Limiting only ever removes.
    EXPECT_EQ(limited.Intersect(RolePermissions(role)), limited) << RoleName(role);
  }
  EXPECT_EQ(LimitForPrivateApiKey(PermissionSet()), PermissionSet());
}

TEST(LimitForPrivateApiKey, KeepsReadingAndAnalytics) {
  const PermissionSet limited = LimitForPrivateApiKey(RolePermissions(Role::kOwner));
  for (Permission p :
       {Permission::kOrganizationView, Permission::kProjectView, Permission::kProjectManage,
        Permission::kAnalyticsView, Permission::kBotsView, Permission::kWebhookCreate}) {
    EXPECT_TRUE(limited.Has(p)) << PermissionName(p);
  }
  EXPECT_FALSE(limited.Has(Permission::kOrganizationDelete));
}

// BUG (identity/permissions.cpp, LimitForPrivateApiKey): architecture.md says a private API key
// holds "never private_api_key.* or sdk_key.*", but sdk_key.view and private_api_key.view
// survive. Enable once both are removed too.
TEST(LimitForPrivateApiKey, RemovesEverySdkKeyAndPrivateApiKeyPermission) {
  for (Role role : AllRoles()) {
    for (std::string_view name : LimitForPrivateApiKey(RolePermissions(role)).Names()) {
      EXPECT_FALSE(IsCredentialPermission(name)) << RoleName(role) << " keeps " << name;
    }
  }
}

TEST(PermissionSet, AddRemoveIntersect) {
  PermissionSet a;
  EXPECT_TRUE(a.Names().empty());
  a.Add(Permission::kBotsView);
  a.Add(Permission::kAgentUse);
  a.Add(Permission::kBotsView);
  EXPECT_EQ(a.Names(), (Names{"bots.view", "agent.use"}));
  PermissionSet b;
  b.Add(Permission::kAgentUse);
  b.Add(Permission::kMemberView);
  EXPECT_EQ(a.Intersect(b).Names(), Names{"agent.use"});
  a.Remove(Permission::kAgentUse);
  a.Remove(Permission::kMemberView);  // absent: no effect
  EXPECT_EQ(a.Names(), Names{"bots.view"});
}

}  // namespace
}  // namespace sightline::identity
