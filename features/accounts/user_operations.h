// The signed-in user's own account: get_current_user, update_current_user,
// get_current_user_in_organization.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kGetCurrentUser;
extern const OperationSpec kUpdateCurrentUser;
extern const OperationSpec kChangePassword;
extern const OperationSpec kGetCurrentUserInOrganization;

}  // namespace sightline::tools
