// The OS keyring, through the Secret Service (GNOME Keyring, KWallet…) with libsecret's
// `secret-tool`: where a login's tokens go when the session has one, so that the credentials
// file keeps only which server, organization and project a profile is (docs/cli.md).
#pragma once

#include <optional>
#include <string>

#include "core/result.h"

namespace sightline::cli {

class Keyring {
 public:
  // Whether to use it: `secret-tool` is installed, there is a D-Bus session bus, and
  // SIGHTLINE_CREDENTIAL_STORE is not "file".
  static bool Available();
  // The secret of a profile, under the attributes service=sightline-cli, profile=<name>.
  static core::Result<void> Store(const std::string& profile, const std::string& secret);
  static core::Result<std::optional<std::string>> Lookup(const std::string& profile);
  static core::Result<void> Clear(const std::string& profile);
};

}  // namespace sightline::cli
