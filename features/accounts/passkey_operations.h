// Passkeys of the signed-in user (register, list, rename, delete) and signing in with one. The
// JSON follows the browser's own serialization of WebAuthn objects (PublicKeyCredential's
// toJSON(): binary fields as base64url), so a page can pass `publicKey` straight to
// PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kPasskeyRegistrationOptions;
extern const OperationSpec kRegisterPasskey;
extern const OperationSpec kListPasskeys;
extern const OperationSpec kRenamePasskey;
extern const OperationSpec kDeletePasskey;
extern const OperationSpec kPasskeySignInOptions;
extern const OperationSpec kSignInWithPasskey;

// The user the passkey assertion in `args` (`challengeId`, `credential`) signs in, verified;
// AUTH_013 when it does not verify, 503 SYS_002 where passkeys cannot work.
core::Result<storage::UserRecord> PasskeySignsIn(OperationContext& context,
                                                 const boost::json::object& args);

}  // namespace sightline::tools
