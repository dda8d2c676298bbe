// Authentication operations: login, refresh_token, logout.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kLogin;
extern const OperationSpec kRefreshToken;
extern const OperationSpec kLogout;

}  // namespace sightline::tools
