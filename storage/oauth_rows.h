// How the OAuth repository files read grant rows (an internal header of this folder).
#pragma once

#include <cstddef>
#include <string_view>

#include "storage/oauth_records.h"
#include "storage/sql.h"

namespace sightline::storage::internal {

inline constexpr std::string_view kGrantColumns =
    "id, client_id, user_id, organization_id, project_id, permissions, read_only, resource, "
    "redirect_uri, code_hash, code_challenge, code_expires_at, code_used_at, created_at, "
    "last_used_at, revoked_at";
// The grant whose kGrantColumns start at column `at`.
OAuthGrantRecord MapGrant(const SqlRow& row, std::size_t at = 0);

}  // namespace sightline::storage::internal
