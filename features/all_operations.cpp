// The explicit list of every operation. Adding an operation = one spec in its feature's folder
// (features/<feature>/) + one line here; routes, OpenAPI, MCP tools and agent tools follow
// from it.
#include "features/all_operations.h"

#include "features/accounts/cli_login_operations.h"
#include "features/accounts/mcp_client_operations.h"
#include "features/accounts/passkey_operations.h"
#include "features/accounts/sign_in_operations.h"
#include "features/accounts/two_factor_operations.h"
#include "features/accounts/user_operations.h"
#include "features/ai_visibility/operations.h"
#include "features/assistant/operations.h"
#include "features/audit_log/audit_log_operations.h"
#include "features/crawler_analytics/crawler_report_operations.h"
#include "features/events/event_operations.h"
#include "features/ingestion/forwarding_operations.h"
#include "features/ingestion/sdk_operations.h"
#include "features/notifications/notification_operations.h"
#include "features/organizations/member_operations.h"
#include "features/organizations/organization_operations.h"
#include "features/projects/key_operations.h"
#include "features/projects/project_operations.h"
#include "features/query/property_keys_operation.h"
#include "features/query/query_operations.h"
#include "features/site_audit/operations.h"
#include "features/web_analytics/web_report_operations.h"

#include <array>
#include <functional>

namespace sightline::tools {

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
      kBotTimeline, kTopBots, kBotCountries, kBotCategories, kBotTopPaths, kGetCrawlerAccess,
      // Web analytics.
      kWebAnalytics, kWebTimeline, kWebBreakdown, kPageDurations, kDimensionTimeline,
      kWebRealtime,
      // The one query over every dataset.
      kQuery, kQueryV2, kGetPropertyKeys,
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
