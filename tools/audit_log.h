// Every mutating operation records who did what to which target, in the same transaction as the
// change itself: both commit, or neither does.
#pragma once

#include "core/crypto.h"
#include "storage/account_repository.h"
#include "tools/operation.h"

#include <boost/json/object.hpp>

#include <string>
#include <type_traits>

namespace sightline::tools {

struct AuditEntry {
  std::string action;  // "project.update"
  std::string target_type;
  std::string target_id;
  boost::json::object details;
  // Defaults to the operation's organization; set when there is none yet (organization.create).
  std::string organization_id;
};

storage::AuditRecord MakeAuditRecord(const OperationContext& context, AuditEntry entry);

// Records an account-level change of the signed-in user (two-factor authentication, passkeys)
// that a service other than the store has already made.
core::Result<void> AuditAccountChange(OperationContext& context, std::string action,
                                      boost::json::object details = {});

// Runs `body(Transaction&) -> Result<T>` and inserts the audit record in one write transaction.
// `entry` may be completed by `body` (e.g. with the id of what it created).
template <class Body>
auto AuditedWrite(OperationContext& context, AuditEntry& entry, Body&& body)
    -> std::invoke_result_t<Body, storage::Transaction&> {
  using R = std::invoke_result_t<Body, storage::Transaction&>;
  return context.store.Write([&](storage::Transaction& tx) -> R {
    R result = body(tx);
    if (!result) return result;
    auto logged = tx.accounts().InsertAudit(MakeAuditRecord(context, entry));
    if (!logged) return R(boost::system::in_place_error, logged.error());
    return result;
  });
}

}  // namespace sightline::tools
