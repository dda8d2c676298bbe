#include "storage/account_repository.h"

#include "storage/sql_helpers.h"

#include <algorithm>
#include <tuple>

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kUserColumns =
    "id, email, password_hash, first_name, last_name, created_at, updated_at, "
    "two_factor_enabled";
UserRecord MapUser(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Text(4), r.Int(5), r.Int(6), r.Bool(7)};
}

constexpr std::string_view kOrgColumns =
    "id, slug, name, require_two_factor, created_at, updated_at";
OrganizationRecord MapOrgAt(const SqlRow& r, std::size_t o) {
  return {r.Text(o + 0), r.Text(o + 1), r.Text(o + 2), r.Bool(o + 3), r.Int(o + 4), r.Int(o + 5)};
}
OrganizationRecord MapOrg(const SqlRow& r) { return MapOrgAt(r, 0); }

constexpr std::string_view kProjectColumns =
    "id, organization_id, name, reporting_timezone, bot_detection, event_storage, ip_logging, "
    "created_at, updated_at, domains";
// A project's domains are stored one per line (a domain holds no line break).
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    if (end > from) lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return lines;
}
std::string JoinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) (text += line) += '\n';
  return text;
}
ProjectRecord MapProject(const SqlRow& r, std::size_t o = 0) {
  return {r.Text(o + 0),  r.Text(o + 1), r.Text(o + 2), r.Text(o + 3),
          r.Bool(o + 4),  r.Bool(o + 5), r.Bool(o + 6), r.Int(o + 7),
          r.Int(o + 8),   SplitLines(r.Text(o + 9))};
}

constexpr std::string_view kKeyColumns =
    "id, organization_id, project_id, kind, name, secret_hash, display_prefix, created_by, "
    "created_at, revoked_at, public_key";
ApiKeyRecord MapKey(const SqlRow& r, std::size_t offset = 0) {
  const std::size_t o = offset;
  ApiKeyRecord key;
  key.id = r.Text(o + 0);
  key.organization_id = r.Text(o + 1);
  key.project_id = r.Text(o + 2);
  key.kind = r.Text(o + 3) == "private" ? KeyKind::kPrivate : KeyKind::kSdk;
  key.name = r.Text(o + 4);
  key.secret_hash = r.Text(o + 5);
  key.display_prefix = r.Text(o + 6);
  key.created_by = r.OptText(o + 7);
  key.created_at = r.Int(o + 8);
  key.revoked_at = r.OptInt(o + 9);
  key.public_key = r.OptText(o + 10);
  return key;
}

constexpr std::string_view kSessionColumns =
    "id, user_id, kind, created_at, expires_at, revoked_at, user_agent";
SessionRecord MapSession(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Int(3), r.Int(4), r.OptInt(5), r.OptText(6)};
}

constexpr std::string_view kRefreshTokenColumns = "token_hash, session_id, created_at, used_at";
RefreshTokenRecord MapRefreshToken(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Int(2), r.OptInt(3)};
}

constexpr std::string_view kInvitationColumns =
    "id, organization_id, email, role, token_hash, invited_by, created_at, expires_at, "
    "accepted_at, accepted_by, revoked_at";
InvitationRecord MapInvitation(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2),   r.Text(3),    r.Text(4),   r.OptText(5),
          r.Int(6),  r.Int(7),  r.OptInt(8), r.OptText(9), r.OptInt(10)};
}

constexpr std::string_view kAuditColumns =
    "id, organization_id, project_id, actor_user_id, credential_kind, credential_id, action, "
    "target_type, target_id, request_id, details, created_at";
AuditRecord MapAudit(const SqlRow& r) {
  return {r.Text(0), r.Text(1),    r.OptText(2), r.OptText(3), r.Text(4),  r.OptText(5),
          r.Text(6), r.OptText(7), r.OptText(8), r.OptText(9), r.Text(10), r.Int(11)};
}

// Events, bot requests and what is derived from them, agent conversations and OAuth grants carry
// a project id but no foreign key, so deletions name them explicitly. `project_ids` is an SQL list over the parameter $1: "$1"
// itself, or a subquery.
Result<void> DeleteActivity(SqlSession& session, std::string_view project_ids,
                            std::string_view id) {
  // Rows that hang off project-scoped rows go first: agent messages, OAuth tokens.
  for (const auto& [table, key, parent] :
       {std::tuple{"agent_messages", "conversation_id", "agent_conversations"},
        std::tuple{"oauth_tokens", "grant_id", "oauth_grants"},
        std::tuple{"cli_sessions", "grant_id", "oauth_grants"}}) {
    auto done = session.Execute(std::string("DELETE FROM ") + table + " WHERE " + key +
                                    " IN (SELECT id FROM " + parent + " WHERE project_id IN (" +
                                    std::string(project_ids) + "))",
                                {std::string(id)});
    if (!done) return done.error();
  }
  for (std::string_view table :
       {"events", "event_blocks", "event_seals", "seal_batches", "bot_requests", "visit_starts",
        "rollup_dirty", "rollup_days", "rollup_blocks", "web_rollups", "web_rollup_visitors",
        "visit_blocks", "bot_rollups", "agent_conversations", "oauth_grants", "ai_brands",
        "ai_prompts", "ai_engines", "ai_settings", "ai_runs", "ai_answers", "ai_mentions",
        "ai_citations", "ai_rollup_zones", "ai_day_answers", "ai_day_mentions",
        "ai_day_citations"}) {
    auto done = session.Execute("DELETE FROM " + std::string(table) + " WHERE project_id IN (" +
                                    std::string(project_ids) + ")",
                                {std::string(id)});
    if (!done) return done.error();
  }
  return {};
}

}  // namespace

const char* KeyKindName(KeyKind kind) { return kind == KeyKind::kPrivate ? "private" : "sdk"; }

// ---- Users ----------------------------------------------------------------------------------

Result<void> AccountRepository::InsertUser(const UserRecord& u) {
  static const std::string sql = InsertStatement("users", kUserColumns);
  return ExecuteVoid(session_, sql,
                     {u.id, u.email, u.password_hash, u.first_name, u.last_name, u.created_at,
                      u.updated_at, Flag(u.two_factor_enabled)});
}

Result<std::optional<UserRecord>> AccountRepository::FindUserById(std::string_view id) {
  return FindOne<UserRecord>(session_, Select(kUserColumns, "FROM users WHERE id = $1"),
                             {std::string(id)}, MapUser);
}

Result<std::optional<UserRecord>> AccountRepository::FindUserByEmail(std::string_view email) {
  return FindOne<UserRecord>(session_, Select(kUserColumns, "FROM users WHERE email = $1"),
                             {std::string(email)}, MapUser);
}

Result<bool> AccountRepository::UpdateUserNames(const UserRecord& u) {
  return ExecuteChanged(session_,
                        "UPDATE users SET first_name = $2, last_name = $3, updated_at = $4 "
                        "WHERE id = $1",
                        {u.id, u.first_name, u.last_name, u.updated_at});
}

Result<bool> AccountRepository::UpdateUserTwoFactor(std::string_view user_id, bool enabled,
                                             std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE users SET two_factor_enabled = $2, updated_at = $3 WHERE id = $1",
                        {std::string(user_id), Flag(enabled), at});
}

Result<bool> AccountRepository::UpdateUserPassword(std::string_view user_id,
                                                  std::string_view password_hash,
                                                  std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1",
                        {std::string(user_id), std::string(password_hash), at});
}

// ---- Organizations and members --------------------------------------------------------------

Result<void> AccountRepository::InsertOrganization(const OrganizationRecord& o) {
  static const std::string sql = InsertStatement("organizations", kOrgColumns);
  return ExecuteVoid(
      session_, sql,
      {o.id, o.slug, o.name, Flag(o.require_two_factor), o.created_at, o.updated_at});
}

Result<bool> AccountRepository::UpdateOrganization(const OrganizationRecord& o) {
  return ExecuteChanged(session_,
                        "UPDATE organizations SET name = $2, require_two_factor = $3, "
                        "updated_at = $4 WHERE id = $1",
                        {o.id, o.name, Flag(o.require_two_factor), o.updated_at});
}

// Memberships, invitations, projects (and with them keys) and the audit log go by cascade.
Result<bool> AccountRepository::DeleteOrganization(std::string_view organization_id) {
  auto activity = DeleteActivity(session_, "SELECT id FROM projects WHERE organization_id = $1",
                                 organization_id);
  if (!activity) return activity.error();
  return ExecuteChanged(session_, "DELETE FROM organizations WHERE id = $1",
                        {std::string(organization_id)});
}

Result<std::vector<MembershipOfUser>> AccountRepository::ListOrganizationsOfUser(
    std::string_view user_id) {
  return FindAll<MembershipOfUser>(
      session_,
      "SELECT " + Aliased("o", kOrgColumns) +
          ", m.role FROM memberships m JOIN organizations o ON o.id = m.organization_id "
          "WHERE m.user_id = $1 ORDER BY o.name, o.id",
      {std::string(user_id)}, [](const SqlRow& r) {
        return MembershipOfUser{MapOrg(r), r.Text(ColumnCount(kOrgColumns))};
      });
}

Result<std::optional<OrganizationRecord>> AccountRepository::FindOrganizationBySlug(
    std::string_view slug) {
  return FindOne<OrganizationRecord>(
      session_, Select(kOrgColumns, "FROM organizations WHERE slug = $1"), {std::string(slug)},
      MapOrg);
}

Result<std::optional<OrganizationRecord>> AccountRepository::FindOrganizationById(
    std::string_view id) {
  return FindOne<OrganizationRecord>(
      session_, Select(kOrgColumns, "FROM organizations WHERE id = $1"), {std::string(id)},
      MapOrg);
}

Result<void> AccountRepository::LockOrganization(std::string_view organization_id) {
  if (session_.dialect() != Dialect::kPostgres) return {};
  auto locked = session_.Query("SELECT id FROM organizations WHERE id = $1 FOR UPDATE",
                               {std::string(organization_id)});
  if (!locked) return locked.error();
  return {};
}

Result<void> AccountRepository::PutMembership(const MembershipRecord& m) {
  return ExecuteVoid(session_,
                     "INSERT INTO memberships (organization_id, user_id, role, created_at) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (organization_id, user_id) "
                     "DO UPDATE SET role = excluded.role",
                     {m.organization_id, m.user_id, m.role, m.created_at});
}

Result<std::optional<MembershipRecord>> AccountRepository::FindMembership(
    std::string_view organization_id, std::string_view user_id) {
  return FindOne<MembershipRecord>(
      session_,
      "SELECT organization_id, user_id, role, created_at FROM memberships "
      "WHERE organization_id = $1 AND user_id = $2",
      {std::string(organization_id), std::string(user_id)}, [](const SqlRow& r) {
        return MembershipRecord{r.Text(0), r.Text(1), r.Text(2), r.Int(3)};
      });
}

Result<std::vector<MemberRecord>> AccountRepository::ListMembers(std::string_view organization_id,
                                                              const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + Aliased("u", kUserColumns) +
             ", m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id "
             "WHERE m.organization_id = " + sql.Next(std::string(organization_id)) +
             KeysetCondition(sql, "m.created_at, m.user_id", page) +
             " ORDER BY m.created_at, m.user_id LIMIT " + sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<MemberRecord> members;
  constexpr std::size_t n = ColumnCount(kUserColumns);
  for (const SqlRow& r : *rows) members.push_back(MemberRecord{MapUser(r), r.Text(n), r.Int(n + 1)});
  return members;
}

Result<bool> AccountRepository::DeleteMembership(std::string_view organization_id,
                                          std::string_view user_id) {
  return ExecuteChanged(session_,
                        "DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2",
                        {std::string(organization_id), std::string(user_id)});
}

Result<std::int64_t> AccountRepository::CountMembersWithRole(std::string_view organization_id,
                                                      std::string_view role) {
  auto rows =
      session_.Query("SELECT COUNT(*) FROM memberships WHERE organization_id = $1 AND role = $2",
                     {std::string(organization_id), std::string(role)});
  if (!rows) return rows.error();
  return rows->front().Int(0);
}

// ---- Projects -------------------------------------------------------------------------------

Result<void> AccountRepository::InsertProject(const ProjectRecord& p) {
  static const std::string sql = InsertStatement("projects", kProjectColumns);
  return ExecuteVoid(session_, sql,
                     {p.id, p.organization_id, p.name, p.reporting_timezone, Flag(p.bot_detection),
                      Flag(p.event_storage), Flag(p.ip_logging), p.created_at, p.updated_at,
                      JoinLines(p.domains)});
}

Result<std::vector<ProjectRecord>> AccountRepository::ListProjects(
    std::string_view organization_id, const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kProjectColumns) +
             " FROM projects WHERE organization_id = " + sql.Next(std::string(organization_id)) +
             KeysetCondition(sql, "created_at, id", page) + " ORDER BY created_at, id LIMIT " +
             sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<ProjectRecord> projects;
  for (const SqlRow& row : *rows) projects.push_back(MapProject(row));
  return projects;
}

// The project's keys go by cascade.
Result<bool> AccountRepository::DeleteProject(std::string_view project_id) {
  auto activity = DeleteActivity(session_, "$1", project_id);
  if (!activity) return activity.error();
  return ExecuteChanged(session_, "DELETE FROM projects WHERE id = $1", {std::string(project_id)});
}

Result<std::optional<ProjectRecord>> AccountRepository::FindProject(std::string_view project_id) {
  return FindOne<ProjectRecord>(session_, Select(kProjectColumns, "FROM projects WHERE id = $1"),
                                {std::string(project_id)},
                                [](const SqlRow& r) { return MapProject(r); });
}

Result<std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>>>
AccountRepository::FindOrganizationAndProject(std::string_view slug, std::string_view project_id) {
  auto rows = session_.Query(
      "SELECT " + Aliased("o", kOrgColumns) + ", " + Aliased("p", kProjectColumns) +
          " FROM organizations o LEFT JOIN projects p ON p.id = $2 AND p.organization_id = o.id "
          "WHERE o.slug = $1",
      {std::string(slug), std::string(project_id)});
  if (!rows) return rows.error();
  std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>> found;
  if (rows->empty()) return found;
  const SqlRow& row = rows->front();
  constexpr std::size_t kOrgColumnCount = ColumnCount(kOrgColumns);
  found.first = MapOrg(row);
  if (!row.IsNull(kOrgColumnCount)) found.second = MapProject(row, kOrgColumnCount);
  return found;
}

Result<bool> AccountRepository::UpdateProject(const ProjectRecord& p) {
  return ExecuteChanged(
      session_,
      "UPDATE projects SET name = $2, reporting_timezone = $3, bot_detection = $4, "
      "event_storage = $5, ip_logging = $6, updated_at = $7, domains = $8 WHERE id = $1",
      {p.id, p.name, p.reporting_timezone, Flag(p.bot_detection), Flag(p.event_storage),
       Flag(p.ip_logging), p.updated_at, JoinLines(p.domains)});
}

Result<std::optional<ProjectRecord>> AccountRepository::FindProjectByName(
    std::string_view organization_id, std::string_view name) {
  return FindOne<ProjectRecord>(
      session_,
      Select(kProjectColumns,
             "FROM projects WHERE organization_id = $1 AND name = $2 ORDER BY created_at, id"),
      {std::string(organization_id), std::string(name)},
      [](const SqlRow& r) { return MapProject(r); });
}

// ---- API keys -------------------------------------------------------------------------------

Result<void> AccountRepository::InsertApiKey(const ApiKeyRecord& k) {
  static const std::string sql = InsertStatement("api_keys", kKeyColumns);
  return ExecuteVoid(session_, sql,
                     {k.id, k.organization_id, k.project_id, std::string(KeyKindName(k.kind)),
                      k.name, k.secret_hash, k.display_prefix, Nullable(k.created_by), k.created_at,
                      Nullable(k.revoked_at), Nullable(k.public_key)});
}

Result<std::optional<ApiKeyRecord>> AccountRepository::FindApiKeyByHash(
    std::string_view secret_hash) {
  return FindOne<ApiKeyRecord>(
      session_, Select(kKeyColumns, "FROM api_keys WHERE secret_hash = $1"),
      {std::string(secret_hash)}, [](const SqlRow& r) { return MapKey(r); });
}

Result<std::optional<ApiKeyRecord>> AccountRepository::FindApiKey(std::string_view key_id) {
  return FindOne<ApiKeyRecord>(session_, Select(kKeyColumns, "FROM api_keys WHERE id = $1"),
                               {std::string(key_id)}, [](const SqlRow& r) { return MapKey(r); });
}

Result<std::optional<CredentialGrant>> AccountRepository::FindCredentialGrant(
    std::string_view secret_hash) {
  constexpr std::size_t kOrgAt = 1 + ColumnCount(kKeyColumns);
  constexpr std::size_t kProjectAt = kOrgAt + ColumnCount(kOrgColumns);
  static const std::string sql =
      "SELECT m.role, " + Aliased("k", kKeyColumns) + ", " + Aliased("o", kOrgColumns) + ", " +
      Aliased("p", kProjectColumns) +
      " FROM api_keys k JOIN organizations o ON o.id = k.organization_id "
      "LEFT JOIN projects p ON p.id = k.project_id "
      "LEFT JOIN memberships m ON m.organization_id = k.organization_id "
      "AND m.user_id = k.created_by WHERE k.secret_hash = $1";
  return FindOne<CredentialGrant>(session_, sql, {std::string(secret_hash)}, [](const SqlRow& r) {
    CredentialGrant grant{MapKey(r, 1), r.OptText(0), MapOrgAt(r, kOrgAt), std::nullopt};
    if (!r.IsNull(kProjectAt)) grant.project = MapProject(r, kProjectAt);
    return grant;
  });
}

Result<std::vector<ApiKeyRecord>> AccountRepository::ListApiKeys(std::string_view project_id,
                                                               const KeysetPage& page,
                                                               std::string_view kind) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kKeyColumns) + " FROM api_keys WHERE project_id = " +
             sql.Next(std::string(project_id));
  if (!kind.empty()) sql.text += " AND kind = " + sql.Next(std::string(kind));
  sql.text += KeysetCondition(sql, "created_at, id", page) + " ORDER BY created_at, id LIMIT " +
              sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<ApiKeyRecord> keys;
  for (const SqlRow& row : *rows) keys.push_back(MapKey(row));
  return keys;
}

Result<bool> AccountRepository::RevokeApiKey(std::string_view key_id, std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                        {std::string(key_id), at});
}

// ---- Sessions and refresh tokens ------------------------------------------------------------

Result<void> AccountRepository::InsertSession(const SessionRecord& s) {
  static const std::string sql = InsertStatement("sessions", kSessionColumns);
  return ExecuteVoid(session_, sql,
                     {s.id, s.user_id, s.kind, s.created_at, s.expires_at, Nullable(s.revoked_at),
                      Nullable(s.user_agent)});
}

Result<std::optional<SessionRecord>> AccountRepository::FindSession(std::string_view session_id) {
  return FindOne<SessionRecord>(session_, Select(kSessionColumns, "FROM sessions WHERE id = $1"),
                                {std::string(session_id)}, MapSession);
}

Result<bool> AccountRepository::RevokeSession(std::string_view session_id, std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                        {std::string(session_id), at});
}

Result<std::int64_t> AccountRepository::RevokeOtherSessions(std::string_view user_id,
                                                           std::string_view kept,
                                                           std::int64_t at) {
  return session_.Execute(
      "UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND "
      "revoked_at IS NULL",
      {std::string(user_id), std::string(kept), at});
}

Result<void> AccountRepository::InsertRefreshToken(const RefreshTokenRecord& t) {
  static const std::string sql = InsertStatement("refresh_tokens", kRefreshTokenColumns);
  return ExecuteVoid(session_, sql,
                     {t.token_hash, t.session_id, t.created_at, Nullable(t.used_at)});
}

Result<std::optional<RefreshTokenRecord>> AccountRepository::FindRefreshToken(
    std::string_view token_hash) {
  return FindOne<RefreshTokenRecord>(
      session_, Select(kRefreshTokenColumns, "FROM refresh_tokens WHERE token_hash = $1"),
      {std::string(token_hash)}, MapRefreshToken);
}

// One conditional UPDATE: a concurrent claimer waits for the row lock (PostgreSQL) or the write
// lock (SQLite), then finds used_at set and changes nothing.
Result<bool> AccountRepository::ClaimRefreshToken(std::string_view token_hash, std::int64_t at) {
  return ExecuteChanged(
      session_, "UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL",
      {std::string(token_hash), at});
}

// ---- Invitations ----------------------------------------------------------------------------

Result<void> AccountRepository::InsertInvitation(const InvitationRecord& i) {
  static const std::string sql = InsertStatement("invitations", kInvitationColumns);
  return ExecuteVoid(
      session_, sql,
      {i.id, i.organization_id, i.email, i.role, i.token_hash, Nullable(i.invited_by), i.created_at,
       i.expires_at, Nullable(i.accepted_at), Nullable(i.accepted_by), Nullable(i.revoked_at)});
}

Result<std::optional<InvitationRecord>> AccountRepository::FindInvitation(
    std::string_view invitation_id) {
  return FindOne<InvitationRecord>(session_,
                                   Select(kInvitationColumns, "FROM invitations WHERE id = $1"),
                                   {std::string(invitation_id)}, MapInvitation);
}

Result<std::optional<InvitationRecord>> AccountRepository::FindInvitationByTokenHash(
    std::string_view token_hash) {
  return FindOne<InvitationRecord>(
      session_, Select(kInvitationColumns, "FROM invitations WHERE token_hash = $1"),
      {std::string(token_hash)}, MapInvitation);
}

Result<std::vector<InvitationRecord>> AccountRepository::ListInvitations(
    std::string_view organization_id, const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kInvitationColumns) +
             " FROM invitations WHERE organization_id = " + sql.Next(std::string(organization_id)) +
             KeysetCondition(sql, "created_at, id", page, /*newest_first=*/true) +
             " ORDER BY created_at DESC, id DESC LIMIT " + sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<InvitationRecord> invitations;
  for (const SqlRow& row : *rows) invitations.push_back(MapInvitation(row));
  return invitations;
}

Result<bool> AccountRepository::MarkInvitationAccepted(std::string_view invitation_id,
                                                std::string_view user_id, std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE invitations SET accepted_at = $3, accepted_by = $2 WHERE id = $1 "
                        "AND accepted_at IS NULL AND revoked_at IS NULL",
                        {std::string(invitation_id), std::string(user_id), at});
}

Result<bool> AccountRepository::RevokeInvitation(std::string_view invitation_id, std::int64_t at) {
  return ExecuteChanged(session_,
                        "UPDATE invitations SET revoked_at = $2 WHERE id = $1 "
                        "AND accepted_at IS NULL AND revoked_at IS NULL",
                        {std::string(invitation_id), at});
}

// ---- Audit log ------------------------------------------------------------------------------

Result<void> AccountRepository::InsertAudit(const AuditRecord& a) {
  static const std::string sql = InsertStatement("audit_log", kAuditColumns);
  return ExecuteVoid(
      session_, sql,
      {a.id, a.organization_id.empty() ? SqlValue(nullptr) : SqlValue(a.organization_id),
       Nullable(a.project_id), Nullable(a.actor_user_id),
       a.credential_kind, Nullable(a.credential_id), a.action, Nullable(a.target_type),
       Nullable(a.target_id), Nullable(a.request_id), a.details_json, a.created_at});
}

// One statement for every combination of filters: an absent filter is a NULL parameter. The
// CASTs give PostgreSQL a type for parameters that otherwise only appear in `IS NULL`.
Result<std::vector<AuditRecord>> AccountRepository::ListAudit(const AuditQuery& q) {
  static const std::string sql =
      Select(kAuditColumns,
             "FROM audit_log WHERE organization_id = $1 "
             "AND (CAST($2 AS TEXT) IS NULL OR actor_user_id = $2) "
             "AND (CAST($3 AS TEXT) IS NULL OR action = $3) "
             "AND (CAST($4 AS BIGINT) IS NULL OR created_at >= $4) "
             "AND (CAST($5 AS BIGINT) IS NULL OR created_at < $5) "
             "AND (CAST($6 AS BIGINT) IS NULL OR created_at < $6 OR (created_at = $6 AND id < $7)) "
             "ORDER BY created_at DESC, id DESC LIMIT $8");
  const std::optional<std::int64_t> before_time =
      q.before ? std::optional(q.before->first) : std::nullopt;
  const std::optional<std::string> before_id =
      q.before ? std::optional(q.before->second) : std::nullopt;
  return FindAll<AuditRecord>(session_, sql,
                              {q.organization_id, Nullable(q.actor_user_id), Nullable(q.action),
                               Nullable(q.from), Nullable(q.to), Nullable(before_time),
                               Nullable(before_id), static_cast<std::int64_t>(q.limit)},
                              MapAudit);
}

// ---- Rate limits and server secrets ---------------------------------------------------------

Result<std::int64_t> AccountRepository::ReadRateLimit(std::string_view bucket,
                                               std::int64_t window_start) {
  auto count = FindOne<std::int64_t>(
      session_, "SELECT count FROM rate_limit_windows WHERE bucket = $1 AND window_start = $2",
      {std::string(bucket), window_start}, [](const SqlRow& r) { return r.Int(0); });
  if (!count) return count.error();
  return count->value_or(0);
}

Result<std::int64_t> AccountRepository::HitRateLimit(std::string_view bucket,
                                                     std::int64_t window_start,
                                                     std::int64_t amount) {
  auto rows = session_.Query(
      "INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES ($1, $2, $3) "
      "ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + $3 "
      "RETURNING count",
      {std::string(bucket), window_start, amount});
  if (!rows) return rows.error();
  return rows->front().Int(0);
}

Result<std::int64_t> AccountRepository::PruneRateLimits(std::int64_t window_start) {
  return session_.Execute("DELETE FROM rate_limit_windows WHERE window_start < $1", {window_start});
}

Result<std::string> AccountRepository::GetOrCreateSecret(std::string_view name,
                                                         std::string_view candidate,
                                                         std::int64_t at) {
  auto inserted = ExecuteVoid(session_,
                              "INSERT INTO server_secrets (name, value, created_at) "
                              "VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                              {std::string(name), std::string(candidate), at});
  if (!inserted) return inserted.error();
  auto value = FindOne<std::string>(session_, "SELECT value FROM server_secrets WHERE name = $1",
                                    {std::string(name)}, [](const SqlRow& r) { return r.Text(0); });
  if (!value) return value.error();
  if (!*value) return core::Error::Internal("server secret missing right after its insert");
  return std::move(**value);
}

}  // namespace sightline::storage
