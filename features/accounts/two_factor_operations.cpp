#include "features/accounts/two_factor_operations.h"

#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kNotATool =
    "Handles the user's second factor: secrets and backup codes never go through a model.";

json::array CodesView(const std::vector<std::string>& codes) {
  json::array out;
  for (const std::string& code : codes) out.push_back(json::string(code));
  return out;
}

json::value StatusView(const identity::TwoFactorStatus& status) {
  json::array required;
  for (const auto& org : status.required_by) {
    required.push_back(json::object{{"slug", org.slug}, {"name", org.name}});
  }
  return json::object{{"enabled", status.enabled},
                      {"enabledAt", NullableTime(status.enabled_at)},
                      {"pendingSetup", status.pending_setup},
                      {"backupCodesRemaining", status.backup_codes_remaining},
                      {"requiredByOrganizations", std::move(required)}};
}

template <class T>
Result<T> Audited(OperationContext& context, std::string action, Result<T> result) {
  if (!result) return result;
  auto logged = AuditAccountChange(context, std::move(action));
  if (!logged) return logged.error();
  return result;
}

Result<json::value> RunSetup(OperationContext& context, const json::object&) {
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto setup = context.services.sessions.two_factor().BeginSetup(*user);
  if (!setup) return setup.error();
  return json::value(json::object{{"secret", setup->secret},
                                  {"otpauthUri", setup->otpauth_uri},
                                  {"backupCodes", CodesView(setup->backup_codes)}});
}

Result<json::value> RunEnable(OperationContext& context, const json::object& args) {
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto status = Audited(context, "user.two_factor.enable",
                        context.services.sessions.two_factor().Enable(*user, RequiredString(args, "code")));
  if (!status) return status.error();
  return StatusView(*status);
}

Result<json::value> RunDisable(OperationContext& context, const json::object& args) {
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto status =
      Audited(context, "user.two_factor.disable",
              context.services.sessions.two_factor().Disable(*user, RequiredString(args, "password"),
                                                    RequiredString(args, "code")));
  if (!status) return status.error();
  return StatusView(*status);
}

Result<json::value> RunRegenerate(OperationContext& context, const json::object&) {
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto codes = Audited(context, "user.two_factor.backup_codes",
                       context.services.sessions.two_factor().RegenerateBackupCodes(*user));
  if (!codes) return codes.error();
  return json::value(json::object{{"backupCodes", CodesView(*codes)}});
}

Result<json::value> RunStatus(OperationContext& context, const json::object&) {
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto status = context.services.sessions.two_factor().Status(*user);
  if (!status) return status.error();
  return StatusView(*status);
}

constexpr CredentialKind kSessionOrSetupToken =
    CredentialKind::kUserSession | CredentialKind::kTwoFactorSetup;

}  // namespace

const OperationSpec kSetupTwoFactor{
    .name = "setup_two_factor",
    .summary = "Start two-factor setup",
    .description =
        "A new TOTP secret (base32, and as an otpauth:// URI for a QR code) and ten backup "
        "codes, pending until enabled with a code from the app. A repeated call discards the "
        "previous pending setup. Also accepts `X-2FA-Setup-Token`. AUTH_009 (409) when "
        "two-factor authentication is on already.",
    .tag = "Two-factor authentication",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/2fa/setup",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = kSessionOrSetupToken,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "409",
    .run = RunSetup,
};

const OperationSpec kEnableTwoFactor{
    .name = "enable_two_factor",
    .summary = "Enable two-factor authentication",
    .description =
        "Confirms the pending setup with a current code from the authenticator app (the "
        "previous and next 30-second codes are accepted too); its backup codes become active. "
        "AUTH_007 for a wrong code, AUTH_008 without a pending setup (both 400). Also accepts "
        "`X-2FA-Setup-Token`; sign in again afterwards, with the code.",
    .tag = "Two-factor authentication",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/2fa/enable",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = kSessionOrSetupToken,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "429",
    .run = RunEnable,
};

const OperationSpec kDisableTwoFactor{
    .name = "disable_two_factor",
    .summary = "Disable two-factor authentication",
    .description =
        "Needs the password and a code (authenticator or backup). AUTH_012 for a wrong "
        "password, AUTH_007 for a wrong code (400); AUTH_011 (403, "
        "TwoFactorDisableForbiddenResponse: `details.organizations`) while an organization "
        "of the user requires two-factor authentication and the user has no passkey (a "
        "passkey meets the requirement too).",
    .tag = "Two-factor authentication",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/2fa/disable",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "429",
    .run = RunDisable,
};

const OperationSpec kRegenerateBackupCodes{
    .name = "regenerate_backup_codes",
    .summary = "New backup codes",
    .description =
        "Ten new single-use backup codes; the old ones stop working. AUTH_010 (400) when "
        "two-factor authentication is off.",
    .tag = "Two-factor authentication",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/2fa/backup-codes",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunRegenerate,
};

const OperationSpec kGetTwoFactorStatus{
    .name = "get_two_factor_status",
    .summary = "Two-factor status",
    .description =
        "Whether two-factor authentication is on (since when), whether a setup is pending, "
        "how many backup codes are left, and which organizations require it.",
    .tag = "Two-factor authentication",
    .method = core::HttpMethod::kGet,
    .path = "/users/me/2fa/status",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunStatus,
};

}  // namespace sightline::tools
