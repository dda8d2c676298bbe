// Command-line logins (cli_sessions) and the grants approving them made.
#include "storage/oauth_repository.h"

#include "storage/oauth_rows.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kCliColumns =
    "id, device_code_hash, user_code_hash, client_name, hostname, os, requested_permissions, "
    "requested_project_id, ip, country, region, city, created_at, expires_at, "
    "interval_seconds, last_polled_at, status, user_id, grant_id, decided_at, last_used_ip";
constexpr std::size_t kCliColumnCount = ColumnCount(kCliColumns);

CliSessionRecord MapCliSession(const SqlRow& r, std::size_t at = 0) {
  CliSessionRecord s;
  s.id = r.Text(at++);
  s.device_code_hash = r.Text(at++);
  s.user_code_hash = r.Text(at++);
  s.client_name = r.Text(at++);
  s.hostname = r.Text(at++);
  s.os = r.Text(at++);
  s.requested_permissions = r.Text(at++);
  s.requested_project_id = r.OptText(at++);
  s.ip = r.Text(at++);
  s.country = r.Text(at++);
  s.region = r.Text(at++);
  s.city = r.Text(at++);
  s.created_at = r.Int(at++);
  s.expires_at = r.Int(at++);
  s.interval_seconds = r.Int(at++);
  s.last_polled_at = r.OptInt(at++);
  s.status = r.Text(at++);
  s.user_id = r.OptText(at++);
  s.grant_id = r.OptText(at++);
  s.decided_at = r.OptInt(at++);
  s.last_used_ip = r.OptText(at++);
  return s;
}

}  // namespace

Result<void> OAuthRepository::InsertCliSession(const CliSessionRecord& s) {
  static const std::string sql = InsertStatement("cli_sessions", kCliColumns);
  return ExecuteVoid(
      session_, sql,
      {s.id, s.device_code_hash, s.user_code_hash, s.client_name, s.hostname, s.os,
       s.requested_permissions, Nullable(s.requested_project_id), s.ip, s.country, s.region,
       s.city, s.created_at, s.expires_at, s.interval_seconds, Nullable(s.last_polled_at),
       s.status, Nullable(s.user_id), Nullable(s.grant_id), Nullable(s.decided_at),
       Nullable(s.last_used_ip)});
}

Result<std::optional<CliSessionRecord>> OAuthRepository::FindCliSession(std::string_view id) {
  static const std::string sql = Select(kCliColumns, "FROM cli_sessions WHERE id = $1");
  return FindOne<CliSessionRecord>(session_, sql, {std::string(id)},
                                   [](const SqlRow& r) { return MapCliSession(r); });
}

Result<std::optional<CliSessionRecord>> OAuthRepository::FindPendingCliSession(
    std::string_view user_code_hash) {
  static const std::string sql = Select(
      kCliColumns,
      "FROM cli_sessions WHERE user_code_hash = $1 AND status = 'pending' "
      "ORDER BY created_at DESC LIMIT 1");
  return FindOne<CliSessionRecord>(session_, sql, {std::string(user_code_hash)},
                                   [](const SqlRow& r) { return MapCliSession(r); });
}

Result<void> OAuthRepository::RecordCliPoll(std::string_view id, std::int64_t at,
                                            std::int64_t interval_seconds) {
  return ExecuteVoid(session_,
                     "UPDATE cli_sessions SET last_polled_at = $2, interval_seconds = $3 "
                     "WHERE id = $1",
                     {std::string(id), at, interval_seconds});
}

Result<bool> OAuthRepository::DecideCliSession(std::string_view id, std::string_view status,
                                               std::string_view user_id,
                                               const std::optional<std::string>& grant_id,
                                               std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE cli_sessions SET status = $2, user_id = $3, grant_id = $4, "
                        "decided_at = $5 WHERE id = $1 AND status = 'pending'",
                        {std::string(id), std::string(status), std::string(user_id),
                         Nullable(grant_id), at});
}

Result<bool> OAuthRepository::MarkCliSessionIssued(std::string_view id) {
  return ExecuteChanged(
      session_, "UPDATE cli_sessions SET status = 'issued' WHERE id = $1 AND status = 'approved'",
      {std::string(id)});
}

Result<void> OAuthRepository::RecordCliUse(std::string_view grant_id, std::string_view ip) {
  return ExecuteVoid(session_, "UPDATE cli_sessions SET last_used_ip = $2 WHERE grant_id = $1",
                     {std::string(grant_id), std::string(ip)});
}

Result<std::vector<CliSessionView>> OAuthRepository::ListCliSessionsOfUser(
    std::string_view user_id) {
  static const std::string sql =
      "SELECT o.slug, o.name, p.name, " + Aliased("s", kCliColumns) + ", " +
      Aliased("g", kGrantColumns) +
      " FROM cli_sessions s JOIN oauth_grants g ON g.id = s.grant_id "
      "JOIN organizations o ON o.id = g.organization_id "
      "JOIN projects p ON p.id = g.project_id "
      "WHERE s.user_id = $1 AND s.status IN ('approved', 'issued') AND g.revoked_at IS NULL "
      "ORDER BY s.decided_at DESC, s.id";
  return FindAll<CliSessionView>(session_, sql, {std::string(user_id)}, [](const SqlRow& r) {
    return CliSessionView{MapCliSession(r, 3), MapGrant(r, 3 + kCliColumnCount), r.Text(0),
                          r.Text(1), r.Text(2)};
  });
}

Result<std::int64_t> OAuthRepository::DeleteStaleCliSessions(std::int64_t before) {
  return session_.Execute(
      "DELETE FROM cli_sessions WHERE status IN ('pending', 'denied') AND expires_at < $1",
      {before});
}

}  // namespace sightline::storage
