// Site audit's URLs (the crawl's frontier, then its pages), links and issues.
#include "storage/site_audit_repository.h"

#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder

constexpr std::string_view kPageColumns =
    "crawl_id, url, seq, depth, source, internal, in_sitemap, state, http_status, content_type, "
    "bytes, ttfb_ms, title, indexable, etag, last_modified, content_hash, fetched_at, details";
constexpr std::string_view kLinkColumns = "crawl_id, from_url, to_url, anchor, nofollow";
constexpr std::string_view kIssueColumns =
    "crawl_id, project_id, rule_id, url, severity, evidence, state";

SiteAuditPageRecord MapPage(const SqlRow& r) {
  SiteAuditPageRecord p;
  p.crawl_id = r.Text(0);
  p.url = r.Text(1);
  p.seq = r.Int(2);
  p.depth = r.Int(3);
  p.source = r.Text(4);
  p.internal = r.Bool(5);
  p.in_sitemap = r.Bool(6);
  p.state = r.Text(7);
  p.http_status = r.OptInt(8);
  p.content_type = r.Text(9);
  p.bytes = r.Int(10);
  p.ttfb_ms = r.Int(11);
  p.title = r.Text(12);
  p.indexable = r.Bool(13);
  p.etag = r.Text(14);
  p.last_modified = r.Text(15);
  p.content_hash = r.Text(16);
  p.fetched_at = r.OptInt(17);
  p.details = r.Text(18);
  return p;
}

std::vector<SqlValue> PageValues(const SiteAuditPageRecord& p) {
  return {p.crawl_id,     p.url,           p.seq,           p.depth,
          p.source,       Flag(p.internal), Flag(p.in_sitemap), p.state,
          Nullable(p.http_status), p.content_type, p.bytes,  p.ttfb_ms,
          p.title,        Flag(p.indexable), p.etag,        p.last_modified,
          p.content_hash, Nullable(p.fetched_at), p.details};
}

SiteAuditLinkRecord MapLink(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Bool(4)};
}

SiteAuditIssueRecord MapIssue(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Text(4), r.Text(5), r.Text(6)};
}

}  // namespace

Result<void> SiteAuditRepository::AddAuditUrls(std::span<const SiteAuditPageRecord> pages) {
  static const std::string sql =
      InsertStatement("audit_pages", kPageColumns) + " ON CONFLICT (crawl_id, url) DO NOTHING";
  for (const SiteAuditPageRecord& page : pages) {
    auto values = PageValues(page);
    auto done = session_.Execute(sql, std::span<const SqlValue>(values));
    if (!done) return done.error();
  }
  return {};
}

Result<void> SiteAuditRepository::MarkInSitemap(std::string_view crawl_id,
                                            std::span<const std::string> urls) {
  for (const std::string& url : urls) {
    auto done = ExecuteVoid(session_,
                            "UPDATE audit_pages SET in_sitemap = 1 WHERE crawl_id = $1 AND url = $2",
                            {std::string(crawl_id), url});
    if (!done) return done;
  }
  return {};
}

Result<void> SiteAuditRepository::SetAuditUrlDepth(const SiteAuditPageRecord& p) {
  return ExecuteVoid(session_,
                     "UPDATE audit_pages SET depth = $3, source = $4 WHERE crawl_id = $1 AND "
                     "url = $2",
                     {p.crawl_id, p.url, p.depth, p.source});
}

Result<void> SiteAuditRepository::SaveAuditPage(const SiteAuditPageRecord& p) {
  return ExecuteVoid(
      session_,
      "UPDATE audit_pages SET state = $3, http_status = $4, content_type = $5, bytes = $6, "
      "ttfb_ms = $7, title = $8, indexable = $9, etag = $10, last_modified = $11, content_hash = "
      "$12, fetched_at = $13, details = $14 WHERE crawl_id = $1 AND url = $2",
      {p.crawl_id, p.url, p.state, Nullable(p.http_status), p.content_type, p.bytes, p.ttfb_ms,
       p.title, Flag(p.indexable), p.etag, p.last_modified, p.content_hash,
       Nullable(p.fetched_at), p.details});
}

Result<std::optional<SiteAuditPageRecord>> SiteAuditRepository::FindAuditPage(std::string_view crawl_id,
                                                                      std::string_view url) {
  static const std::string sql =
      Select(kPageColumns, "FROM audit_pages WHERE crawl_id = $1 AND url = $2");
  return FindOne<SiteAuditPageRecord>(session_, sql, {std::string(crawl_id), std::string(url)},
                                  MapPage);
}

Result<std::vector<SiteAuditPageRecord>> SiteAuditRepository::ListQueuedAuditUrls(
    std::string_view crawl_id, std::int64_t limit) {
  static const std::string sql = Select(
      kPageColumns,
      "FROM audit_pages WHERE crawl_id = $1 AND state = 'queued' ORDER BY seq LIMIT $2");
  return FindAll<SiteAuditPageRecord>(session_, sql, {std::string(crawl_id), limit}, MapPage);
}

Result<std::vector<SiteAuditPageRecord>> SiteAuditRepository::ListAllAuditPages(
    std::string_view crawl_id) {
  static const std::string sql =
      Select(kPageColumns, "FROM audit_pages WHERE crawl_id = $1 ORDER BY seq");
  return FindAll<SiteAuditPageRecord>(session_, sql, {std::string(crawl_id)}, MapPage);
}

Result<std::vector<SiteAuditPageRecord>> SiteAuditRepository::ListAuditPages(std::string_view crawl_id,
                                                                     const PageFilter& filter) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kPageColumns) + " FROM audit_pages WHERE crawl_id = " +
             sql.Next(std::string(crawl_id)) + " AND internal = " + sql.Next(Flag(filter.internal));
  if (!filter.state.empty()) sql.text += " AND state = " + sql.Next(filter.state);
  if (!filter.search.empty()) sql.text += " AND url LIKE '%' || " + sql.Next(filter.search) + " || '%'";
  if (filter.after) {
    sql.text += " AND (seq, url) > (" + sql.Next(filter.after->first) + ", " +
                sql.Next(filter.after->second) + ")";
  }
  sql.text += " ORDER BY seq, url LIMIT " + sql.Next(filter.limit) + " OFFSET " +
              sql.Next(filter.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<SiteAuditPageRecord> pages;
  for (const SqlRow& row : *rows) pages.push_back(MapPage(row));
  return pages;
}

Result<SiteAuditPageCounts> SiteAuditRepository::CountAuditPages(std::string_view crawl_id) {
  auto rows = session_.Query(
      "SELECT state, COUNT(*) FROM audit_pages WHERE crawl_id = $1 AND internal = 1 GROUP BY "
      "state",
      {std::string(crawl_id)});
  if (!rows) return rows.error();
  SiteAuditPageCounts counts;
  for (const SqlRow& row : *rows) {
    const std::string state = row.Text(0);
    const std::int64_t n = row.Int(1);
    counts.total += n;
    if (state == "queued") counts.queued += n;
    if (state == "done") counts.done += n;
    if (state == "blocked") counts.blocked += n;
    if (state == "error") counts.error += n;
    if (state == "skipped") counts.skipped += n;
  }
  return counts;
}

Result<std::int64_t> SiteAuditRepository::NextAuditSeq(std::string_view crawl_id) {
  auto max = FindOne<std::int64_t>(
      session_, "SELECT COALESCE(MAX(seq), 0) FROM audit_pages WHERE crawl_id = $1",
      {std::string(crawl_id)}, [](const SqlRow& r) { return r.Int(0); });
  if (!max) return max.error();
  return max->value_or(0) + 1;
}

Result<std::int64_t> SiteAuditRepository::SkipQueuedAuditUrls(std::string_view crawl_id) {
  auto changed = session_.Execute(
      "UPDATE audit_pages SET state = 'skipped' WHERE crawl_id = $1 AND state = 'queued'",
      {std::string(crawl_id)});
  if (!changed) return changed.error();
  return static_cast<std::int64_t>(*changed);
}

Result<void> SiteAuditRepository::InsertAuditLinks(std::span<const SiteAuditLinkRecord> links) {
  return InsertRows(session_, "audit_links", kLinkColumns, links,
                    [](const SiteAuditLinkRecord& l) -> std::vector<SqlValue> {
                      return {l.crawl_id, l.from_url, l.to_url, l.anchor, Flag(l.nofollow)};
                    });
}

Result<std::vector<SiteAuditLinkRecord>> SiteAuditRepository::ListAuditLinksFrom(
    std::string_view crawl_id, std::string_view from_url) {
  static const std::string sql =
      Select(kLinkColumns, "FROM audit_links WHERE crawl_id = $1 AND from_url = $2");
  return FindAll<SiteAuditLinkRecord>(session_, sql, {std::string(crawl_id), std::string(from_url)},
                                  MapLink);
}

Result<std::vector<SiteAuditLinkRecord>> SiteAuditRepository::ListAuditLinksTo(std::string_view crawl_id,
                                                                       std::string_view to_url,
                                                                       std::int64_t limit) {
  static const std::string sql = Select(
      kLinkColumns, "FROM audit_links WHERE crawl_id = $1 AND to_url = $2 ORDER BY from_url "
                    "LIMIT $3");
  return FindAll<SiteAuditLinkRecord>(session_, sql,
                                  {std::string(crawl_id), std::string(to_url), limit}, MapLink);
}

Result<std::vector<SiteAuditLinkRecord>> SiteAuditRepository::ListAllAuditLinks(
    std::string_view crawl_id) {
  static const std::string sql = Select(kLinkColumns, "FROM audit_links WHERE crawl_id = $1");
  return FindAll<SiteAuditLinkRecord>(session_, sql, {std::string(crawl_id)}, MapLink);
}

Result<void> SiteAuditRepository::ReplaceAuditIssues(std::string_view crawl_id,
                                                 std::span<const SiteAuditIssueRecord> issues) {
  auto cleared = ExecuteVoid(session_, "DELETE FROM audit_issues WHERE crawl_id = $1",
                             {std::string(crawl_id)});
  if (!cleared) return cleared;
  return InsertRows(session_, "audit_issues", kIssueColumns, issues,
                    [](const SiteAuditIssueRecord& i) -> std::vector<SqlValue> {
                      return {i.crawl_id, i.project_id, i.rule_id, i.url,
                              i.severity, i.evidence,   i.state};
                    });
}

Result<std::vector<SiteAuditIssueRecord>> SiteAuditRepository::ListAuditIssues(
    std::string_view crawl_id, const IssueFilter& f) {
  // Errors first, then warnings, then notices; by rule and URL within each.
  constexpr std::string_view kSeverityRank =
      "CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END";
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kIssueColumns) + " FROM audit_issues WHERE crawl_id = " +
             sql.Next(std::string(crawl_id));
  if (!f.rule_id.empty()) sql.text += " AND rule_id = " + sql.Next(f.rule_id);
  if (!f.severity.empty()) sql.text += " AND severity = " + sql.Next(f.severity);
  if (!f.url.empty()) sql.text += " AND url = " + sql.Next(f.url);
  if (!f.state.empty()) sql.text += " AND state = " + sql.Next(f.state);
  if (f.after) {
    sql.text += " AND (" + std::string(kSeverityRank) + ", rule_id, url) > (" +
                sql.Next(f.after->severity_rank) + ", " + sql.Next(f.after->rule_id) + ", " +
                sql.Next(f.after->url) + ")";
  }
  sql.text += " ORDER BY " + std::string(kSeverityRank) + ", rule_id, url LIMIT " +
              sql.Next(f.limit) + " OFFSET " + sql.Next(f.offset);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<SiteAuditIssueRecord> issues;
  for (const SqlRow& row : *rows) issues.push_back(MapIssue(row));
  return issues;
}

Result<std::vector<SiteAuditIssueRecord>> SiteAuditRepository::ListAllAuditIssues(
    std::string_view crawl_id) {
  static const std::string sql =
      Select(kIssueColumns, "FROM audit_issues WHERE crawl_id = $1 ORDER BY rule_id, url");
  return FindAll<SiteAuditIssueRecord>(session_, sql, {std::string(crawl_id)}, MapIssue);
}

Result<std::vector<SiteAuditIssueCount>> SiteAuditRepository::CountAuditIssues(std::string_view crawl_id) {
  return FindAll<SiteAuditIssueCount>(
      session_,
      "SELECT rule_id, severity, COUNT(*), SUM(CASE WHEN state = 'new' THEN 1 ELSE 0 END) FROM "
      "audit_issues WHERE crawl_id = $1 GROUP BY rule_id, severity ORDER BY rule_id",
      {std::string(crawl_id)},
      [](const SqlRow& r) { return SiteAuditIssueCount{r.Text(0), r.Text(1), r.Int(2), r.Int(3)}; });
}

}  // namespace sightline::storage
