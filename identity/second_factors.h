// Which second factors a user has, and which of their organizations require one: the one place
// that says an authenticator app (TOTP) or a registered passkey meets an organization's
// two-factor requirement (a passkey with user verification is the strongest second factor
// there is: it cannot be phished). Pure functions over a transaction.
#pragma once

#include <vector>

#include "core/result.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::identity {

struct SecondFactors {
  bool totp = false;     // two-factor authentication with an app is on
  bool passkey = false;  // at least one passkey is registered
  std::vector<storage::OrganizationRecord> required_by;  // the user's organizations requiring one

  bool any() const { return totp || passkey; }
  // An organization requires a second factor and the user has none: setup before any session.
  bool needs_setup() const { return !required_by.empty() && !any(); }
  // Whether a sign-in with the password asks for a second step: always with TOTP on (the user
  // chose it), and with a passkey when the passkey is what meets an organization's requirement.
  bool asked_after_password() const { return totp || (passkey && !required_by.empty()); }
};

core::Result<SecondFactors> LoadSecondFactors(storage::Transaction& tx,
                                              const storage::UserRecord& user);

// AUTH_011 (403): removing the user's last second factor while `organizations` require one;
// `details.organizations` lists their {slug, name} (the TwoFactorDisableForbiddenResponse).
core::Error LastSecondFactorError(const std::vector<storage::OrganizationRecord>& organizations);

}  // namespace sightline::identity
