#include "identity/second_factors.h"

#include "storage/account_repository.h"
#include "storage/second_factor_repository.h"

namespace sightline::identity {

core::Result<SecondFactors> LoadSecondFactors(storage::Transaction& tx,
                                              const storage::UserRecord& user) {
  SecondFactors factors;
  factors.totp = user.two_factor_enabled;
  auto memberships = tx.accounts().ListOrganizationsOfUser(user.id);
  if (!memberships) return memberships.error();
  for (const auto& m : *memberships) {
    if (m.organization.require_two_factor) factors.required_by.push_back(m.organization);
  }
  auto passkeys = tx.second_factors().ListPasskeys(user.id);
  if (!passkeys) return passkeys.error();
  factors.passkey = !passkeys->empty();
  return factors;
}

core::Error LastSecondFactorError(const std::vector<storage::OrganizationRecord>& organizations) {
  boost::json::array listed;
  for (const auto& org : organizations) {
    listed.push_back(boost::json::object{{"slug", org.slug}, {"name", org.name}});
  }
  return core::Error(core::ErrorCode::kAuthTwoFactorRequired,
                     "An organization you belong to requires two-factor authentication, and this "
                     "is your last second factor.",
                     boost::json::object{{"organizations", std::move(listed)}});
}

}  // namespace sightline::identity
