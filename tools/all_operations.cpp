// The explicit list of every operation. Adding an operation = one spec in a *_operations.cpp
// file + one line here; routes, OpenAPI, MCP tools and agent tools follow from it.
#include "tools/agent_operations.h"
#include "tools/ai_visibility_operations.h"
#include "tools/audit_operations.h"
#include "tools/auth_operations.h"
#include "tools/bot_operations.h"
#include "tools/ingest_operations.h"
#include "tools/key_operations.h"
#include "tools/cli_login_operations.h"
#include "tools/mcp_client_operations.h"
#include "tools/member_operations.h"
#include "tools/operation.h"
#include "tools/organization_operations.h"
#include "tools/passkey_operations.h"
#include "tools/project_operations.h"
#include "tools/report_operations.h"
#include "tools/site_audit_operations.h"
#include "tools/two_factor_operations.h"
#include "tools/user_operations.h"

#include <array>
#include <functional>

namespace sightline::tools {

std::string_view EffectName(Effect effect) {
  switch (effect) {
    case Effect::kReadOnly: return "read-only";
    case Effect::kIdempotentWrite: return "idempotent write";
    case Effect::kWrite: return "write";
    case Effect::kDestructive: return "destructive";
  }
  return "write";
}

std::span<const OperationSpec> AllOperations() {
  static const std::array kOperations = {
      // Authentication and the signed-in user.
      kLogin, kLoginTwoFactor, kRefreshToken, kLogout,
      // Two-factor authentication.
      kSetupTwoFactor, kEnableTwoFactor, kDisableTwoFactor, kRegenerateBackupCodes,
      kGetTwoFactorStatus,
      // Passkeys.
      kPasskeyRegistrationOptions, kRegisterPasskey, kListPasskeys, kRenamePasskey,
      kDeletePasskey, kPasskeySignInOptions, kSignInWithPasskey,
      kGetCurrentUser, kUpdateCurrentUser, kChangePassword, kGetCurrentUserInOrganization,
      kListMcpClients, kRevokeMcpClient, kListCliSessions, kRevokeCliSession,
      kStartCliLogin, kPollCliLogin, kGetCliLogin, kApproveCliLogin, kDenyCliLogin,
      // Organizations, members, invitations, roles.
      kCreateOrganization, kListOrganizations, kGetOrganization, kUpdateOrganization,
      kDeleteOrganization, kListRoles,
      kListMembers, kUpdateMember, kRemoveMember,
      kCreateInvitation, kListInvitations, kRevokeInvitation, kAcceptInvitation,
      // Projects and their keys.
      kCreateProject, kListProjects, kGetProject, kUpdateProject, kDeleteProject,
      kCreateSdkKey, kListSdkKeys, kRevokeSdkKey,
      kCreatePrivateApiKey, kListPrivateApiKeys, kRevokePrivateApiKey,
      // The agent assistant's conversations.
      kGetAgentStatus, kCreateAgentConversation, kListAgentConversations,
      kGetAgentConversation, kSendAgentMessage, kDecideAgentToolCall, kCancelAgentAnswer,
      kDeleteAgentConversations,
      // Audit log.
      kListAuditLog,
      // Event ingestion and what it stored.
      kSdkTrackEvent, kSdkTrackEvents, kSdkIdentify,
      kListEvents, kGetUsage, kListNotifications, kStreamNotifications,
      // Crawler detection.
      kClassifyRequest, kIngestServerEvents, kIngestLogDrain,
      // Crawler analytics.
      kBotTimeline, kTopBots, kBotCountries, kBotCategories, kBotTopPaths,
      // Web analytics.
      kWebAnalytics, kWebTimeline, kWebBreakdown, kPageDurations, kDimensionTimeline,
      // AI visibility: configuration, runs and answers, reports.
      kListAiBrands, kCreateAiBrand, kUpdateAiBrand, kDeleteAiBrand,
      kListAiPrompts, kCreateAiPrompt, kCreateAiPrompts, kUpdateAiPrompt, kDeleteAiPrompt,
      kListAiEngines, kCreateAiEngine, kUpdateAiEngine, kDeleteAiEngine,
      kGetAiVisibilitySettings, kUpdateAiVisibilitySettings,
      kStartAiVisibilityRun, kListAiVisibilityRuns, kGetAiVisibilityRun, kCancelAiVisibilityRun,
      kListAiAnswers, kGetAiAnswer,
      kGetAiVisibility, kGetAiVisibilitySources, kGetAiVisibilityGaps, kGetAiVisibilityLoop,
      // Site audit: sites and their proofs, crawls and what they found.
      kListAuditSites, kAddAuditSite, kGetAuditSite, kVerifyAuditSite, kDeleteAuditSite,
      kListAuditRules,
      kStartSiteCrawl, kListSiteCrawls, kGetSiteCrawl, kCancelSiteCrawl,
      kListCrawlPages, kGetCrawlPage, kListCrawlIssues, kGetSiteAuditSummary,
      kGetRobotsTrafficReport,
  };
  return kOperations;
}

}  // namespace sightline::tools
