// Site audit's sites, cached robots.txt files and the crawler's signing keys.
#include "storage/site_audit_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kSiteColumns =
    "id, project_id, origin, token, verified_method, verified_at, checked_at, check_problem, "
    "created_by, created_at";
constexpr std::string_view kKeyColumns = "id, seed, sealed, public_key, created_at, retired_at";

SiteRecord MapSite(const SqlRow& r) {
  return {r.Text(0),   r.Text(1),   r.Text(2),    r.Text(3), r.OptText(4),
          r.OptInt(5), r.OptInt(6), r.Text(7), r.OptText(8), r.Int(9)};
}

CrawlerKeyRecord MapKey(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Bool(2), r.Text(3), r.Int(4), r.OptInt(5)};
}

}  // namespace

Result<std::vector<SiteRecord>> SiteAuditRepository::ListAuditSites(std::string_view project_id,
                                                                     const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kSiteColumns) + " FROM audit_sites WHERE project_id = " +
             sql.Next(std::string(project_id)) + KeysetCondition(sql, "created_at, id", page) +
             " ORDER BY created_at, id LIMIT " + sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<SiteRecord> sites;
  for (const SqlRow& row : *rows) sites.push_back(MapSite(row));
  return sites;
}

Result<std::optional<SiteRecord>> SiteAuditRepository::FindAuditSite(std::string_view project_id,
                                                                      std::string_view site_id) {
  static const std::string sql =
      Select(kSiteColumns, "FROM audit_sites WHERE project_id = $1 AND id = $2");
  return FindOne<SiteRecord>(session_, sql, {std::string(project_id), std::string(site_id)},
                                  MapSite);
}

Result<void> SiteAuditRepository::InsertAuditSite(const SiteRecord& s) {
  static const std::string sql = InsertStatement("audit_sites", kSiteColumns);
  return ExecuteVoid(session_, sql,
                     {s.id, s.project_id, s.origin, s.token, Nullable(s.verified_method),
                      Nullable(s.verified_at), Nullable(s.checked_at), s.check_problem,
                      Nullable(s.created_by), s.created_at});
}

Result<void> SiteAuditRepository::UpdateAuditSiteCheck(const SiteRecord& s) {
  return ExecuteVoid(session_,
                     "UPDATE audit_sites SET verified_method = $3, verified_at = $4, checked_at = "
                     "$5, check_problem = $6 WHERE project_id = $1 AND id = $2",
                     {s.project_id, s.id, Nullable(s.verified_method), Nullable(s.verified_at),
                      Nullable(s.checked_at), s.check_problem});
}

Result<bool> SiteAuditRepository::DeleteAuditSite(std::string_view project_id,
                                              std::string_view site_id) {
  const std::string project(project_id), site(site_id);
  static constexpr std::string_view kCrawlsOfSite =
      "(SELECT id FROM audit_crawls WHERE project_id = $1 AND site_id = $2)";
  for (std::string_view table : {"audit_issues", "audit_links", "audit_pages"}) {
    auto deleted = ExecuteVoid(session_,
                               "DELETE FROM " + std::string(table) + " WHERE crawl_id IN " +
                                   std::string(kCrawlsOfSite),
                               {project, site});
    if (!deleted) return deleted.error();
  }
  auto crawls = ExecuteVoid(session_,
                            "DELETE FROM audit_crawls WHERE project_id = $1 AND site_id = $2",
                            {project, site});
  if (!crawls) return crawls.error();
  return ExecuteChanged(session_, "DELETE FROM audit_sites WHERE project_id = $1 AND id = $2",
                        {project, site});
}

Result<std::optional<RobotsCacheRecord>> SiteAuditRepository::FindRobotsCache(
    std::string_view origin) {
  return FindOne<RobotsCacheRecord>(
      session_, "SELECT origin, fetched_at, http_status, body FROM audit_robots_cache WHERE "
                "origin = $1",
      {std::string(origin)},
      [](const SqlRow& r) { return RobotsCacheRecord{r.Text(0), r.Int(1), r.Int(2), r.Text(3)}; });
}

Result<void> SiteAuditRepository::SaveRobotsCache(const RobotsCacheRecord& robots) {
  return ExecuteVoid(session_,
                     "INSERT INTO audit_robots_cache (origin, fetched_at, http_status, body) "
                     "VALUES ($1, $2, $3, $4) ON CONFLICT (origin) DO UPDATE SET fetched_at = "
                     "excluded.fetched_at, http_status = excluded.http_status, body = excluded.body",
                     {robots.origin, robots.fetched_at, robots.http_status, robots.body});
}

Result<std::vector<CrawlerKeyRecord>> SiteAuditRepository::ListCrawlerKeys() {
  static const std::string sql =
      Select(kKeyColumns, "FROM audit_crawler_keys ORDER BY created_at DESC, id");
  return FindAll<CrawlerKeyRecord>(session_, sql, {}, MapKey);
}

Result<void> SiteAuditRepository::InsertCrawlerKey(const CrawlerKeyRecord& k) {
  static const std::string sql = InsertStatement("audit_crawler_keys", kKeyColumns);
  return ExecuteVoid(session_, sql,
                     {k.id, k.seed, Flag(k.sealed), k.public_key, k.created_at,
                      Nullable(k.retired_at)});
}

Result<void> SiteAuditRepository::RetireCrawlerKeys(std::string_view keep_id, std::int64_t at) {
  return ExecuteVoid(session_,
                     "UPDATE audit_crawler_keys SET retired_at = $2 WHERE id <> $1 AND "
                     "retired_at IS NULL",
                     {std::string(keep_id), at});
}

Result<void> SiteAuditRepository::DeleteCrawlerKeysRetiredBefore(std::int64_t before) {
  return ExecuteVoid(session_, "DELETE FROM audit_crawler_keys WHERE retired_at < $1", {before});
}

}  // namespace sightline::storage
