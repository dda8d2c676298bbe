// Turns a presented secret into a Principal, reading the store on every request so that a
// revoked key or a changed role applies to the very next request (no caches).
// Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::identity {

class Authenticator {
 public:
  explicit Authenticator(storage::Store& store) : store_(store) {}

  // For routes taking a private API key: AUTH_001 for a string that is no key, AUTH_005 for an
  // SDK key, AUTH_002 for an unknown or revoked key.
  core::Result<Principal> AuthenticatePrivateKey(std::string_view secret);
  // For ingestion routes taking an SDK key.
  core::Result<Principal> AuthenticateSdkKey(std::string_view secret);

 private:
  core::Result<Principal> Authenticate(std::string_view secret, storage::KeyKind expected);

  storage::Store& store_;
};

}  // namespace sightline::identity
