#include "features/audit_log/audit_log_operations.h"

#include "core/clock.h"
#include "storage/account_repository.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kAuditList = "list_audit_log";

Result<std::optional<std::int64_t>> TimeArg(const json::object& args, std::string_view name) {
  const auto text = OptionalString(args, name);
  if (!text) return std::optional<std::int64_t>();
  const auto millis = core::ParseRfc3339(*text);
  if (!millis) {
    return core::Error::Invalid(std::string(name), "'" + std::string(name) +
                                                       "' must be an RFC 3339 date-time.");
  }
  return std::optional<std::int64_t>(*millis);
}

Result<storage::AuditQuery> QueryFrom(const OperationContext& context, const json::object& args) {
  storage::AuditQuery query;
  query.organization_id = context.organization->id;
  query.actor_user_id = OptionalString(args, "actorId");
  query.action = OptionalString(args, "action");
  auto from = TimeArg(args, "from");
  if (!from) return from.error();
  auto to = TimeArg(args, "to");
  if (!to) return to.error();
  query.from = *from;
  query.to = *to;
  auto page = ReadPageArgs(args, kAuditList, kTimeIdShape, 50);
  if (!page) return page.error();
  if (page->after) query.before = TimeIdOf(*page->after);
  query.limit = page->limit;
  return query;
}

Result<json::value> RunListAuditLog(OperationContext& context, const json::object& args) {
  auto query = QueryFrom(context, args);
  if (!query) return query.error();
  // One row more than asked tells whether there is a next page.
  storage::AuditQuery probe = *query;
  probe.limit = query->limit + 1;
  auto entries =
      context.store.Read([&](storage::Transaction& tx) { return tx.accounts().ListAudit(probe); });
  if (!entries) return entries.error();
  const auto last = TrimToPage(*entries, query->limit, [](const storage::AuditRecord& entry) {
    return TimeIdKey(entry.created_at, entry.id);
  });
  json::array out;
  for (const auto& entry : *entries) out.push_back(AuditView(entry));
  json::object page{{"entries", std::move(out)}};
  WriteNextCursor(page, kAuditList, last);
  return json::value(std::move(page));
}

}  // namespace

const OperationSpec kListAuditLog{
    .name = "list_audit_log",
    .summary = "List the audit log",
    .description = "Every change made in the organization: who (user, credential kind and id), "
                   "what (action, target), when, and the request id. Newest first; filter by "
                   "actor, action and time; page with `cursor` (the previous page's "
                   "`nextCursor`).",
    .tag = "Audit log",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/audit-log",
    .permission = identity::Permission::kAuditLogView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListAuditLog,
};

}  // namespace sightline::tools
