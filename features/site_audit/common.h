// What the site-audit operation files share (an internal header of features/site_audit/): who
// may call them, the project they act in and the service they need. Their schemas are data:
// features/site_audit/schemas.json.
#pragma once

#include "site_audit/site_audit_service.h"
#include "tools/operation.h"
#include "tools/paging.h"

namespace sightline::tools::site_audit {

// Signed-in users and the project's private API keys.
inline constexpr auto kCallers =
    identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey;

// The dispatcher resolved the path's project before the operation runs.
inline const std::string& ProjectId(const OperationContext& context) {
  return context.project->id;
}

// The server's site-audit service; SYS_002 on a server built without one (tests).
inline core::Result<const sightline::site_audit::SiteAuditService*> Service(const OperationContext& context) {
  if (context.services.site_audit == nullptr) {
    return core::Error(core::ErrorCode::kUnavailable, "This server does not run site audits.");
  }
  return context.services.site_audit;
}

}  // namespace sightline::tools::site_audit
