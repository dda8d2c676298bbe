// The OAuth authorization server's clients, grants (consents with their code) and tokens.
#include "storage/oauth_repository.h"

#include "storage/oauth_rows.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kClientColumns =
    "id, kind, name, redirect_uris, auth_method, secret_hash, metadata, created_at, fetched_at";
constexpr std::string_view kTokenColumns =
    "hash, grant_id, kind, created_at, expires_at, used_at, revoked_at, replaced_by";
constexpr std::size_t kTokenColumnCount = ColumnCount(kTokenColumns);

OAuthClientRecord MapClient(const SqlRow& r) {
  return {r.Text(0),    r.Text(1), r.Text(2), r.Text(3), r.Text(4),
          r.OptText(5), r.Text(6), r.Int(7),  r.Int(8)};
}

OAuthTokenRecord MapToken(const SqlRow& r, std::size_t at = 0) {
  return {r.Text(at),      r.Text(at + 1),   r.Text(at + 2),   r.Int(at + 3),
          r.Int(at + 4),   r.OptInt(at + 5), r.OptInt(at + 6), r.OptText(at + 7)};
}

}  // namespace

namespace internal {

OAuthGrantRecord MapGrant(const SqlRow& r, std::size_t at) {
  return {r.Text(at),        r.Text(at + 1), r.Text(at + 2),    r.Text(at + 3),
          r.Text(at + 4),    r.Text(at + 5), r.Bool(at + 6),    r.Text(at + 7),
          r.Text(at + 8),    r.Text(at + 9), r.Text(at + 10),   r.Int(at + 11),
          r.OptInt(at + 12), r.Int(at + 13), r.OptInt(at + 14), r.OptInt(at + 15)};
}

}  // namespace internal

Result<void> OAuthRepository::UpsertOAuthClient(const OAuthClientRecord& c) {
  static const std::string sql =
      InsertStatement("oauth_clients", kClientColumns) +
      " ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, "
      "redirect_uris = excluded.redirect_uris, auth_method = excluded.auth_method, "
      "secret_hash = excluded.secret_hash, metadata = excluded.metadata, "
      "fetched_at = excluded.fetched_at";
  return ExecuteVoid(session_, sql,
                     {c.id, c.kind, c.name, c.redirect_uris, c.auth_method, Nullable(c.secret_hash),
                      c.metadata, c.created_at, c.fetched_at});
}

Result<std::optional<OAuthClientRecord>> OAuthRepository::FindOAuthClient(
    std::string_view client_id) {
  static const std::string sql = Select(kClientColumns, "FROM oauth_clients WHERE id = $1");
  return FindOne<OAuthClientRecord>(session_, sql, {std::string(client_id)}, MapClient);
}

Result<std::int64_t> OAuthRepository::DeleteUnusedOAuthClients(std::int64_t before) {
  return session_.Execute(
      "DELETE FROM oauth_clients WHERE created_at < $1 AND NOT EXISTS "
      "(SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)",
      {before});
}

Result<void> OAuthRepository::InsertOAuthGrant(const OAuthGrantRecord& g) {
  static const std::string sql = InsertStatement("oauth_grants", kGrantColumns);
  return ExecuteVoid(session_, sql,
                     {g.id, g.client_id, g.user_id, g.organization_id, g.project_id, g.permissions,
                      Flag(g.read_only), g.resource, g.redirect_uri, g.code_hash, g.code_challenge,
                      g.code_expires_at, Nullable(g.code_used_at), g.created_at,
                      Nullable(g.last_used_at), Nullable(g.revoked_at)});
}

Result<std::optional<OAuthGrantRecord>> OAuthRepository::FindOAuthGrant(std::string_view grant_id) {
  static const std::string sql = Select(kGrantColumns, "FROM oauth_grants WHERE id = $1");
  return FindOne<OAuthGrantRecord>(session_, sql, {std::string(grant_id)},
                                   [](const SqlRow& r) { return MapGrant(r); });
}

Result<std::optional<OAuthGrantRecord>> OAuthRepository::FindOAuthGrantByCode(
    std::string_view code_hash) {
  static const std::string sql = Select(kGrantColumns, "FROM oauth_grants WHERE code_hash = $1");
  return FindOne<OAuthGrantRecord>(session_, sql, {std::string(code_hash)},
                                   [](const SqlRow& r) { return MapGrant(r); });
}

Result<bool> OAuthRepository::ClaimOAuthCode(std::string_view grant_id, std::int64_t at) {
  return ExecuteChanged(
      session_, "UPDATE oauth_grants SET code_used_at = $2 WHERE id = $1 AND code_used_at IS NULL",
      {std::string(grant_id), at});
}

Result<bool> OAuthRepository::RevokeOAuthGrant(std::string_view grant_id, std::int64_t at) {
  auto tokens = session_.Execute(
      "UPDATE oauth_tokens SET revoked_at = $2 WHERE grant_id = $1 AND revoked_at IS NULL",
      {std::string(grant_id), at});
  if (!tokens) return tokens.error();
  return ExecuteChanged(
      session_, "UPDATE oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
      {std::string(grant_id), at});
}

Result<void> OAuthRepository::TouchOAuthGrant(std::string_view grant_id, std::int64_t at) {
  return ExecuteVoid(session_, "UPDATE oauth_grants SET last_used_at = $2 WHERE id = $1",
                     {std::string(grant_id), at});
}

Result<std::vector<OAuthGrantView>> OAuthRepository::ListOAuthGrantsOfUser(
    std::string_view user_id) {
  static const std::string sql =
      "SELECT c.name, o.slug, p.name, " + Aliased("g", kGrantColumns) +
      " FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id "
      "JOIN organizations o ON o.id = g.organization_id "
      "JOIN projects p ON p.id = g.project_id "
      "WHERE g.user_id = $1 AND g.revoked_at IS NULL AND g.code_used_at IS NOT NULL "
      "ORDER BY g.created_at DESC, g.id";
  return FindAll<OAuthGrantView>(session_, sql, {std::string(user_id)}, [](const SqlRow& r) {
    return OAuthGrantView{MapGrant(r, 3), r.Text(0), r.Text(1), r.Text(2)};
  });
}

Result<void> OAuthRepository::InsertOAuthToken(const OAuthTokenRecord& t) {
  static const std::string sql = InsertStatement("oauth_tokens", kTokenColumns);
  return ExecuteVoid(session_, sql,
                     {t.hash, t.grant_id, t.kind, t.created_at, t.expires_at,
                      Nullable(t.used_at), Nullable(t.revoked_at), Nullable(t.replaced_by)});
}

Result<void> OAuthRepository::SetOAuthTokenSuccessor(std::string_view token_hash,
                                                std::string_view successor_hash) {
  return ExecuteVoid(session_, "UPDATE oauth_tokens SET replaced_by = $2 WHERE hash = $1",
                     {std::string(token_hash), std::string(successor_hash)});
}

Result<std::optional<OAuthTokenGrant>> OAuthRepository::FindOAuthToken(
    std::string_view token_hash) {
  static const std::string sql = "SELECT m.role, o.slug, " + Aliased("t", kTokenColumns) +
                                 ", " + Aliased("g", kGrantColumns) +
                                 " FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id "
                                 "JOIN organizations o ON o.id = g.organization_id "
                                 "LEFT JOIN memberships m ON m.organization_id = g.organization_id "
                                 "AND m.user_id = g.user_id WHERE t.hash = $1";
  return FindOne<OAuthTokenGrant>(session_, sql, {std::string(token_hash)}, [](const SqlRow& r) {
    return OAuthTokenGrant{MapToken(r, 2), MapGrant(r, 2 + kTokenColumnCount), r.OptText(0),
                           r.Text(1)};
  });
}

Result<bool> OAuthRepository::ClaimOAuthToken(std::string_view token_hash, std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE oauth_tokens SET used_at = $2 WHERE hash = $1 AND used_at IS NULL "
                        "AND revoked_at IS NULL",
                        {std::string(token_hash), at});
}

Result<bool> OAuthRepository::RevokeOAuthToken(std::string_view token_hash, std::int64_t at) {
  return ExecuteChanged(
      session_, "UPDATE oauth_tokens SET revoked_at = $2 WHERE hash = $1 AND revoked_at IS NULL",
      {std::string(token_hash), at});
}

Result<std::int64_t> OAuthRepository::DeleteSpentOAuthTokens(std::string_view grant_id,
                                                        std::int64_t now,
                                                        std::int64_t spent_before) {
  return session_.Execute(
      "DELETE FROM oauth_tokens WHERE grant_id = $1 AND (expires_at <= $2 OR used_at < $3)",
      {std::string(grant_id), now, spent_before});
}

}  // namespace sightline::storage
