// Data access for every record kind, written once over SqlSession and run unchanged on SQLite
// and PostgreSQL. A Repository lives for one transaction (see Store::Read / Store::Write) and
// is used by one thread. Lookups return nullopt for "not there"; errors are storage failures,
// or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/records.h"
#include "storage/sql.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sightline::storage {

class Repository {
 public:
  explicit Repository(SqlSession& session) : session_(session) {}

  core::Result<void> InsertUser(const UserRecord& user);
  core::Result<std::optional<UserRecord>> FindUserById(std::string_view id);
  core::Result<std::optional<UserRecord>> FindUserByEmail(std::string_view email);

  // Writes first_name, last_name and updated_at; false when the user is gone.
  core::Result<bool> UpdateUserNames(const UserRecord& user);
  // Writes two_factor_enabled and updated_at (for the two-factor issue).
  core::Result<bool> UpdateUserTwoFactor(std::string_view user_id, bool enabled,
                                         std::int64_t at);

  core::Result<void> InsertOrganization(const OrganizationRecord& org);
  // Two-factor authentication (storage/repository_two_factor.cpp).
  core::Result<std::optional<TwoFactorRecord>> FindTwoFactor(std::string_view user_id);
  // Starts (or restarts) a setup: the pending secret, with its backup codes' hashes pending.
  core::Result<void> BeginTwoFactorSetup(std::string_view user_id, std::string_view secret,
                                         const std::vector<std::string>& code_hashes,
                                         std::int64_t now);
  // The pending setup becomes the user's second factor (its codes replace any old ones), with
  // `step` already used; sets users.two_factor_enabled.
  core::Result<void> EnableTwoFactor(std::string_view user_id, std::uint64_t step,
                                     std::int64_t now);
  // Forgets the user's second factor and backup codes; clears users.two_factor_enabled.
  core::Result<void> DisableTwoFactor(std::string_view user_id, std::int64_t now);
  // Records `step` as used unless it (or a later one) was: whether the code may be accepted.
  core::Result<bool> AdvanceTotpStep(std::string_view user_id, std::uint64_t step);
  // Marks an unused, active backup code used: whether it was one.
  core::Result<bool> UseBackupCode(std::string_view user_id, std::string_view code_hash,
                                   std::int64_t now);
  // Replaces the active backup codes.
  core::Result<void> ReplaceBackupCodes(std::string_view user_id,
                                        const std::vector<std::string>& code_hashes);
  core::Result<std::int64_t> CountUnusedBackupCodes(std::string_view user_id);

  // Passkeys (storage/repository_passkeys.cpp).
  core::Result<void> InsertPasskey(const PasskeyRecord& passkey);
  core::Result<std::vector<PasskeyRecord>> ListPasskeys(std::string_view user_id);
  core::Result<std::optional<PasskeyRecord>> FindPasskeyByCredential(
      std::string_view credential_id);
  // Both change only the user's own passkey; whether there was one.
  core::Result<bool> RenamePasskey(std::string_view passkey_id, std::string_view user_id,
                                   std::string_view label);
  core::Result<bool> DeletePasskey(std::string_view passkey_id, std::string_view user_id);
  // After a sign-in: the new counter, unless another sign-in moved it past `sign_count` first.
  core::Result<bool> RecordPasskeyUse(std::string_view passkey_id, std::int64_t previous_count,
                                      std::int64_t sign_count, std::int64_t now);
  core::Result<void> InsertWebAuthnChallenge(const WebAuthnChallengeRecord& challenge);
  // Removes and returns the challenge (each is used once), expired or not; prunes expired ones.
  core::Result<std::optional<WebAuthnChallengeRecord>> TakeWebAuthnChallenge(
      std::string_view challenge_id, std::int64_t now);

  // Writes name, require_two_factor and updated_at; false when the organization is gone.
  core::Result<bool> UpdateOrganization(const OrganizationRecord& org);
  // Deletes the organization with its memberships, invitations, projects, keys, audit log,
  // and the events and bot requests of its projects. False when it did not exist.
  core::Result<bool> DeleteOrganization(std::string_view organization_id);
  // The user's organizations with their role, ordered by organization name, then id.
  core::Result<std::vector<MembershipOfUser>> ListOrganizationsOfUser(std::string_view user_id);
  core::Result<std::optional<OrganizationRecord>> FindOrganizationBySlug(std::string_view slug);
  core::Result<std::optional<OrganizationRecord>> FindOrganizationById(std::string_view id);

  // Inserts or replaces the member's role.
  core::Result<void> PutMembership(const MembershipRecord& membership);
  core::Result<std::optional<MembershipRecord>> FindMembership(std::string_view organization_id,
                                                               std::string_view user_id);

  // Holds the organization's row lock until the transaction ends, so that checks over its
  // members (the last-owner rule) and the writes they guard are serialized. SQLite's write
  // transactions are serialized already; PostgreSQL takes SELECT … FOR UPDATE.
  core::Result<void> LockOrganization(std::string_view organization_id);
  // Members ordered by joined_at, then user id.
  core::Result<std::vector<MemberRecord>> ListMembers(std::string_view organization_id);
  core::Result<bool> DeleteMembership(std::string_view organization_id, std::string_view user_id);
  core::Result<std::int64_t> CountMembersWithRole(std::string_view organization_id,
                                                  std::string_view role);

  core::Result<void> InsertProject(const ProjectRecord& project);
  // Projects of the organization ordered by created_at, then id.
  core::Result<std::vector<ProjectRecord>> ListProjects(std::string_view organization_id);
  // Deletes the project with its keys, events and bot requests. False when it did not exist.
  core::Result<bool> DeleteProject(std::string_view project_id);
  core::Result<std::optional<ProjectRecord>> FindProject(std::string_view project_id);
  // The organization with `slug` and, when it belongs to that organization, the project with
  // `project_id`, in one query.
  core::Result<std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>>>
  FindOrganizationAndProject(std::string_view slug, std::string_view project_id);
  // Writes name, settings and updated_at of an existing project; false when it is gone.
  core::Result<bool> UpdateProject(const ProjectRecord& project);
  core::Result<std::optional<ProjectRecord>> FindProjectByName(std::string_view organization_id,
                                                               std::string_view name);

  core::Result<void> InsertApiKey(const ApiKeyRecord& key);
  core::Result<std::optional<ApiKeyRecord>> FindApiKeyByHash(std::string_view secret_hash);
  core::Result<std::optional<ApiKeyRecord>> FindApiKey(std::string_view key_id);
  core::Result<std::optional<CredentialGrant>> FindCredentialGrant(std::string_view secret_hash);
  core::Result<std::vector<ApiKeyRecord>> ListApiKeys(std::string_view project_id);
  // Marks the key revoked at `at`; returns false when it was unknown or already revoked.
  core::Result<bool> RevokeApiKey(std::string_view key_id, std::int64_t at);

  core::Result<void> InsertSession(const SessionRecord& session);
  core::Result<std::optional<SessionRecord>> FindSession(std::string_view session_id);
  // Sets revoked_at unless already revoked; returns whether it did.
  core::Result<bool> RevokeSession(std::string_view session_id, std::int64_t at);
  core::Result<void> InsertRefreshToken(const RefreshTokenRecord& token);
  core::Result<std::optional<RefreshTokenRecord>> FindRefreshToken(std::string_view token_hash);
  // Marks the token used at `at` only if it was unused: exactly one of two concurrent refreshes
  // with the same token wins.
  core::Result<bool> ClaimRefreshToken(std::string_view token_hash, std::int64_t at);

  core::Result<void> InsertMcpSession(const McpSessionRecord& session);
  core::Result<std::optional<McpSessionRecord>> FindMcpSession(std::string_view id_hash);
  // Sets ended_at unless already ended; returns whether it did.
  core::Result<bool> EndMcpSession(std::string_view id_hash, std::int64_t at);
  // Records use at `at` and the logging level (`logging/setLevel`); false when the session is
  // unknown or ended.
  core::Result<bool> UpdateMcpSession(std::string_view id_hash, std::int64_t at,
                                      std::string_view log_level);
  // Deletes the credential's sessions that ended, or were last used, before `before`; how many.
  core::Result<std::int64_t> DeleteStaleMcpSessions(std::string_view credential,
                                                    std::int64_t before);

  // OAuth (storage/repository_oauth.cpp). Inserts or replaces the client with the same id.
  core::Result<void> UpsertOAuthClient(const OAuthClientRecord& client);
  core::Result<std::optional<OAuthClientRecord>> FindOAuthClient(std::string_view client_id);
  // Deletes the clients (registered, or cached metadata documents) first seen before `before`
  // that no user ever connected (no grant); how many.
  core::Result<std::int64_t> DeleteUnusedOAuthClients(std::int64_t before);
  core::Result<void> InsertOAuthGrant(const OAuthGrantRecord& grant);
  core::Result<std::optional<OAuthGrantRecord>> FindOAuthGrant(std::string_view grant_id);
  core::Result<std::optional<OAuthGrantRecord>> FindOAuthGrantByCode(std::string_view code_hash);
  // Marks the grant's code used at `at` only if it was unused: one of two exchanges wins.
  core::Result<bool> ClaimOAuthCode(std::string_view grant_id, std::int64_t at);
  // Revokes the grant and every token issued from it; whether the grant was active.
  core::Result<bool> RevokeOAuthGrant(std::string_view grant_id, std::int64_t at);
  core::Result<void> TouchOAuthGrant(std::string_view grant_id, std::int64_t at);
  // The user's active grants, newest first, with their client, organization and project names.
  core::Result<std::vector<OAuthGrantView>> ListOAuthGrantsOfUser(std::string_view user_id);
  core::Result<void> InsertOAuthToken(const OAuthTokenRecord& token);
  core::Result<std::optional<OAuthTokenGrant>> FindOAuthToken(std::string_view token_hash);
  // Marks a refresh token used at `at` only if it was unused and not revoked.
  core::Result<bool> ClaimOAuthToken(std::string_view token_hash, std::int64_t at);
  core::Result<bool> RevokeOAuthToken(std::string_view token_hash, std::int64_t at);
  core::Result<void> SetOAuthTokenSuccessor(std::string_view token_hash,
                                            std::string_view successor_hash);
  // Forgets the grant's tokens that can no longer matter: expired ones, and refresh tokens
  // spent before `spent_before` (a replay older than that is refused as unknown rather than
  // detected); how many.
  core::Result<std::int64_t> DeleteSpentOAuthTokens(std::string_view grant_id, std::int64_t now,
                                                    std::int64_t spent_before);

  // Agent conversations (storage/repository_agent.cpp).
  core::Result<void> InsertAgentConversation(const AgentConversationRecord& conversation);
  core::Result<std::optional<AgentConversationRecord>> FindAgentConversation(
      std::string_view conversation_id);
  core::Result<std::optional<AgentConversationRecord>> FindAgentConversationByWorkflow(
      std::string_view project_id, std::string_view user_id, std::string_view workflow_id);
  // The user's conversations in the project (only the workflow's, when given), most recently
  // updated first, at most `limit`.
  core::Result<std::vector<AgentConversationRecord>> ListAgentConversations(
      std::string_view project_id, std::string_view user_id,
      const std::optional<std::string>& workflow_id, std::int64_t limit);
  // Appends a message after the conversation's last (its seq is set here) and updates the
  // conversation's updated_at.
  core::Result<AgentMessageRecord> AppendAgentMessage(AgentMessageRecord message);
  core::Result<std::vector<AgentMessageRecord>> ListAgentMessages(
      std::string_view conversation_id);
  // Marks the conversation running from `now` unless an answer already runs in it (one that
  // started before `stale_before` is taken to have died with its node); whether it did.
  core::Result<bool> ClaimAgentConversation(std::string_view conversation_id, std::int64_t now,
                                            std::int64_t stale_before);
  // Sets the status ("idle", "awaiting_approval") when an answer ends.
  core::Result<void> SetAgentConversationStatus(std::string_view conversation_id,
                                                std::string_view status, std::int64_t now);
  // Replaces the title while it is still `untitled` (the default), e.g. with the first question.
  core::Result<void> TitleAgentConversation(std::string_view conversation_id,
                                            std::string_view title, std::string_view untitled);
  // Asks a running answer to stop (status "canceling"); whether one was running.
  core::Result<bool> RequestAgentCancel(std::string_view conversation_id);
  // Records the decision on a pending tool call; whether one was pending.
  core::Result<bool> DecideAgentToolCall(std::string_view conversation_id,
                                         std::string_view tool_call_id, std::string_view approval);
  // Deletes the user's conversations in the project (only the workflow's, when given) with
  // every message; how many conversations.
  core::Result<std::int64_t> DeleteAgentConversations(std::string_view project_id,
                                                      std::string_view user_id,
                                                      const std::optional<std::string>& workflow_id);

  core::Result<void> InsertInvitation(const InvitationRecord& invitation);
  core::Result<std::optional<InvitationRecord>> FindInvitation(std::string_view invitation_id);
  core::Result<std::optional<InvitationRecord>> FindInvitationByTokenHash(
      std::string_view token_hash);
  // Newest first (created_at, then id, descending).
  core::Result<std::vector<InvitationRecord>> ListInvitations(std::string_view organization_id);
  // Both only change a pending invitation (neither accepted nor revoked); return whether they did.
  core::Result<bool> MarkInvitationAccepted(std::string_view invitation_id,
                                            std::string_view user_id, std::int64_t at);
  core::Result<bool> RevokeInvitation(std::string_view invitation_id, std::int64_t at);

  core::Result<void> InsertAudit(const AuditRecord& entry);
  core::Result<std::vector<AuditRecord>> ListAudit(const AuditQuery& query);

  // Counts one request for `bucket` in the fixed window starting at `window_start` (ms) and
  // returns the count including this one. Atomic across processes (one UPSERT).
  core::Result<std::int64_t> HitRateLimit(std::string_view bucket, std::int64_t window_start);
  // The window's count so far (0 when nothing was counted).
  core::Result<std::int64_t> ReadRateLimit(std::string_view bucket, std::int64_t window_start);
  // Deletes windows that started before `window_start`; returns how many.
  core::Result<std::int64_t> PruneRateLimits(std::int64_t window_start);

  // The named server secret, creating it with `candidate` if absent. Every node sees the same
  // value: the first writer wins.
  core::Result<std::string> GetOrCreateSecret(std::string_view name, std::string_view candidate,
                                              std::int64_t at);

  // The visitor's session at `at`: the current one when the visitor was last seen less than
  // `inactivity_ms` before, else `candidate_session_id`, which becomes current. One atomic
  // UPSERT, so concurrent writers (any process) agree. When `last_seen_after` is given, it
  // receives the visitor's last_seen_at after the upsert (never earlier than before it).
  core::Result<std::string> TouchVisitorSession(std::string_view project_id,
                                                std::string_view visitor_key,
                                                std::string_view candidate_session_id,
                                                std::int64_t at, std::int64_t inactivity_ms,
                                                std::int64_t* last_seen_after = nullptr);
  // Sets the visitor's session state outright (after TouchVisitorSession in the same
  // transaction has locked the row).
  core::Result<void> PutVisitorSession(std::string_view project_id, std::string_view visitor_key,
                                       std::string_view session_id, std::int64_t last_seen_at);
  // Inserts or replaces the link of an anonymous id (last identify wins).
  core::Result<void> PutIdentity(const IdentityRecord& identity);
  core::Result<std::optional<IdentityRecord>> FindIdentity(std::string_view project_id,
                                                           std::string_view anonymous_id);
  // Adds to the month's counters (creating them at zero).
  core::Result<void> AddUsage(const UsageRecord& delta);
  // Newest month first.
  core::Result<std::vector<UsageRecord>> ListUsage(std::string_view project_id);
  core::Result<void> InsertNotifications(std::span<const NotificationRecord> notifications);
  // Newest first; `before` (created_at, id) pages.
  core::Result<std::vector<NotificationRecord>> ListNotifications(
      std::string_view project_id, std::optional<std::pair<std::int64_t, std::string>> before,
      std::size_t limit);
  // Notifications after the cursor (created_at, id), oldest first: what a stream sends next.
  core::Result<std::vector<NotificationRecord>> ListNotificationsAfter(
      std::string_view project_id, std::pair<std::int64_t, std::string> after, std::size_t limit);
  // The events feed: filters, newest first (occurred_at, then id).
  core::Result<std::vector<EventRecord>> ListEvents(const EventQuery& query);

  // Both also mark the rows' hours for the report rollups.
  core::Result<void> InsertEvents(std::span<const EventRecord> events);
  // Newest first (occurred_at, then id, descending).
  core::Result<std::vector<EventRecord>> ListRecentEvents(std::string_view project_id,
                                                          std::size_t limit);
  core::Result<void> InsertBotRequests(std::span<const BotRequestRecord> rows);
  core::Result<std::vector<BotRequestRecord>> ListRecentBotRequests(std::string_view project_id,
                                                                    std::size_t limit);
  // Report rollups, writing side (storage/repository_rollups.cpp). Inserting events or crawler
  // requests marks the UTC hours whose rollups they change (a visit's start hour for events
  // of a visit); a builder lists the marks, rolls the affected local days up again and clears
  // the marks whose generation it read.
  core::Result<std::vector<RollupMark>> ListRollupMarks(std::string_view project_id);
  core::Result<std::vector<std::string>> ListProjectsWithRollupMarks();
  core::Result<void> ClearRollupMarks(std::string_view project_id,
                                      std::span<const RollupMark> marks);
  // Starts of the local days of `zone` already rolled up, in [start_ms, end_ms).
  core::Result<std::vector<std::int64_t>> ListRollupDays(std::string_view project_id,
                                                         std::string_view zone,
                                                         std::int64_t start_ms,
                                                         std::int64_t end_ms);
  // Records the day as rolled up; first in a rebuild, so concurrent builders of a day queue.
  core::Result<void> ClaimRollupDay(std::string_view project_id, std::string_view zone,
                                    std::int64_t day_start, std::int64_t built_at);
  // Whether rollups of another zone than `zone` remain (the project's zone changed).
  core::Result<bool> HasRollupsOfOtherZones(std::string_view project_id, std::string_view zone);
  core::Result<void> DeleteRollupsOfOtherZones(std::string_view project_id,
                                               std::string_view zone);
  core::Result<void> DeleteRollups(std::string_view project_id, std::string_view zone,
                                   RollupSource source, std::int64_t start_ms,
                                   std::int64_t end_ms);
  // The human events (outside `__analytics`) of the visits that started in the window, and
  // the window's events that belong to no visit.
  core::Result<std::vector<RollupEvent>> ListRollupEvents(std::string_view project_id,
                                                          std::int64_t start_ms,
                                                          std::int64_t end_ms);
  core::Result<void> InsertWebRollups(std::string_view project_id, std::string_view zone,
                                      std::span<const WebRollupRow> rows);
  // Rolls the crawler requests of one local day up, per day and per local hour; `hour_starts`
  // are the day's hours in order (the first is the day's start).
  core::Result<void> RollUpBotRequests(std::string_view project_id, std::string_view zone,
                                       std::span<const std::int64_t> hour_starts,
                                       std::int64_t day_end);
  // Blocks of days (RollupSpan::kDays2 … kDays32) of `zone` rolled up and current, starting
  // in [start_ms, end_ms).
  core::Result<std::vector<RollupBlock>> ListRollupBlocks(std::string_view project_id,
                                                          std::string_view zone,
                                                          std::int64_t start_ms,
                                                          std::int64_t end_ms);
  // Marks the block out of date and deletes its rows. The first statement locks the block's
  // row, so the rebuild of a day and the building of a block holding it take turns.
  core::Result<void> ResetRollupBlock(std::string_view project_id, std::string_view zone,
                                      const RollupBlock& block);
  // Marks the block, whose rows were just written, current.
  core::Result<void> FinishRollupBlock(std::string_view project_id, std::string_view zone,
                                       const RollupBlock& block, std::int64_t built_at);
  // Every web rollup row of the periods (all dimensions).
  core::Result<std::vector<WebRollupRow>> ListWebRollups(std::string_view project_id,
                                                         std::string_view zone,
                                                         const RollupPeriods& periods);
  // Writes the block's crawler rows as the sums of its two halves' rows.
  core::Result<void> RollUpBotBlock(std::string_view project_id, std::string_view zone,
                                    const RollupBlock& block, const RollupPeriods& halves);

  // Crawler reports (storage/repository_reports.cpp). Groups ordered by requests, then key.
  // With `totals`, also the number of groups and of requests over the whole ranking.
  core::Result<std::vector<BotGroupRow>> BotRequestGroups(const BotReportQuery& query,
                                                          BotGroupTotals* totals = nullptr);
  core::Result<BotGroupTotals> BotRequestTotals(const BotReportQuery& query);
  // The requests the query's filters keep, whatever its grouping and keys.
  core::Result<std::int64_t> BotRequestSum(const BotReportQuery& query);
  core::Result<std::vector<BotPeriodRow>> BotRequestPeriods(const BotReportQuery& query);

  // Web analytics (storage/repository_web_reports.cpp).
  core::Result<std::vector<WebRollupRow>> WebRollupRows(const WebRollupQuery& query);
  // Values by their summed row count, then value, and how many there are.
  core::Result<WebValueRanking> RankWebValues(const WebRollupQuery& query, std::int64_t limit,
                                              std::int64_t offset);
  // Pages by pageviews, then path.
  core::Result<std::vector<PageDurationRow>> PageDurations(const WebRollupQuery& query,
                                                           std::int64_t limit,
                                                           std::int64_t offset);

  // The last good copy of each vendor IP-range list (one row per list id, replaced).
  core::Result<void> PutBotRangeList(const BotRangeListRecord& list);
  core::Result<std::vector<BotRangeListRecord>> ListBotRangeLists();

 private:
  core::Result<void> MarkEventsForRollup(std::span<const EventRecord> events);
  core::Result<void> MarkBotRequestsForRollup(std::span<const BotRequestRecord> rows);

  SqlSession& session_;
};

}  // namespace sightline::storage
