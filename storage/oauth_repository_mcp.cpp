// MCP sessions: the shared state behind `MCP-Session-Id`, so any node can serve any session.
#include "storage/oauth_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kMcpSessionColumns =
    "id_hash, credential, protocol_version, client_name, client_version, log_level, created_at, "
    "last_used_at, ended_at";

McpSessionRecord MapMcpSession(const SqlRow& r) {
  return {r.Text(0),    r.Text(1), r.Text(2), r.OptText(3), r.OptText(4),
          r.Text(5),    r.Int(6),  r.Int(7),  r.OptInt(8)};
}

}  // namespace

Result<void> OAuthRepository::InsertMcpSession(const McpSessionRecord& s) {
  static const std::string sql = InsertStatement("mcp_sessions", kMcpSessionColumns);
  return ExecuteVoid(session_, sql,
                     {s.id_hash, s.credential, s.protocol_version, Nullable(s.client_name),
                      Nullable(s.client_version), s.log_level, s.created_at, s.last_used_at,
                      Nullable(s.ended_at)});
}

Result<std::optional<McpSessionRecord>> OAuthRepository::FindMcpSession(std::string_view id_hash) {
  static const std::string sql = Select(kMcpSessionColumns, "FROM mcp_sessions WHERE id_hash = $1");
  return FindOne<McpSessionRecord>(session_, sql, {std::string(id_hash)}, MapMcpSession);
}

Result<bool> OAuthRepository::EndMcpSession(std::string_view id_hash, std::int64_t at) {
  return ExecuteChanged(
      session_, "UPDATE mcp_sessions SET ended_at = $2 WHERE id_hash = $1 AND ended_at IS NULL",
      {std::string(id_hash), at});
}

Result<bool> OAuthRepository::UpdateMcpSession(std::string_view id_hash, std::int64_t at,
                                          std::string_view log_level) {
  return ExecuteChanged(session_,
                        "UPDATE mcp_sessions SET last_used_at = $2, log_level = $3 "
                        "WHERE id_hash = $1 AND ended_at IS NULL",
                        {std::string(id_hash), at, std::string(log_level)});
}

Result<std::int64_t> OAuthRepository::DeleteStaleMcpSessions(std::string_view credential,
                                                        std::int64_t before) {
  return session_.Execute(
      "DELETE FROM mcp_sessions WHERE credential = $1 AND "
      "(ended_at < $2 OR last_used_at < $2)",
      {std::string(credential), before});
}

}  // namespace sightline::storage
