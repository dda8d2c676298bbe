// What the consent page offers a signed-in user and how their choice becomes a Consent: the
// organizations they belong to with their projects, and the permissions their role there holds
// that an MCP connection can use. Reads the store; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "identity/permissions.h"
#include "storage/store.h"

namespace sightline::oauth {

// What the user chose on the consent page.
struct Consent {
  std::string user_id;
  std::string organization_id;
  std::string project_id;
  identity::PermissionSet permissions;
  bool read_only = false;
  // Full access: whatever the role allows at each request, promotions included; `permissions`
  // is then the role's grantable set at consent time (shown, not stored).
  bool follows_role = false;
};

struct ConsentProject {
  std::string id;
  std::string name;
};

struct ConsentOrganization {
  std::string id;
  std::string slug;
  std::string name;
  std::string role;
  std::vector<ConsentProject> projects;
  identity::PermissionSet grantable;  // the role's permissions an MCP connection can use
};

enum class ConsentPreset {
  kAll,       // everything the role allows, at every request (it follows role changes)
  kReadOnly,  // the role's view permissions, read-only tools only
  kCustom,    // the permissions ticked, within the role
};

// The user's organizations (by name) with their projects; those without projects are left out.
core::Result<std::vector<ConsentOrganization>> ConsentChoices(
    storage::Store& store, const std::string& user_id, const identity::PermissionSet& grantable);

// Every permission the user could grant in one of `choices` (what the consent page lists).
identity::PermissionSet OfferedPermissions(const std::vector<ConsentOrganization>& choices);

// The user's choice as a Consent: VAL_003 (`details.field`) when the organization or project is
// not one of the choices, or a custom choice ticks nothing the role allows.
core::Result<Consent> ResolveConsent(const std::vector<ConsentOrganization>& choices,
                                     const std::string& user_id, const std::string& organization_id,
                                     const std::string& project_id, ConsentPreset preset,
                                     const identity::PermissionSet& ticked);

}  // namespace sightline::oauth
