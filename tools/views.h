// The JSON shapes of the identity resources, shared by every operation that returns them.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "identity/sessions.h"
#include "storage/account_records.h"

namespace sightline::tools {

// A value, or JSON null when absent: the newer views state every field.
boost::json::value NullableString(const std::optional<std::string>& value);
boost::json::value NullableInteger(const std::optional<std::int64_t>& value);
boost::json::value NullableTime(const std::optional<std::int64_t>& unix_millis);  // RFC 3339

boost::json::object UserView(const storage::UserRecord& user);
// CurrentUserResponse: the user with their organizations and roles.
boost::json::object CurrentUserView(const storage::UserRecord& user,
                                    const std::vector<storage::MembershipOfUser>& memberships);
boost::json::object OrganizationView(const storage::OrganizationRecord& org,
                                     std::string_view caller_role = {});
boost::json::object MemberView(const storage::MemberRecord& member);
boost::json::object InvitationView(const storage::InvitationRecord& invitation,
                                   std::int64_t now_millis);
boost::json::object KeyView(const storage::ApiKeyRecord& key);
boost::json::object AuditView(const storage::AuditRecord& entry);
// AuthResponse: tokens plus the signed-in user.
boost::json::object AuthView(const identity::SessionTokens& tokens, boost::json::object user);

}  // namespace sightline::tools
