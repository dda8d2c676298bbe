#include "features/projects/key_operations.h"

#include "identity/api_keys.h"
#include "storage/account_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;
using storage::KeyKind;

std::string_view KindName(KeyKind kind) {
  return kind == KeyKind::kSdk ? "sdk_key" : "private_api_key";
}

template <KeyKind kKind>
Result<json::value> RunCreateKey(OperationContext& context, const json::object& args) {
  const identity::NewKeySecret secret = identity::GenerateKey(kKind);
  const storage::ApiKeyRecord key = identity::NewKeyRecord(
      *context.project, kKind, secret, OptionalString(args, "name").value_or(""),
      context.principal.user_id, context.clock.NowMillis());
  AuditEntry audit{std::string(KindName(kKind)) + ".create", std::string(KindName(kKind)), key.id,
                   {{"name", key.name}, {"displayPrefix", key.display_prefix}}, {}};
  auto created = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.accounts().InsertApiKey(key);
  });
  if (!created) return created.error();
  json::object out = KeyView(key);
  out["key"] = secret.secret;
  return json::value(std::move(out));
}

template <KeyKind kKind>
Result<json::value> RunListKeys(OperationContext& context, const json::object& args) {
  const ListSpec list{kKind == KeyKind::kSdk ? "list_sdk_keys" : "list_private_api_keys", "keys"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto keys = context.store.Read([&](storage::Transaction& tx) {
    return tx.accounts().ListApiKeys(context.project->id, KeysetOf(*request),
                                     kKind == KeyKind::kSdk ? "sdk" : "private");
  });
  if (!keys) return keys.error();
  return AnswerPage(
      list, request->limit, std::move(*keys),
      [](const storage::ApiKeyRecord& key) { return TimeIdKey(key.created_at, key.id); }, KeyView);
}

template <KeyKind kKind>
Result<json::value> RunRevokeKey(OperationContext& context, const json::object& args) {
  const std::string key_id = RequiredString(args, "keyId");
  AuditEntry audit{std::string(KindName(kKind)) + ".revoke", std::string(KindName(kKind)),
                   key_id, {}, {}};
  auto revoked = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto key = tx.accounts().FindApiKey(key_id);
    if (!key) return key.error();
    if (!*key || (*key)->project_id != context.project->id || (*key)->kind != kKind) {
      return NotFound(KindName(kKind) == "sdk_key" ? "SDK key" : "private API key");
    }
    // Revoking twice is not an error: the key is revoked either way.
    auto done = tx.accounts().RevokeApiKey(key_id, context.clock.NowMillis());
    if (!done) return done.error();
    return {};
  });
  if (!revoked) return revoked.error();
  return NoContent();
}

constexpr std::string_view kCredentialManagement =
    "Credential management is never available to tools.";
// Keys are accepted so that a key asking gets a clear 403: keys never manage credentials.
constexpr CredentialKind kAnyAccount = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey;

}  // namespace

const OperationSpec kCreateSdkKey{
    .name = "create_sdk_key",
    .summary = "Create an SDK key",
    .description = "A public key (pk_service_…) for the browser and mobile SDKs; it can only "
                   "send events. The secret is in this response only.",
    .tag = "Keys",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/sdk-keys",
    .permission = identity::Permission::kSdkKeyCreate,
    .effect = Effect::kWrite,
    .credentials = kAnyAccount,
    .success_status = 201,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunCreateKey<KeyKind::kSdk>,
};

const OperationSpec kListSdkKeys{
    .name = "list_sdk_keys",
    .summary = "List SDK keys",
    .description = "The project's SDK keys, revoked ones included; never their secrets.",
    .tag = "Keys",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/sdk-keys",
    .permission = identity::Permission::kSdkKeyView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunListKeys<KeyKind::kSdk>,
};

const OperationSpec kRevokeSdkKey{
    .name = "revoke_sdk_key",
    .summary = "Revoke an SDK key",
    .description = "The key stops working on its next request.",
    .tag = "Keys",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/sdk-keys/{keyId}",
    .permission = identity::Permission::kSdkKeyRevoke,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunRevokeKey<KeyKind::kSdk>,
};

const OperationSpec kCreatePrivateApiKey{
    .name = "create_private_api_key",
    .summary = "Create a private API key",
    .description = "A secret key (sk_service_…) bound to this project. It acts with the "
                   "creator's live permissions in the project, and can never manage keys. The "
                   "secret is in this response only.",
    .tag = "Keys",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/private-api-keys",
    .permission = identity::Permission::kPrivateApiKeyCreate,
    .effect = Effect::kWrite,
    .credentials = kAnyAccount,
    .success_status = 201,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunCreateKey<KeyKind::kPrivate>,
};

const OperationSpec kListPrivateApiKeys{
    .name = "list_private_api_keys",
    .summary = "List private API keys",
    .description = "The project's private API keys, revoked ones included; never their secrets.",
    .tag = "Keys",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/private-api-keys",
    .permission = identity::Permission::kPrivateApiKeyView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunListKeys<KeyKind::kPrivate>,
};

const OperationSpec kRevokePrivateApiKey{
    .name = "revoke_private_api_key",
    .summary = "Revoke a private API key",
    .description = "The key stops working on its next request, on every node.",
    .tag = "Keys",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/private-api-keys/{keyId}",
    .permission = identity::Permission::kPrivateApiKeyRevoke,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunRevokeKey<KeyKind::kPrivate>,
};

}  // namespace sightline::tools
