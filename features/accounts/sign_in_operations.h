// Authentication operations: login, refresh_token, logout.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kLogin;
extern const OperationSpec kLoginTwoFactor;

// The AuthResponse of a sign-in: tokens and the user, or the two-factor setup variant.
core::Result<boost::json::value> AuthResponseFor(storage::Store& store,
                                                 const identity::LoginResult& login);
extern const OperationSpec kRefreshToken;
extern const OperationSpec kLogout;

}  // namespace sightline::tools
