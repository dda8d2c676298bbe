#include "identity/authenticator.h"

#include "core/crypto.h"
#include "identity/api_keys.h"
#include "storage/account_repository.h"

namespace sightline::identity {

using core::Error;
using core::ErrorCode;
using core::Result;

std::string_view CredentialKindName(CredentialKind kind) {
  switch (kind) {
    case CredentialKind::kSdkKey: return "sdk_key";
    case CredentialKind::kPrivateApiKey: return "private_api_key";
    case CredentialKind::kUserSession: return "user_session";
    case CredentialKind::kMcpToken: return "mcp_token";
    case CredentialKind::kTwoFactorSetup: return "two_factor_setup";
    case CredentialKind::kCliToken: return "cli_token";
    case CredentialKind::kNone: break;
  }
  return "none";
}

std::string CredentialName(const Principal& principal) {
  switch (principal.kind) {
    case CredentialKind::kPrivateApiKey: return "key:" + principal.credential_id;
    case CredentialKind::kMcpToken:
    case CredentialKind::kCliToken: return "grant:" + principal.credential_id;
    case CredentialKind::kUserSession:
    case CredentialKind::kTwoFactorSetup: return "user:" + principal.user_id.value_or("");
    case CredentialKind::kSdkKey: return "sdk:" + principal.credential_id;
    case CredentialKind::kNone: break;
  }
  return "anonymous";
}

Result<Principal> Authenticator::AuthenticatePrivateKey(std::string_view secret) {
  return Authenticate(secret, storage::KeyKind::kPrivate);
}

Result<Principal> Authenticator::AuthenticateSdkKey(std::string_view secret) {
  return Authenticate(secret, storage::KeyKind::kSdk);
}

Result<Principal> Authenticator::Authenticate(std::string_view secret,
                                              storage::KeyKind expected) {
  const auto kind = ParseKeyKind(secret);
  if (!kind) {
    return Error(ErrorCode::kAuthMalformedCredential, "The credential is not a valid API key.");
  }
  if (*kind != expected) {
    return Error(ErrorCode::kAuthWrongCredentialKind,
                 expected == storage::KeyKind::kPrivate
                     ? "This route needs a private API key (sk_service_…), not an SDK key."
                     : "This route needs an SDK key (pk_service_…).");
  }
  const std::string hash = HashKey(secret);
  // One statement: the key with its organization, project and creator's role.
  auto found = store_.ReadOne(
      [&](storage::Transaction& tx) { return tx.accounts().FindCredentialGrant(hash); });
  if (!found) return found.error();
  // The lookup is by hash; compare again in constant time so equality never leaks by timing.
  if (!*found || !core::ConstantTimeEquals((*found)->key.secret_hash, hash) ||
      (*found)->key.revoked_at) {
    return Error(ErrorCode::kAuthInvalidCredential, "The API key is unknown or revoked.");
  }
  const storage::ApiKeyRecord& key = (*found)->key;
  Principal principal;
  principal.credential_id = key.id;
  principal.organization_id = key.organization_id;
  principal.organization_slug = (*found)->organization.slug;
  principal.organization =
      std::make_shared<const storage::OrganizationRecord>((*found)->organization);
  principal.project_id = key.project_id;
  if ((*found)->project) {
    principal.project = std::make_shared<const storage::ProjectRecord>(*(*found)->project);
  }
  principal.user_id = key.created_by;
  if (expected == storage::KeyKind::kSdk) {
    principal.kind = CredentialKind::kSdkKey;
    principal.permissions.Add(Permission::kEventsIngest);
    return principal;
  }
  principal.kind = CredentialKind::kPrivateApiKey;
  // A key holds its creator's live role; a creator who left the organization leaves it
  // with no permissions at all (403 on every operation, not 401: the key itself is valid).
  if (const auto& role_name = (*found)->creator_role) {
    if (auto role = ParseRole(*role_name)) {
      principal.permissions = LimitForPrivateApiKey(RolePermissions(*role));
    }
  }
  return principal;
}

}  // namespace sightline::identity
