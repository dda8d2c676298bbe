#include "tools/audit_log.h"

#include "core/json_util.h"
#include "storage/account_repository.h"

namespace sightline::tools {

storage::AuditRecord MakeAuditRecord(const OperationContext& context, AuditEntry entry) {
  storage::AuditRecord record;
  record.created_at = context.clock.NowMillis();
  record.id = core::NewUuidV7(record.created_at);  // sorts in creation order within a millisecond
  record.organization_id = !entry.organization_id.empty() ? std::move(entry.organization_id)
                           : context.organization           ? context.organization->id
                                                            : context.principal.organization_id;
  if (context.project) record.project_id = context.project->id;
  record.actor_user_id = context.principal.user_id;
  record.credential_kind = std::string(identity::CredentialKindName(context.principal.kind));
  if (!context.principal.credential_id.empty()) {
    record.credential_id = context.principal.credential_id;
  }
  record.action = std::move(entry.action);
  if (!entry.target_type.empty()) record.target_type = std::move(entry.target_type);
  if (!entry.target_id.empty()) record.target_id = std::move(entry.target_id);
  record.request_id = std::string(context.request.request_id);
  record.details_json = core::ToJson(entry.details);
  return record;
}

core::Result<void> AuditAccountChange(OperationContext& context, std::string action,
                                      boost::json::object details) {
  AuditEntry entry{std::move(action), "user", *context.principal.user_id, std::move(details), {}};
  return context.store.Write([&](storage::Transaction& tx) {
    return tx.accounts().InsertAudit(MakeAuditRecord(context, std::move(entry)));
  });
}

}  // namespace sightline::tools
