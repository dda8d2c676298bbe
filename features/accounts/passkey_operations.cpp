#include "features/accounts/passkey_operations.h"

#include "core/crypto.h"
#include "core/text.h"
#include "features/accounts/sign_in_operations.h"
#include "identity/passkeys.h"
#include "identity/second_factors.h"
#include "identity/webauthn.h"
#include "storage/account_repository.h"
#include "storage/second_factor_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kNotATool =
    "Passkeys are credentials; a model never registers, lists or uses them.";
constexpr int kCeremonyMillis = 5 * 60 * 1000;

Result<identity::PasskeyService*> Passkeys(OperationContext& context) {
  if (!context.services.passkeys || !context.services.passkeys->available()) {
    return Error(ErrorCode::kUnavailable,
                 "Passkeys need the server's public URL to name a host, not an IP address "
                 "(--public-url https://analytics.example.com).");
  }
  return context.services.passkeys;
}

std::string_view AlgorithmName(std::int64_t cose) {
  if (cose == identity::kCoseEdDsa) return "EdDSA";
  if (cose == identity::kCoseEs256) return "ES256";
  return cose == identity::kCoseRs256 ? "RS256" : "";
}

json::object PasskeyView(const storage::PasskeyRecord& p) {
  json::array transports;
  for (const std::string& t : core::SplitList(p.transports)) transports.push_back(json::string(t));
  return {{"id", p.id},
          {"label", p.label},
          {"algorithm", AlgorithmName(p.algorithm)},
          {"aaguid", p.aaguid},
          {"transports", std::move(transports)},
          {"createdAt", core::FormatRfc3339(p.created_at)},
          {"lastUsedAt", NullableTime(p.last_used_at)}};
}

Result<json::value> RunRegistrationOptions(OperationContext& context, const json::object&) {
  auto service = Passkeys(context);
  if (!service) return service.error();
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto challenge = (*service)->BeginRegistration(*user);
  if (!challenge) return challenge.error();
  json::array exclude;
  for (const std::string& id : challenge->exclude_credentials) {
    exclude.push_back(json::object{{"type", "public-key"}, {"id", id}});
  }
  const std::string display =
      (user->first_name + " " + user->last_name).find_first_not_of(' ') == std::string::npos
          ? user->email
          : user->first_name + " " + user->last_name;
  json::object options{
      {"challenge", challenge->challenge},
      {"rp", json::object{{"id", (*service)->settings().rp_id},
                          {"name", (*service)->settings().rp_name}}},
      {"user", json::object{{"id", core::Base64UrlEncode(user->id)},
                            {"name", user->email},
                            {"displayName", display}}},
      {"pubKeyCredParams",
       json::array{json::object{{"type", "public-key"}, {"alg", identity::kCoseEdDsa}},
                   json::object{{"type", "public-key"}, {"alg", identity::kCoseEs256}},
                   json::object{{"type", "public-key"}, {"alg", identity::kCoseRs256}}}},
      {"timeout", kCeremonyMillis},
      {"attestation", "none"},
      {"authenticatorSelection",
       json::object{{"residentKey", "required"},
                    {"requireResidentKey", true},
                    {"userVerification", "required"}}},
      {"excludeCredentials", std::move(exclude)}};
  return json::value(json::object{{"challengeId", challenge->challenge_id},
                                  {"publicKey", std::move(options)}});
}

Result<json::value> RunRegisterPasskey(OperationContext& context, const json::object& args) {
  auto service = Passkeys(context);
  if (!service) return service.error();
  auto user = CurrentUser(context);
  if (!user) return user.error();
  auto registration = identity::ReadPasskeyRegistration(args.at("credential").as_object());
  if (!registration) return registration.error();
  registration->label = OptionalString(args, "label").value_or("");
  auto passkey =
      (*service)->FinishRegistration(*user, RequiredString(args, "challengeId"), *registration);
  if (!passkey) return passkey.error();
  auto logged = AuditAccountChange(context, "user.passkey.register",
                                   json::object{{"passkeyId", passkey->id}});
  if (!logged) return logged.error();
  return json::value(PasskeyView(*passkey));
}

Result<json::value> RunListPasskeys(OperationContext& context, const json::object& args) {
  auto passkeys = context.store.Read([&](storage::Transaction& tx) {
    return tx.second_factors().ListPasskeys(*context.principal.user_id);
  });
  if (!passkeys) return passkeys.error();
  return AnswerWholeList(
      ListSpec{"list_passkeys", "passkeys"}, args, std::move(*passkeys),
      [](const storage::PasskeyRecord& p) { return TimeIdKey(p.created_at, p.id); },
      [](const storage::PasskeyRecord& p) { return PasskeyView(p); });
}

Result<json::value> RunRenamePasskey(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "passkeyId");
  const std::string& user_id = *context.principal.user_id;
  AuditEntry audit{"user.passkey.rename", "user", user_id, json::object{{"passkeyId", id}}, {}};
  auto renamed = AuditedWrite(context, audit,
                              [&](storage::Transaction& tx) -> Result<storage::PasskeyRecord> {
    auto changed = tx.second_factors().RenamePasskey(id, user_id, RequiredString(args, "label"));
    if (!changed) return changed.error();
    if (!*changed) return NotFound("passkey");
    auto all = tx.second_factors().ListPasskeys(user_id);
    if (!all) return all.error();
    for (auto& passkey : *all) {
      if (passkey.id == id) return std::move(passkey);
    }
    return NotFound("passkey");
  });
  if (!renamed) return renamed.error();
  return json::value(PasskeyView(*renamed));
}

Result<json::value> RunDeletePasskey(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "passkeyId");
  const std::string& user_id = *context.principal.user_id;
  AuditEntry audit{"user.passkey.delete", "user", user_id, json::object{{"passkeyId", id}}, {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    // First, so that turning TOTP off in another session waits for this (or this for it).
    auto locked = tx.second_factors().LockSecondFactors(user_id);
    if (!locked) return locked.error();
    auto user = tx.accounts().FindUserById(user_id);
    if (!user) return user.error();
    if (!*user) return NotFound("passkey");
    auto removed = tx.second_factors().DeletePasskey(id, user_id);
    if (!removed) return removed.error();
    if (!*removed) return NotFound("passkey");
    // As for turning TOTP off: the last second factor stays while an organization requires one
    // (the error rolls the removal back).
    auto left = identity::LoadSecondFactors(tx, **user);
    if (!left) return left.error();
    if (left->needs_setup()) return identity::LastSecondFactorError(left->required_by);
    return {};
  });
  if (!deleted) return deleted.error();
  return NoContent();
}

Result<json::value> RunSignInOptions(OperationContext& context, const json::object&) {
  auto service = Passkeys(context);
  if (!service) return service.error();
  auto challenge = (*service)->BeginAuthentication();
  if (!challenge) return challenge.error();
  return json::value(json::object{
      {"challengeId", challenge->challenge_id},
      {"publicKey", json::object{{"challenge", challenge->challenge},
                                 {"rpId", (*service)->settings().rp_id},
                                 {"timeout", kCeremonyMillis},
                                 {"userVerification", "required"},
                                 {"allowCredentials", json::array()}}}});
}

}  // namespace

Result<storage::UserRecord> PasskeySignsIn(OperationContext& context, const json::object& args) {
  auto service = Passkeys(context);
  if (!service) return service.error();
  auto assertion = identity::ReadPasskeyAssertion(args.at("credential").as_object());
  if (!assertion) return assertion.error();
  return (*service)->FinishAuthentication(RequiredString(args, "challengeId"), *assertion);
}

namespace {

Result<json::value> RunSignInWithPasskey(OperationContext& context, const json::object& args) {
  auto user = PasskeySignsIn(context, args);
  if (!user) return user.error();
  // User verification happened on the authenticator: the passkey is both factors.
  auto login = context.services.sessions.SignIn(*user, context.request.user_agent,
                                       /*second_factor_done=*/true);
  if (!login) return login.error();
  return AuthResponseFor(context.store, *login);
}

}  // namespace

const OperationSpec kPasskeyRegistrationOptions{
    .name = "create_passkey_registration_options",
    .summary = "Start adding a passkey",
    .description =
        "The options for navigator.credentials.create(): a single-use 5-minute challenge, "
        "this server as relying party, the user, Ed25519, ES256 and RS256 keys, a discoverable "
        "credential with user verification, and the user's existing passkeys excluded. "
        "503 when the server's public URL names no host (passkeys need one).",
    .tag = "Passkeys",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/passkeys/options",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "503",
    .run = RunRegistrationOptions,
};

const OperationSpec kRegisterPasskey{
    .name = "register_passkey",
    .summary = "Add a passkey",
    .description =
        "Verifies the browser's answer to the registration options (challenge, origin, RP "
        "ID, user presence and verification; attestation `none` or `packed`) and stores the "
        "passkey with its `label` (default \"Passkey\"). AUTH_013 (400) when it does not "
        "verify; 409 REQ_003 for a passkey registered already.",
    .tag = "Passkeys",
    .method = core::HttpMethod::kPost,
    .path = "/users/me/passkeys",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .success_status = 201,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "409 503",
    .run = RunRegisterPasskey,
};

const OperationSpec kListPasskeys{
    .name = "list_passkeys",
    .summary = "List my passkeys",
    .description = "The signed-in user's passkeys, oldest first.",
    .tag = "Passkeys",
    .method = core::HttpMethod::kGet,
    .path = "/users/me/passkeys",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunListPasskeys,
};

const OperationSpec kRenamePasskey{
    .name = "rename_passkey",
    .summary = "Rename a passkey",
    .description = "Changes the label of one of the user's passkeys; 404 for anyone else's.",
    .tag = "Passkeys",
    .method = core::HttpMethod::kPatch,
    .path = "/users/me/passkeys/{passkeyId}",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kNotATool,
    .run = RunRenamePasskey,
};

const OperationSpec kDeletePasskey{
    .name = "delete_passkey",
    .summary = "Remove a passkey",
    .description =
        "Removes one of the user's passkeys: it signs in no more. 404 for anyone else's. 403 "
        "AUTH_011 (with `details.organizations`) for the user's last second factor (no other "
        "passkey, two-factor authentication off) while an organization of theirs requires one.",
    .tag = "Passkeys",
    .method = core::HttpMethod::kDelete,
    .path = "/users/me/passkeys/{passkeyId}",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kDestructive,
    .credentials = CredentialKind::kUserSession,
    .success_status = 204,
    .mcp_exclusion_reason = kNotATool,
    .run = RunDeletePasskey,
};

const OperationSpec kPasskeySignInOptions{
    .name = "create_passkey_sign_in_options",
    .summary = "Start signing in with a passkey",
    .description =
        "The options for navigator.credentials.get(): a single-use 5-minute challenge and "
        "this server's RP ID, with user verification required and no credential list (the "
        "authenticator offers the user's discoverable passkeys).",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/passkeys/options",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "503",
    .run = RunSignInOptions,
};

const OperationSpec kSignInWithPasskey{
    .name = "sign_in_with_passkey",
    .summary = "Sign in with a passkey",
    .description =
        "Verifies the browser's answer (challenge, origin, RP ID, user verification, the "
        "signature with the stored key, a growing signature counter) and opens a session. "
        "The passkey counts as both factors. AUTH_013 (400) when it does not verify.",
    .tag = "Authentication",
    .method = core::HttpMethod::kPost,
    .path = "/auth/passkeys/login",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = kNotATool,
    .error_statuses = "503",
    .run = RunSignInWithPasskey,
};

}  // namespace sightline::tools
