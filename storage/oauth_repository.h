// OAuth and MCP: the queries over the OAuth clients, grants (consents with their authorization
// codes) and tokens of the /mcp authorization server, and MCP sessions, written once over
// SqlSession and run unchanged on SQLite and PostgreSQL. Reached from a Transaction (`tx.oauth()`);
// lives for one transaction and is used by one thread. Lookups return nullopt for "not there";
// errors are storage failures, or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/oauth_records.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::storage {

class SqlSession;

class OAuthRepository {
 public:
  explicit OAuthRepository(SqlSession& session) : session_(session) {}

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
  // Clients, grants and tokens (storage/oauth_repository.cpp). Inserts or replaces the client with
  // the same id.
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

  // Command-line logins (storage/oauth_repository_cli.cpp).
  core::Result<void> InsertCliSession(const CliSessionRecord& session);
  core::Result<std::optional<CliSessionRecord>> FindCliSession(std::string_view id);
  // The pending login with this user code, if any (expired ones included: the caller decides).
  core::Result<std::optional<CliSessionRecord>> FindPendingCliSession(
      std::string_view user_code_hash);
  // Records a poll at `at` and the interval the client must now keep.
  core::Result<void> RecordCliPoll(std::string_view id, std::int64_t at,
                                   std::int64_t interval_seconds);
  // Moves a pending login to `status` (approved or denied) for `user_id`, with the grant an
  // approval made; false when it was no longer pending (another tab decided first).
  core::Result<bool> DecideCliSession(std::string_view id, std::string_view status,
                                      std::string_view user_id,
                                      const std::optional<std::string>& grant_id, std::int64_t at);
  // Moves an approved login to `issued`; false when its tokens already went out.
  core::Result<bool> MarkCliSessionIssued(std::string_view id);
  core::Result<void> RecordCliUse(std::string_view grant_id, std::string_view ip);
  // The user's approved logins whose grant is not revoked, newest first.
  core::Result<std::vector<CliSessionView>> ListCliSessionsOfUser(std::string_view user_id);
  // Forgets logins never approved that expired before `before`; how many.
  core::Result<std::int64_t> DeleteStaleCliSessions(std::int64_t before);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
