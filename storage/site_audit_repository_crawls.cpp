// Site audit's crawls: queued work claimed by one node at a time with a lease that the node
// renews while it crawls, so a node that dies leaves its crawl to be claimed (and resumed) by
// another once the lease runs out.
#include "storage/site_audit_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kCrawlColumns =
    "id, project_id, site_id, start_url, status, max_pages, max_depth, max_duration_s, "
    "concurrency, delay_ms, created_by, created_at, started_at, finished_at, lease_until, "
    "cancel_requested, stop_reason, error_message, previous_crawl_id, summary";

SiteAuditCrawlRecord MapCrawl(const SqlRow& r) {
  SiteAuditCrawlRecord c;
  c.id = r.Text(0);
  c.project_id = r.Text(1);
  c.site_id = r.Text(2);
  c.start_url = r.Text(3);
  c.status = r.Text(4);
  c.max_pages = r.Int(5);
  c.max_depth = r.Int(6);
  c.max_duration_s = r.Int(7);
  c.concurrency = r.Int(8);
  c.delay_ms = r.Int(9);
  c.created_by = r.OptText(10);
  c.created_at = r.Int(11);
  c.started_at = r.OptInt(12);
  c.finished_at = r.OptInt(13);
  c.lease_until = r.Int(14);
  c.cancel_requested = r.Bool(15);
  c.stop_reason = r.Text(16);
  c.error_message = r.Text(17);
  c.previous_crawl_id = r.OptText(18);
  c.summary = r.Text(19);
  return c;
}

}  // namespace

Result<void> SiteAuditRepository::InsertAuditCrawl(const SiteAuditCrawlRecord& c) {
  static const std::string sql = InsertStatement("audit_crawls", kCrawlColumns);
  return ExecuteVoid(
      session_, sql,
      {c.id, c.project_id, c.site_id, c.start_url, c.status, c.max_pages, c.max_depth,
       c.max_duration_s, c.concurrency, c.delay_ms, Nullable(c.created_by), c.created_at,
       Nullable(c.started_at), Nullable(c.finished_at), c.lease_until, Flag(c.cancel_requested),
       c.stop_reason, c.error_message, Nullable(c.previous_crawl_id), c.summary});
}

Result<std::optional<SiteAuditCrawlRecord>> SiteAuditRepository::FindAuditCrawl(
    std::string_view project_id, std::string_view crawl_id) {
  static const std::string sql =
      Select(kCrawlColumns, "FROM audit_crawls WHERE project_id = $1 AND id = $2");
  return FindOne<SiteAuditCrawlRecord>(session_, sql,
                                   {std::string(project_id), std::string(crawl_id)}, MapCrawl);
}

Result<std::optional<SiteAuditCrawlRecord>> SiteAuditRepository::FindAuditCrawlById(
    std::string_view crawl_id) {
  static const std::string sql = Select(kCrawlColumns, "FROM audit_crawls WHERE id = $1");
  return FindOne<SiteAuditCrawlRecord>(session_, sql, {std::string(crawl_id)}, MapCrawl);
}

Result<std::vector<SiteAuditCrawlRecord>> SiteAuditRepository::ListAuditCrawls(
    std::string_view project_id, std::string_view site_id, std::int64_t limit,
    std::int64_t offset, const std::optional<std::pair<std::int64_t, std::string>>& before) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kCrawlColumns) + " FROM audit_crawls WHERE project_id = " +
             sql.Next(std::string(project_id));
  if (!site_id.empty()) sql.text += " AND site_id = " + sql.Next(std::string(site_id));
  if (before) {
    sql.text += " AND (created_at, id) < (" + sql.Next(before->first) + ", " +
                sql.Next(before->second) + ")";
  }
  sql.text += " ORDER BY created_at DESC, id DESC LIMIT " + sql.Next(limit) + " OFFSET " +
              sql.Next(offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<SiteAuditCrawlRecord> crawls;
  for (const SqlRow& row : *rows) crawls.push_back(MapCrawl(row));
  return crawls;
}

Result<std::optional<SiteAuditCrawlRecord>> SiteAuditRepository::FindLastCompletedCrawl(
    std::string_view site_id, std::int64_t before) {
  static const std::string sql =
      Select(kCrawlColumns,
             "FROM audit_crawls WHERE site_id = $1 AND status = 'completed' AND created_at < $2 "
             "ORDER BY created_at DESC, id DESC LIMIT 1");
  return FindOne<SiteAuditCrawlRecord>(session_, sql, {std::string(site_id), before}, MapCrawl);
}

Result<bool> SiteAuditRepository::HasActiveAuditCrawl(std::string_view site_id) {
  auto found = FindOne<bool>(
      session_,
      "SELECT 1 FROM audit_crawls WHERE site_id = $1 AND status IN ('queued', 'running') LIMIT 1",
      {std::string(site_id)}, [](const SqlRow&) { return true; });
  if (!found) return found.error();
  return found->has_value();
}

Result<std::vector<SiteAuditCrawlRecord>> SiteAuditRepository::ListDueAuditCrawls(std::int64_t now,
                                                                          std::int64_t limit) {
  static const std::string sql =
      Select(kCrawlColumns,
             "FROM audit_crawls WHERE status = 'queued' OR (status = 'running' AND lease_until "
             "< $1) ORDER BY created_at, id LIMIT $2");
  return FindAll<SiteAuditCrawlRecord>(session_, sql, {now, limit}, MapCrawl);
}

Result<bool> SiteAuditRepository::ClaimAuditCrawl(std::string_view crawl_id, std::int64_t now,
                                              std::int64_t lease_until) {
  // The condition is checked again on the row itself, so of two nodes only one changes it.
  return ExecuteChanged(
      session_,
      "UPDATE audit_crawls SET status = 'running', lease_until = $3, started_at = "
      "COALESCE(started_at, $2) WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND "
      "lease_until < $2))",
      {std::string(crawl_id), now, lease_until});
}

Result<bool> SiteAuditRepository::RenewAuditCrawlLease(std::string_view crawl_id, std::int64_t held,
                                                   std::int64_t lease_until) {
  return ExecuteChanged(session_,
                        "UPDATE audit_crawls SET lease_until = $3 WHERE id = $1 AND status = "
                        "'running' AND lease_until = $2 AND cancel_requested = 0",
                        {std::string(crawl_id), held, lease_until});
}

Result<bool> SiteAuditRepository::ReleaseAuditCrawlLease(std::string_view crawl_id, std::int64_t held) {
  return ExecuteChanged(session_,
                        "UPDATE audit_crawls SET lease_until = 0 WHERE id = $1 AND status = "
                        "'running' AND lease_until = $2",
                        {std::string(crawl_id), held});
}

Result<std::optional<SiteAuditCrawlRecord>> SiteAuditRepository::CancelAuditCrawl(
    std::string_view project_id, std::string_view crawl_id, std::int64_t now) {
  const std::string project(project_id), crawl(crawl_id);
  auto queued = ExecuteVoid(session_,
                            "UPDATE audit_crawls SET status = 'cancelled', finished_at = $3, "
                            "cancel_requested = 1 WHERE project_id = $1 AND id = $2 AND status = "
                            "'queued'",
                            {project, crawl, now});
  if (!queued) return queued.error();
  auto running = ExecuteVoid(session_,
                             "UPDATE audit_crawls SET cancel_requested = 1 WHERE project_id = $1 "
                             "AND id = $2 AND status = 'running'",
                             {project, crawl});
  if (!running) return running.error();
  return FindAuditCrawl(project_id, crawl_id);
}

Result<bool> SiteAuditRepository::HoldsAuditCrawlLease(std::string_view crawl_id,
                                                       std::int64_t held) {
  // An UPDATE that changes nothing, rather than a SELECT: it takes the row's lock.
  return ExecuteChanged(session_,
                        "UPDATE audit_crawls SET lease_until = lease_until WHERE id = $1 AND "
                        "status = 'running' AND lease_until = $2",
                        {std::string(crawl_id), held});
}

Result<bool> SiteAuditRepository::FinishAuditCrawl(const SiteAuditCrawlRecord& c,
                                                   std::int64_t held) {
  return ExecuteChanged(session_,
                        "UPDATE audit_crawls SET status = $2, stop_reason = $3, error_message = $4, "
                        "summary = $5, finished_at = $6, lease_until = 0 WHERE id = $1 AND "
                        "status = 'running' AND lease_until = $7",
                        {c.id, c.status, c.stop_reason, c.error_message, c.summary,
                         Nullable(c.finished_at), held});
}

Result<void> SiteAuditRepository::SaveAuditCrawlSummary(std::string_view crawl_id,
                                                    std::string_view summary) {
  return ExecuteVoid(session_, "UPDATE audit_crawls SET summary = $2 WHERE id = $1",
                     {std::string(crawl_id), std::string(summary)});
}

}  // namespace sightline::storage
