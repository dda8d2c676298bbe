#include "storage/transaction.h"

#include "storage/account_repository.h"
#include "storage/agent_repository.h"
#include "storage/ai_visibility_repository.h"
#include "storage/site_audit_repository.h"
#include "storage/event_repository.h"
#include "storage/oauth_repository.h"
#include "storage/report_repository.h"
#include "storage/second_factor_repository.h"

namespace sightline::storage {

AccountRepository Transaction::accounts() { return AccountRepository(session_); }
SecondFactorRepository Transaction::second_factors() { return SecondFactorRepository(session_); }
EventRepository Transaction::events() { return EventRepository(session_); }
ReportRepository Transaction::reports() { return ReportRepository(session_); }
OAuthRepository Transaction::oauth() { return OAuthRepository(session_); }
AgentRepository Transaction::agent() { return AgentRepository(session_); }
AiVisibilityRepository Transaction::ai_visibility() { return AiVisibilityRepository(session_); }
SiteAuditRepository Transaction::site_audit() { return SiteAuditRepository(session_); }

}  // namespace sightline::storage
