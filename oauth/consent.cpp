#include "oauth/consent.h"
#include "storage/account_repository.h"

#include <algorithm>

namespace sightline::oauth {

using core::Error;
using core::Result;
using identity::PermissionSet;

Result<std::vector<ConsentOrganization>> ConsentChoices(storage::Store& store,
                                                        const std::string& user_id,
                                                        const PermissionSet& grantable) {
  return store.Read([&](storage::Transaction& tx) -> Result<std::vector<ConsentOrganization>> {
    auto memberships = tx.accounts().ListOrganizationsOfUser(user_id);
    if (!memberships) return memberships.error();
    std::vector<ConsentOrganization> choices;
    for (const storage::MembershipOfUser& membership : *memberships) {
      const auto role = identity::ParseRole(membership.role);
      if (!role) continue;
      auto projects = tx.accounts().ListProjects(membership.organization.id);
      if (!projects) return projects.error();
      if (projects->empty()) continue;
      ConsentOrganization organization{membership.organization.id,
                                       membership.organization.slug,
                                       membership.organization.name,
                                       membership.role,
                                       {},
                                       identity::RolePermissions(*role).Intersect(grantable)};
      for (const storage::ProjectRecord& project : *projects) {
        organization.projects.push_back({project.id, project.name});
      }
      choices.push_back(std::move(organization));
    }
    std::sort(choices.begin(), choices.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return choices;
  });
}

PermissionSet OfferedPermissions(const std::vector<ConsentOrganization>& choices) {
  PermissionSet offered;
  for (const ConsentOrganization& organization : choices) {
    offered = offered.Union(organization.grantable);
  }
  return offered;
}

Result<Consent> ResolveConsent(const std::vector<ConsentOrganization>& choices,
                               const std::string& user_id, const std::string& organization_id,
                               const std::string& project_id, ConsentPreset preset,
                               const PermissionSet& ticked) {
  const auto organization = std::find_if(choices.begin(), choices.end(),
                                         [&](const auto& o) { return o.id == organization_id; });
  if (organization == choices.end()) {
    return Error::Invalid("organization", "Choose one of your organizations.");
  }
  const bool has_project = std::any_of(organization->projects.begin(), organization->projects.end(),
                                       [&](const ConsentProject& p) { return p.id == project_id; });
  if (!has_project) {
    return Error::Invalid("project", "Choose a project of " + organization->name + ".");
  }
  Consent consent{user_id, organization_id, project_id, {}, preset == ConsentPreset::kReadOnly,
                  preset == ConsentPreset::kAll};
  switch (preset) {
    case ConsentPreset::kAll:
      consent.permissions = organization->grantable;
      break;
    case ConsentPreset::kReadOnly:
      consent.permissions = organization->grantable.Intersect(identity::ViewPermissions());
      break;
    case ConsentPreset::kCustom:
      consent.permissions = organization->grantable.Intersect(ticked);
      break;
  }
  if (consent.permissions == PermissionSet()) {
    return Error::Invalid("permissions",
                          "Your role in " + organization->name +
                              " holds none of the permissions chosen; choose at least one.");
  }
  return consent;
}

}  // namespace sightline::oauth
