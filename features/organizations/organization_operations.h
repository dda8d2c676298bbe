// Organizations: create, list mine, get, update, delete; and the roles with their permissions.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kCreateOrganization;
extern const OperationSpec kListOrganizations;
extern const OperationSpec kGetOrganization;
extern const OperationSpec kUpdateOrganization;
extern const OperationSpec kDeleteOrganization;
extern const OperationSpec kListRoles;

}  // namespace sightline::tools
