#include "storage/repository.h"

namespace sightline::storage {
namespace {

using core::Result;

SqlValue Opt(const std::optional<double>& v) {
  if (!v) return nullptr;
  return *v;
}
SqlValue Flag(bool v) { return static_cast<std::int64_t>(v ? 1 : 0); }
std::optional<double> OptDouble(const SqlRow& row, std::size_t i) {
  if (row.IsNull(i)) return std::nullopt;
  return row.Double(i);
}

// Runs a single-row lookup and maps the row with `map` when there is one.
template <class T, class Map>
Result<std::optional<T>> FindOne(SqlSession& session, std::string_view sql,
                                 std::initializer_list<SqlValue> params, Map map) {
  auto rows = session.Query(sql, params);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<T>();
  return std::optional<T>(map(rows->front()));
}

Result<void> ExecuteVoid(SqlSession& session, std::string_view sql,
                         std::initializer_list<SqlValue> params) {
  auto done = session.Execute(sql, params);
  if (!done) return done.error();
  return {};
}

constexpr std::string_view kUserColumns =
    "id, email, password_hash, first_name, last_name, created_at, updated_at";
UserRecord MapUser(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Text(4), r.Int(5), r.Int(6)};
}

constexpr std::string_view kOrgColumns =
    "id, slug, name, require_two_factor, created_at, updated_at";
OrganizationRecord MapOrg(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Bool(3), r.Int(4), r.Int(5)};
}
constexpr std::string_view kOrgColumnsAliased =
    "o.id, o.slug, o.name, o.require_two_factor, o.created_at, o.updated_at";

constexpr std::string_view kProjectColumns =
    "id, organization_id, name, reporting_timezone, bot_detection, event_storage, ip_logging, "
    "created_at, updated_at";
ProjectRecord MapProject(const SqlRow& r, std::size_t o = 0) {
  return {r.Text(o + 0), r.Text(o + 1), r.Text(o + 2), r.Text(o + 3), r.Bool(o + 4),
          r.Bool(o + 5), r.Bool(o + 6), r.Int(o + 7),  r.Int(o + 8)};
}
constexpr std::string_view kProjectColumnsAliased =
    "p.id, p.organization_id, p.name, p.reporting_timezone, p.bot_detection, p.event_storage, "
    "p.ip_logging, p.created_at, p.updated_at";
constexpr std::size_t kOrgColumnCount = 6;

constexpr std::string_view kKeyColumns =
    "id, organization_id, project_id, kind, name, secret_hash, display_prefix, created_by, "
    "created_at, revoked_at";
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
  return key;
}

std::string Select(std::string_view columns, std::string_view rest) {
  std::string sql = "SELECT ";
  sql += columns;
  sql += " ";
  sql += rest;
  return sql;
}

constexpr std::string_view kEventColumns =
    "id, project_id, occurred_at, received_at, event, channel, user_id, anonymous_id, "
    "session_id, icon, description, notify, tags, ip, user_agent, browser, browser_version, os, "
    "os_version, device, brand, model, device_confidence, signal_source, in_app, country, "
    "region, city, path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, "
    "is_bot, actor_type, bot_name, bot_vendor, actor_category, actor_verified, "
    "verification_method, actor_confidence, is_ai";

std::vector<SqlValue> EventParams(const EventRecord& e) {
  return {e.id,          e.project_id,     e.occurred_at,  e.received_at,
          e.event,       e.channel,        Nullable(e.user_id),
          Nullable(e.anonymous_id),        Nullable(e.session_id),
          Nullable(e.icon),                Nullable(e.description),
          Flag(e.notify),                  e.tags_json,
          Nullable(e.ip),                  Nullable(e.user_agent),
          Nullable(e.browser),             Nullable(e.browser_version),
          Nullable(e.os),                  Nullable(e.os_version),
          Nullable(e.device),              Nullable(e.brand),
          Nullable(e.model),               Opt(e.device_confidence),
          Nullable(e.signal_source),       Flag(e.in_app),
          Nullable(e.country),             Nullable(e.region),
          Nullable(e.city),                Nullable(e.path),
          Nullable(e.referrer),            Nullable(e.utm_source),
          Nullable(e.utm_medium),          Nullable(e.utm_campaign),
          Nullable(e.utm_term),            Nullable(e.utm_content),
          Flag(e.is_bot),                  Nullable(e.actor_type),
          Nullable(e.bot_name),            Nullable(e.bot_vendor),
          Nullable(e.actor_category),      Flag(e.actor_verified),
          Nullable(e.verification_method), Opt(e.actor_confidence),
          Flag(e.is_ai)};
}

EventRecord MapEvent(const SqlRow& r) {
  EventRecord e;
  std::size_t i = 0;
  e.id = r.Text(i++);
  e.project_id = r.Text(i++);
  e.occurred_at = r.Int(i++);
  e.received_at = r.Int(i++);
  e.event = r.Text(i++);
  e.channel = r.Text(i++);
  for (auto* field : {&e.user_id, &e.anonymous_id, &e.session_id, &e.icon, &e.description}) {
    *field = r.OptText(i++);
  }
  e.notify = r.Bool(i++);
  e.tags_json = r.Text(i++);
  for (auto* field : {&e.ip, &e.user_agent, &e.browser, &e.browser_version, &e.os, &e.os_version,
                      &e.device, &e.brand, &e.model}) {
    *field = r.OptText(i++);
  }
  e.device_confidence = OptDouble(r, i++);
  e.signal_source = r.OptText(i++);
  e.in_app = r.Bool(i++);
  for (auto* field : {&e.country, &e.region, &e.city, &e.path, &e.referrer, &e.utm_source,
                      &e.utm_medium, &e.utm_campaign, &e.utm_term, &e.utm_content}) {
    *field = r.OptText(i++);
  }
  e.is_bot = r.Bool(i++);
  for (auto* field : {&e.actor_type, &e.bot_name, &e.bot_vendor, &e.actor_category}) {
    *field = r.OptText(i++);
  }
  e.actor_verified = r.Bool(i++);
  e.verification_method = r.OptText(i++);
  e.actor_confidence = OptDouble(r, i++);
  e.is_ai = r.Bool(i++);
  return e;
}

constexpr std::string_view kBotColumns =
    "id, project_id, occurred_at, received_at, event, source, ip, user_agent, method, host, "
    "path, referrer, actor_type, bot_name, bot_vendor, actor_category, actor_verified, "
    "verification_method, actor_confidence, is_ai, country, counts_toward_usage";

std::vector<SqlValue> BotParams(const BotRequestRecord& b) {
  return {b.id,
          b.project_id,
          b.occurred_at,
          b.received_at,
          b.event,
          b.source,
          Nullable(b.ip),
          b.user_agent,
          Nullable(b.method),
          Nullable(b.host),
          Nullable(b.path),
          Nullable(b.referrer),
          b.actor_type,
          Nullable(b.bot_name),
          Nullable(b.bot_vendor),
          Nullable(b.actor_category),
          Flag(b.actor_verified),
          b.verification_method,
          b.actor_confidence,
          Flag(b.is_ai),
          Nullable(b.country),
          Flag(b.counts_toward_usage)};
}

BotRequestRecord MapBot(const SqlRow& r) {
  BotRequestRecord b;
  b.id = r.Text(0);
  b.project_id = r.Text(1);
  b.occurred_at = r.Int(2);
  b.received_at = r.Int(3);
  b.event = r.Text(4);
  b.source = r.Text(5);
  b.ip = r.OptText(6);
  b.user_agent = r.Text(7);
  b.method = r.OptText(8);
  b.host = r.OptText(9);
  b.path = r.OptText(10);
  b.referrer = r.OptText(11);
  b.actor_type = r.Text(12);
  b.bot_name = r.OptText(13);
  b.bot_vendor = r.OptText(14);
  b.actor_category = r.OptText(15);
  b.actor_verified = r.Bool(16);
  b.verification_method = r.Text(17);
  b.actor_confidence = r.Double(18);
  b.is_ai = r.Bool(19);
  b.country = r.OptText(20);
  b.counts_toward_usage = r.Bool(21);
  return b;
}

// "INSERT INTO table (cols) VALUES ($1, ..., $n)" for the given column list.
std::string InsertStatement(std::string_view table, std::string_view columns) {
  std::size_t count = 1;
  for (char c : columns) count += c == ',';
  std::string sql = "INSERT INTO ";
  sql += table;
  sql += " (";
  sql += columns;
  sql += ") VALUES (";
  for (std::size_t i = 1; i <= count; ++i) {
    sql += (i > 1 ? ", $" : "$") + std::to_string(i);
  }
  sql += ")";
  return sql;
}

template <class Row, class Params>
Result<void> InsertAll(SqlSession& session, const std::string& sql, std::span<const Row> rows,
                       Params params) {
  for (const Row& row : rows) {
    const std::vector<SqlValue> values = params(row);
    auto done = session.Execute(sql, std::span<const SqlValue>(values));
    if (!done) return done.error();
  }
  return {};
}

}  // namespace

const char* KeyKindName(KeyKind kind) { return kind == KeyKind::kPrivate ? "private" : "sdk"; }

Result<void> Repository::InsertUser(const UserRecord& u) {
  return ExecuteVoid(session_,
                     "INSERT INTO users (id, email, password_hash, first_name, last_name, "
                     "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     {u.id, u.email, u.password_hash, u.first_name, u.last_name, u.created_at,
                      u.updated_at});
}

Result<std::optional<UserRecord>> Repository::FindUserById(std::string_view id) {
  return FindOne<UserRecord>(session_, Select(kUserColumns, "FROM users WHERE id = $1"),
                             {std::string(id)}, MapUser);
}

Result<std::optional<UserRecord>> Repository::FindUserByEmail(std::string_view email) {
  return FindOne<UserRecord>(session_, Select(kUserColumns, "FROM users WHERE email = $1"),
                             {std::string(email)}, MapUser);
}

Result<void> Repository::InsertOrganization(const OrganizationRecord& o) {
  return ExecuteVoid(session_,
                     "INSERT INTO organizations (id, slug, name, require_two_factor, created_at, "
                     "updated_at) VALUES ($1, $2, $3, $4, $5, $6)",
                     {o.id, o.slug, o.name, Flag(o.require_two_factor), o.created_at,
                      o.updated_at});
}

Result<std::optional<OrganizationRecord>> Repository::FindOrganizationBySlug(
    std::string_view slug) {
  return FindOne<OrganizationRecord>(
      session_, Select(kOrgColumns, "FROM organizations WHERE slug = $1"), {std::string(slug)},
      MapOrg);
}

Result<std::optional<OrganizationRecord>> Repository::FindOrganizationById(std::string_view id) {
  return FindOne<OrganizationRecord>(
      session_, Select(kOrgColumns, "FROM organizations WHERE id = $1"), {std::string(id)},
      MapOrg);
}

Result<void> Repository::PutMembership(const MembershipRecord& m) {
  return ExecuteVoid(session_,
                     "INSERT INTO memberships (organization_id, user_id, role, created_at) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (organization_id, user_id) "
                     "DO UPDATE SET role = excluded.role",
                     {m.organization_id, m.user_id, m.role, m.created_at});
}

Result<std::optional<MembershipRecord>> Repository::FindMembership(
    std::string_view organization_id, std::string_view user_id) {
  return FindOne<MembershipRecord>(
      session_,
      "SELECT organization_id, user_id, role, created_at FROM memberships "
      "WHERE organization_id = $1 AND user_id = $2",
      {std::string(organization_id), std::string(user_id)}, [](const SqlRow& r) {
        return MembershipRecord{r.Text(0), r.Text(1), r.Text(2), r.Int(3)};
      });
}

Result<void> Repository::InsertProject(const ProjectRecord& p) {
  return ExecuteVoid(session_,
                     "INSERT INTO projects (id, organization_id, name, reporting_timezone, "
                     "bot_detection, event_storage, ip_logging, created_at, updated_at) "
                     "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                     {p.id, p.organization_id, p.name, p.reporting_timezone,
                      Flag(p.bot_detection), Flag(p.event_storage), Flag(p.ip_logging),
                      p.created_at, p.updated_at});
}

Result<std::optional<ProjectRecord>> Repository::FindProject(std::string_view project_id) {
  return FindOne<ProjectRecord>(session_, Select(kProjectColumns, "FROM projects WHERE id = $1"),
                                {std::string(project_id)}, [](const SqlRow& r) { return MapProject(r); });
}

Result<std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>>>
Repository::FindOrganizationAndProject(std::string_view slug, std::string_view project_id) {
  auto rows = session_.Query(
      "SELECT " + std::string(kOrgColumnsAliased) + ", " + std::string(kProjectColumnsAliased) +
          " FROM organizations o LEFT JOIN projects p ON p.id = $2 AND p.organization_id = o.id "
          "WHERE o.slug = $1",
      {std::string(slug), std::string(project_id)});
  if (!rows) return rows.error();
  std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>> found;
  if (rows->empty()) return found;
  const SqlRow& row = rows->front();
  found.first = MapOrg(row);
  if (!row.IsNull(kOrgColumnCount)) found.second = MapProject(row, kOrgColumnCount);
  return found;
}

Result<bool> Repository::UpdateProject(const ProjectRecord& p) {
  auto changed = session_.Execute(
      "UPDATE projects SET name = $2, reporting_timezone = $3, bot_detection = $4, "
      "event_storage = $5, ip_logging = $6, updated_at = $7 WHERE id = $1",
      {p.id, p.name, p.reporting_timezone, Flag(p.bot_detection), Flag(p.event_storage),
       Flag(p.ip_logging), p.updated_at});
  if (!changed) return changed.error();
  return *changed > 0;
}

Result<std::optional<ProjectRecord>> Repository::FindProjectByName(
    std::string_view organization_id, std::string_view name) {
  return FindOne<ProjectRecord>(
      session_,
      Select(kProjectColumns,
             "FROM projects WHERE organization_id = $1 AND name = $2 ORDER BY created_at, id"),
      {std::string(organization_id), std::string(name)}, [](const SqlRow& r) { return MapProject(r); });
}

Result<void> Repository::InsertApiKey(const ApiKeyRecord& k) {
  return ExecuteVoid(session_,
                     "INSERT INTO api_keys (id, organization_id, project_id, kind, name, "
                     "secret_hash, display_prefix, created_by, created_at, revoked_at) "
                     "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                     {k.id, k.organization_id, k.project_id, std::string(KeyKindName(k.kind)),
                      k.name, k.secret_hash, k.display_prefix, Nullable(k.created_by),
                      k.created_at, Nullable(k.revoked_at)});
}

Result<std::optional<ApiKeyRecord>> Repository::FindApiKeyByHash(std::string_view secret_hash) {
  return FindOne<ApiKeyRecord>(
      session_, Select(kKeyColumns, "FROM api_keys WHERE secret_hash = $1"),
      {std::string(secret_hash)}, [](const SqlRow& r) { return MapKey(r); });
}

Result<std::optional<CredentialGrant>> Repository::FindCredentialGrant(
    std::string_view secret_hash) {
  return FindOne<CredentialGrant>(
      session_,
      "SELECT m.role, k.id, k.organization_id, k.project_id, k.kind, k.name, k.secret_hash, "
      "k.display_prefix, k.created_by, k.created_at, k.revoked_at FROM api_keys k "
      "LEFT JOIN memberships m ON m.organization_id = k.organization_id "
      "AND m.user_id = k.created_by WHERE k.secret_hash = $1",
      {std::string(secret_hash)},
      [](const SqlRow& r) { return CredentialGrant{MapKey(r, 1), r.OptText(0)}; });
}

Result<std::vector<ApiKeyRecord>> Repository::ListApiKeys(std::string_view project_id) {
  auto rows = session_.Query(
      Select(kKeyColumns, "FROM api_keys WHERE project_id = $1 ORDER BY created_at, id"),
      {std::string(project_id)});
  if (!rows) return rows.error();
  std::vector<ApiKeyRecord> keys;
  for (const auto& row : *rows) keys.push_back(MapKey(row));
  return keys;
}

Result<bool> Repository::RevokeApiKey(std::string_view key_id, std::int64_t at) {
  auto changed = session_.Execute(
      "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
      {std::string(key_id), at});
  if (!changed) return changed.error();
  return *changed > 0;
}

Result<void> Repository::InsertEvents(std::span<const EventRecord> events) {
  static const std::string sql = InsertStatement("events", kEventColumns);
  return InsertAll(session_, sql, events, EventParams);
}

Result<std::vector<EventRecord>> Repository::ListRecentEvents(std::string_view project_id,
                                                              std::size_t limit) {
  auto rows = session_.Query(
      Select(kEventColumns,
             "FROM events WHERE project_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT $2"),
      {std::string(project_id), static_cast<std::int64_t>(limit)});
  if (!rows) return rows.error();
  std::vector<EventRecord> out;
  for (const auto& row : *rows) out.push_back(MapEvent(row));
  return out;
}

Result<void> Repository::InsertBotRequests(std::span<const BotRequestRecord> rows) {
  static const std::string sql = InsertStatement("bot_requests", kBotColumns);
  return InsertAll(session_, sql, rows, BotParams);
}

Result<std::vector<BotRequestRecord>> Repository::ListRecentBotRequests(
    std::string_view project_id, std::size_t limit) {
  auto rows = session_.Query(
      Select(kBotColumns,
             "FROM bot_requests WHERE project_id = $1 ORDER BY occurred_at DESC, id DESC "
             "LIMIT $2"),
      {std::string(project_id), static_cast<std::int64_t>(limit)});
  if (!rows) return rows.error();
  std::vector<BotRequestRecord> out;
  for (const auto& row : *rows) out.push_back(MapBot(row));
  return out;
}

}  // namespace sightline::storage
