// Members and invitations of an organization.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListMembers;
extern const OperationSpec kUpdateMember;
extern const OperationSpec kRemoveMember;
extern const OperationSpec kCreateInvitation;
extern const OperationSpec kListInvitations;
extern const OperationSpec kRevokeInvitation;
extern const OperationSpec kAcceptInvitation;

}  // namespace sightline::tools
