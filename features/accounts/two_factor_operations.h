// Two-factor authentication of the signed-in user (TOTP and backup codes): setup, enable,
// disable, new backup codes, status. Setup and enable also accept the X-2FA-Setup-Token that
// sign-in issues when an organization requires two-factor authentication the user lacks.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kSetupTwoFactor;
extern const OperationSpec kEnableTwoFactor;
extern const OperationSpec kDisableTwoFactor;
extern const OperationSpec kRegenerateBackupCodes;
extern const OperationSpec kGetTwoFactorStatus;

}  // namespace sightline::tools
