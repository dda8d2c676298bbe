// Command-line logins (/auth/cli/sessions, oauth/device_login.h): the CLI starts one and polls
// for its tokens; the signed-in user looks it up by its code, approves or denies it on the
// dashboard's /cli page, and lists and revokes the approved ones.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kStartCliLogin;
extern const OperationSpec kPollCliLogin;
extern const OperationSpec kGetCliLogin;
extern const OperationSpec kApproveCliLogin;
extern const OperationSpec kDenyCliLogin;
extern const OperationSpec kListCliSessions;
extern const OperationSpec kRevokeCliSession;

}  // namespace sightline::tools
