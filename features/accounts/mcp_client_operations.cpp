#include "features/accounts/mcp_client_operations.h"

#include "core/text.h"
#include "storage/oauth_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

json::object McpClientView(const storage::OAuthGrantView& view) {
  const storage::OAuthGrantRecord& grant = view.grant;
  json::array permissions;
  for (const std::string& name : core::SplitList(grant.permissions, ' ')) {
    permissions.emplace_back(name);
  }
  return {{"id", grant.id},
          {"clientId", grant.client_id},
          {"clientName", view.client_name},
          {"orgSlug", view.organization_slug},
          {"projectId", grant.project_id},
          {"projectName", view.project_name},
          {"permissions", std::move(permissions)},
          {"readOnly", grant.read_only},
          {"createdAt", core::FormatRfc3339(grant.created_at)},
          {"lastUsedAt", NullableTime(grant.last_used_at)}};
}

Result<json::value> RunListMcpClients(OperationContext& context, const json::object& args) {
  auto grants = context.store.Read([&](storage::Transaction& tx) {
    return tx.oauth().ListOAuthGrantsOfUser(*context.principal.user_id);
  });
  if (!grants) return grants.error();
  return AnswerWholeList(
      ListSpec{"list_mcp_clients", "clients", PageOrder::kDescending}, args, std::move(*grants),
      [](const storage::OAuthGrantView& v) { return TimeIdKey(v.grant.created_at, v.grant.id); },
      McpClientView);
}

Result<json::value> RunRevokeMcpClient(OperationContext& context, const json::object& args) {
  const std::string grant_id = RequiredString(args, "clientConnectionId");
  auto grant = context.store.Read(
      [&](storage::Transaction& tx) { return tx.oauth().FindOAuthGrant(grant_id); });
  if (!grant) return grant.error();
  // Someone else's connection is answered exactly like one that does not exist.
  if (!*grant || (*grant)->user_id != *context.principal.user_id) {
    return NotFound("MCP client connection");
  }
  AuditEntry audit{"mcp_client.revoke",
                   "mcp_client",
                   grant_id,
                   {{"clientId", (*grant)->client_id}},
                   (*grant)->organization_id};
  auto revoked = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto done = tx.oauth().RevokeOAuthGrant(grant_id, context.clock.NowMillis());
    if (!done) return done.error();
    return {};
  });
  if (!revoked) return revoked.error();
  return NoContent();
}

constexpr std::string_view kCredentialManagement =
    "Connected clients are credentials; an MCP client may not list or revoke them.";

}  // namespace

const OperationSpec kListMcpClients{
    .name = "list_mcp_clients",
    .summary = "List connected MCP clients",
    .description =
        "The MCP clients (AI assistants) the signed-in user connected through the "
        "OAuth consent page and has not revoked, newest first: which client, which "
        "project, what it may do, and when it was last used.",
    .tag = "Users",
    .method = core::HttpMethod::kGet,
    .path = "/users/me/mcp-clients",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunListMcpClients,
};

const OperationSpec kRevokeMcpClient{
    .name = "revoke_mcp_client",
    .summary = "Disconnect an MCP client",
    .description =
        "Revokes the connection and every token issued for it: the client's next "
        "request gets 401 and it must ask for consent again. 404 for another user's "
        "connection.",
    .tag = "Users",
    .method = core::HttpMethod::kDelete,
    .path = "/users/me/mcp-clients/{clientConnectionId}",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kDestructive,
    .credentials = CredentialKind::kUserSession,
    .success_status = 204,
    .mcp_exclusion_reason = kCredentialManagement,
    .run = RunRevokeMcpClient,
};

}  // namespace sightline::tools
