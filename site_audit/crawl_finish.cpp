#include "site_audit/crawl_finish.h"

#include <boost/json.hpp>
#include <map>
#include <set>

#include "site_audit/rules.h"
#include "site_audit/checks.h"
#include "core/clock.h"
#include "jobs/job_status.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"
#include "core/json_util.h"
#include "core/logging.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;
using core::Result;

Result<std::vector<storage::SiteAuditIssueRecord>> Findings(const CrawlerEnvironment& env,
                                                        const storage::SiteAuditCrawlRecord& crawl,
                                                        const json::object& summary) {
  auto pages = env.store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().ListAllAuditPages(crawl.id);
  });
  if (!pages) return pages.error();
  auto links = env.store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().ListAllAuditLinks(crawl.id);
  });
  if (!links) return links.error();
  static const json::object kNoSite;
  const json::object* site = summary.if_contains("site") ? &summary.at("site").as_object()
                                                           : &kNoSite;
  std::vector<storage::SiteAuditIssueRecord> issues;
  std::map<std::pair<std::string, std::string>, int> seen;
  for (Finding& finding : RunChecks({*pages, *links, *site, crawl.start_url})) {
    // A rule found several times site-wide (AI-usage contradictions) keeps each, numbered.
    const int repeat = seen[{finding.rule_id, finding.url}]++;
    if (repeat > 0) finding.url += "#" + std::to_string(repeat + 1);
    const SiteAuditRule* rule = FindAuditRule(finding.rule_id);
    issues.push_back({crawl.id, crawl.project_id, finding.rule_id, finding.url,
                      rule ? std::string(rule->severity) : "notice",
                      core::ToJson(finding.evidence), "new"});
  }
  return issues;
}

json::object Counts(const std::vector<storage::SiteAuditIssueRecord>& issues,
                    std::size_t previous_total, std::size_t open,
                    const storage::SiteAuditPageCounts& pages) {
  json::object by_severity{{"error", 0}, {"warning", 0}, {"notice", 0}};
  std::int64_t fresh = 0;
  for (const auto& issue : issues) {
    by_severity[issue.severity] = by_severity[issue.severity].as_int64() + 1;
    fresh += issue.state == "new";
  }
  return {{"issues", issues.size()},
          {"bySeverity", std::move(by_severity)},
          {"new", fresh},
          {"open", open},
          {"fixed", previous_total - open},
          {"pages", json::object{{"total", pages.total}, {"done", pages.done},
                                 {"blocked", pages.blocked}, {"error", pages.error},
                                 {"skipped", pages.skipped}}}};
}

// The checks of a big crawl can outlast its lease: another node that took the crawl over in the
// meantime finishes it, and this one writes nothing.
Result<void> TakenOver(const storage::SiteAuditCrawlRecord& crawl) {
  core::Log(core::LogLevel::kInfo, "site audit: crawl taken over by another node before it ended",
            {{"crawlId", crawl.id}});
  return {};
}

}  // namespace

std::vector<storage::SiteAuditIssueRecord> CompareWithPrevious(
    std::vector<storage::SiteAuditIssueRecord> current,
    const std::vector<storage::SiteAuditIssueRecord>& previous) {
  std::set<std::pair<std::string, std::string>> before;
  for (const auto& issue : previous) before.emplace(issue.rule_id, issue.url);
  for (auto& issue : current) {
    issue.state = before.count({issue.rule_id, issue.url}) ? "open" : "new";
  }
  return current;
}

Result<void> FinishCrawl(const CrawlerEnvironment& env, storage::SiteAuditCrawlRecord crawl,
                         json::object summary, const std::string& stop_reason,
                         const std::string& failure, std::int64_t held) {
  auto skipped = env.store.Write([&](storage::Transaction& tx) -> Result<bool> {
    auto still_held = tx.site_audit().HoldsAuditCrawlLease(crawl.id, held);
    if (!still_held || !*still_held) return still_held;
    if (auto done = tx.site_audit().SkipQueuedAuditUrls(crawl.id); !done) return done.error();
    return true;
  });
  if (!skipped) return skipped.error();
  if (!*skipped) return TakenOver(crawl);
  auto issues = Findings(env, crawl, summary);
  if (!issues) return issues.error();
  std::vector<storage::SiteAuditIssueRecord> previous;
  if (crawl.previous_crawl_id) {
    auto old = env.store.Read([&](storage::Transaction& tx) {
      return tx.site_audit().ListAllAuditIssues(*crawl.previous_crawl_id);
    });
    if (!old) return old.error();
    previous = std::move(*old);
  }
  *issues = CompareWithPrevious(std::move(*issues), previous);
  const auto open = static_cast<std::size_t>(std::count_if(
      issues->begin(), issues->end(), [](const auto& i) { return i.state == "open"; }));
  auto pages = env.store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().CountAuditPages(crawl.id);
  });
  if (!pages) return pages.error();
  summary["counts"] = Counts(*issues, previous.size(), open, *pages);
  const jobs::JobStatus status = stop_reason == "cancelled"      ? jobs::JobStatus::kCancelled
                                 : stop_reason == "store_failed" ? jobs::JobStatus::kFailed
                                                                 : jobs::JobStatus::kCompleted;
  crawl.status = jobs::StatusName(jobs::JobKind::kCrawl, status);
  crawl.stop_reason = stop_reason == "cancelled" || stop_reason == "store_failed" ? "" : stop_reason;
  crawl.error_message = failure;
  crawl.summary = core::ToJson(summary);
  crawl.finished_at = env.clock.NowMillis();
  auto finished = env.store.Write([&](storage::Transaction& tx) -> Result<bool> {
    auto audit = tx.site_audit();
    auto still_held = audit.HoldsAuditCrawlLease(crawl.id, held);  // locks the crawl first
    if (!still_held || !*still_held) return still_held;
    if (auto replaced = audit.ReplaceAuditIssues(crawl.id, *issues); !replaced) {
      return replaced.error();
    }
    return audit.FinishAuditCrawl(crawl, held);
  });
  if (!finished) return finished.error();
  if (!*finished) return TakenOver(crawl);
  return {};
}

}  // namespace sightline::site_audit
