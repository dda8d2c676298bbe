#include "features/audit_log/audit_log_operations.h"

#include "core/crypto.h"
#include "storage/account_repository.h"
#include "tools/operation_helpers.h"
#include "tools/schema_fragments.h"
#include "tools/views.h"

#include <charconv>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

// Cursors are opaque to clients: base64url of "<created_at>:<id>" of the last entry seen.
std::string EncodeCursor(const storage::AuditRecord& entry) {
  return core::Base64UrlEncode(std::to_string(entry.created_at) + ":" + entry.id);
}

std::optional<std::pair<std::int64_t, std::string>> DecodeCursor(std::string_view cursor) {
  const auto text = core::Base64UrlDecode(cursor);
  if (!text) return std::nullopt;
  const auto colon = text->find(':');
  std::int64_t at = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + std::min(colon, text->size()), at);
  if (colon == std::string::npos || ec != std::errc() || end != text->data() + colon) {
    return std::nullopt;
  }
  return std::make_pair(at, text->substr(colon + 1));
}

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
  if (auto cursor = OptionalString(args, "cursor")) {
    query.before = DecodeCursor(*cursor);
    if (!query.before) return core::Error::Invalid("cursor", "'cursor' is not a cursor this API gave out.");
  }
  // The schema bounds `limit` to 1..200; the default is 50.
  if (const json::value* limit = args.if_contains("limit")) {
    query.limit = static_cast<std::size_t>(limit->to_number<std::int64_t>());
  }
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
  const bool more = entries->size() > query->limit;
  if (more) entries->resize(query->limit);
  json::array out;
  for (const auto& entry : *entries) out.push_back(AuditView(entry));
  json::object page{{"entries", std::move(out)}};
  page["nextCursor"] = more ? json::value(EncodeCursor(entries->back())) : json::value(nullptr);
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
    .input_schema = R"({"type": "object", "required": ["orgSlug"], "properties": {)"
        SIGHTLINE_ORG_SLUG_PROPERTY R"(,
        "actorId": {"type": "string", "maxLength": 64, "description": "Only this user's actions."},
        "action": {"type": "string", "maxLength": 64, "description": "e.g. project.update"},
        "from": {"type": "string", "format": "date-time", "description": "Inclusive."},
        "to": {"type": "string", "format": "date-time", "description": "Exclusive."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Default 50."},
        "cursor": {"type": "string", "maxLength": 200}}})",
    .output_schema = R"({"type": "object", "required": ["entries"], "properties": {
        "entries": {"type": "array", "items": )" SIGHTLINE_AUDIT_ENTRY_SCHEMA R"(},
        "nextCursor": {"type": "string", "nullable": true}}})",
    .permission = identity::Permission::kAuditLogView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListAuditLog,
};

}  // namespace sightline::tools
