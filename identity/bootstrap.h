// `sightline admin bootstrap`: the first owner, organization, project and keys of a fresh
// install. Idempotent for the user, organization, membership and project (found by email,
// slug and name); each run issues a fresh SDK key and private API key named "bootstrap" and
// revokes the previous bootstrap pair, because stored keys are hashes and cannot be shown
// again.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "storage/store.h"

#include <string>

namespace sightline::identity {

struct BootstrapRequest {
  std::string email;
  std::string password;
  std::string organization_name;
  std::string project_name;
};

struct BootstrapResult {
  std::string user_id;
  std::string organization_slug;
  std::string project_id;
  std::string sdk_key;
  std::string private_api_key;
  bool user_created = false;  // false: an existing user was reused and its password kept
};

core::Result<BootstrapResult> Bootstrap(storage::Store& store, const core::Clock& clock,
                                        const BootstrapRequest& request);

// "Acme Inc." → "acme-inc"; reserved words of the URL space get a "-org" suffix.
std::string SlugFor(std::string_view organization_name);
bool IsReservedSlug(std::string_view slug);
bool IsValidEmail(std::string_view email);

}  // namespace sightline::identity
