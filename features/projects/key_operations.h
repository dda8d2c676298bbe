// SDK keys and private API keys of a project: create (the secret is shown once), list, revoke.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kCreateSdkKey;
extern const OperationSpec kListSdkKeys;
extern const OperationSpec kRevokeSdkKey;
extern const OperationSpec kCreatePrivateApiKey;
extern const OperationSpec kListPrivateApiKeys;
extern const OperationSpec kRevokePrivateApiKey;

}  // namespace sightline::tools
