// Accounts: the queries over users, organizations and their members, invitations, projects, API
// keys, sign-in sessions and their refresh tokens, the audit log, rate-limit windows and server
// secrets, written once over SqlSession and run unchanged on SQLite and PostgreSQL. Reached from a
// Transaction (`tx.accounts()`); lives for one transaction and is used by one thread. Lookups
// return nullopt for "not there"; errors are storage failures, or ErrorCode::kConflict for a
// unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/account_records.h"
#include "storage/keyset.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class AccountRepository {
 public:
  explicit AccountRepository(SqlSession& session) : session_(session) {}

  core::Result<void> InsertUser(const UserRecord& user);
  core::Result<std::optional<UserRecord>> FindUserById(std::string_view id);
  core::Result<std::optional<UserRecord>> FindUserByEmail(std::string_view email);
  // Writes first_name, last_name and updated_at; false when the user is gone.
  core::Result<bool> UpdateUserNames(const UserRecord& user);
  // Writes two_factor_enabled and updated_at (for the two-factor issue).
  core::Result<bool> UpdateUserTwoFactor(std::string_view user_id, bool enabled,
                                         std::int64_t at);
  core::Result<bool> UpdateUserPassword(std::string_view user_id, std::string_view password_hash,
                                        std::int64_t at);
  core::Result<void> InsertOrganization(const OrganizationRecord& org);
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
  // Members ordered by joined_at, then user id; one page of them with `page`.
  core::Result<std::vector<MemberRecord>> ListMembers(std::string_view organization_id,
                                                      const KeysetPage& page = {});
  core::Result<bool> DeleteMembership(std::string_view organization_id, std::string_view user_id);
  core::Result<std::int64_t> CountMembersWithRole(std::string_view organization_id,
                                                  std::string_view role);
  core::Result<void> InsertProject(const ProjectRecord& project);
  // Projects of the organization ordered by created_at, then id; one page with `page`.
  core::Result<std::vector<ProjectRecord>> ListProjects(std::string_view organization_id,
                                                        const KeysetPage& page = {});
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
  // Oldest first (created_at, then id), only `kind`'s ("sdk", "private") when given; one page
  // with `page`.
  core::Result<std::vector<ApiKeyRecord>> ListApiKeys(std::string_view project_id,
                                                      const KeysetPage& page = {},
                                                      std::string_view kind = {});
  // Marks the key revoked at `at`; returns false when it was unknown or already revoked.
  core::Result<bool> RevokeApiKey(std::string_view key_id, std::int64_t at);
  core::Result<void> InsertSession(const SessionRecord& session);
  core::Result<std::optional<SessionRecord>> FindSession(std::string_view session_id);
  // Sets revoked_at unless already revoked; returns whether it did.
  core::Result<bool> RevokeSession(std::string_view session_id, std::int64_t at);
  // Every session of the user but `kept`; how many were open.
  core::Result<std::int64_t> RevokeOtherSessions(std::string_view user_id, std::string_view kept,
                                                 std::int64_t at);
  core::Result<void> InsertRefreshToken(const RefreshTokenRecord& token);
  core::Result<std::optional<RefreshTokenRecord>> FindRefreshToken(std::string_view token_hash);
  // Marks the token used at `at` only if it was unused: exactly one of two concurrent refreshes
  // with the same token wins.
  core::Result<bool> ClaimRefreshToken(std::string_view token_hash, std::int64_t at);
  core::Result<void> InsertInvitation(const InvitationRecord& invitation);
  core::Result<std::optional<InvitationRecord>> FindInvitation(std::string_view invitation_id);
  core::Result<std::optional<InvitationRecord>> FindInvitationByTokenHash(
      std::string_view token_hash);
  // Newest first (created_at, then id, descending); one page with `page`.
  core::Result<std::vector<InvitationRecord>> ListInvitations(std::string_view organization_id,
                                                              const KeysetPage& page = {});
  // Both only change a pending invitation (neither accepted nor revoked); return whether they did.
  core::Result<bool> MarkInvitationAccepted(std::string_view invitation_id,
                                            std::string_view user_id, std::int64_t at);
  core::Result<bool> RevokeInvitation(std::string_view invitation_id, std::int64_t at);
  core::Result<void> InsertAudit(const AuditRecord& entry);
  core::Result<std::vector<AuditRecord>> ListAudit(const AuditQuery& query);
  // Counts `amount` requests for `bucket` in the fixed window starting at `window_start` (ms)
  // and returns the count including them. Atomic across processes (one UPSERT).
  core::Result<std::int64_t> HitRateLimit(std::string_view bucket, std::int64_t window_start,
                                          std::int64_t amount = 1);
  // The window's count so far (0 when nothing was counted).
  core::Result<std::int64_t> ReadRateLimit(std::string_view bucket, std::int64_t window_start);
  // Deletes windows that started before `window_start`; returns how many.
  core::Result<std::int64_t> PruneRateLimits(std::int64_t window_start);
  // The named server secret, creating it with `candidate` if absent. Every node sees the same
  // value: the first writer wins.
  core::Result<std::string> GetOrCreateSecret(std::string_view name, std::string_view candidate,
                                              std::int64_t at);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
