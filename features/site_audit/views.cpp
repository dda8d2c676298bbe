#include "features/site_audit/views.h"

#include <boost/json/parse.hpp>

#include "site_audit/rules.h"
#include "site_audit/site_ownership.h"
#include "core/clock.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;

json::value TimeOrNull(const std::optional<std::int64_t>& millis) {
  return millis ? json::value(core::FormatRfc3339(*millis)) : json::value(nullptr);
}

json::object ParsedObject(const std::string& text) {
  boost::system::error_code ec;
  json::value parsed = json::parse(text, ec);
  return !ec && parsed.is_object() ? std::move(parsed.as_object()) : json::object();
}

// How the owner proves the site: the same token three ways (site_audit/site_ownership.h).
json::object Proofs(const storage::SiteRecord& site) {
  const std::string host_start = site.origin.substr(site.origin.find("://") + 3);
  const std::string host = host_start.substr(0, host_start.find(':'));
  return {
      {"file", json::object{{"url", site.origin + std::string(sightline::site_audit::kVerificationPath)},
                            {"content", site.token}}},
      {"meta", json::object{{"tag", "<meta name=\"" + std::string(sightline::site_audit::kVerificationName) +
                                        "\" content=\"" + site.token + "\">"}}},
      {"dns", json::object{{"name", host},
                           {"type", "TXT"},
                           {"value", std::string(sightline::site_audit::kVerificationName) + "=" + site.token}}}};
}

}  // namespace

json::object SiteView(const storage::SiteRecord& site) {
  return {{"id", site.id},
          {"origin", site.origin},
          {"token", site.token},
          {"verified", site.verified_method.has_value()},
          {"verifiedMethod", site.verified_method ? json::value(*site.verified_method)
                                                  : json::value(nullptr)},
          {"verifiedAt", TimeOrNull(site.verified_at)},
          {"checkedAt", TimeOrNull(site.checked_at)},
          {"checkProblem", site.check_problem},
          {"createdAt", core::FormatRfc3339(site.created_at)},
          {"proofs", Proofs(site)}};
}

json::object SiteAuditCrawlView(const storage::SiteAuditCrawlRecord& crawl,
                            const storage::SiteAuditPageCounts& progress) {
  json::object summary = ParsedObject(crawl.summary);
  json::value counts = summary.contains("counts") ? summary.at("counts") : json::value(nullptr);
  return {{"id", crawl.id},
          {"siteId", crawl.site_id},
          {"startUrl", crawl.start_url},
          {"status", crawl.status},
          {"limits", json::object{{"maxPages", crawl.max_pages},
                                  {"maxDepth", crawl.max_depth},
                                  {"maxDurationSeconds", crawl.max_duration_s},
                                  {"concurrency", crawl.concurrency},
                                  {"delayMs", crawl.delay_ms}}},
          {"createdAt", core::FormatRfc3339(crawl.created_at)},
          {"startedAt", TimeOrNull(crawl.started_at)},
          {"finishedAt", TimeOrNull(crawl.finished_at)},
          {"stopReason", crawl.stop_reason},
          {"error", crawl.error_message},
          {"cancelRequested", crawl.cancel_requested},
          {"previousCrawlId", crawl.previous_crawl_id ? json::value(*crawl.previous_crawl_id)
                                                      : json::value(nullptr)},
          {"progress", json::object{{"total", progress.total},
                                    {"queued", progress.queued},
                                    {"done", progress.done},
                                    {"blocked", progress.blocked},
                                    {"error", progress.error},
                                    {"skipped", progress.skipped}}},
          {"counts", std::move(counts)}};
}

json::object SiteAuditPageView(const storage::SiteAuditPageRecord& page) {
  return {{"url", page.url},
          {"depth", page.depth},
          {"source", page.source},
          {"internal", page.internal},
          {"inSitemap", page.in_sitemap},
          {"state", page.state},
          {"httpStatus", page.http_status ? json::value(*page.http_status) : json::value(nullptr)},
          {"contentType", page.content_type},
          {"bytes", page.bytes},
          {"ttfbMs", page.ttfb_ms},
          {"title", page.title},
          {"indexable", page.indexable},
          {"fetchedAt", TimeOrNull(page.fetched_at)}};
}

json::object SiteAuditLinkView(const storage::SiteAuditLinkRecord& link) {
  return {{"from", link.from_url},
          {"to", link.to_url},
          {"anchor", link.anchor},
          {"nofollow", link.nofollow}};
}

json::object SiteAuditIssueView(const storage::SiteAuditIssueRecord& issue, std::string_view state) {
  const sightline::site_audit::SiteAuditRule* rule = sightline::site_audit::FindAuditRule(issue.rule_id);
  return {{"ruleId", issue.rule_id},
          {"title", rule ? rule->title : std::string_view(issue.rule_id)},
          {"severity", issue.severity},
          {"url", issue.url},
          {"evidence", ParsedObject(issue.evidence)},
          {"state", state.empty() ? std::string_view(issue.state) : state}};
}

json::object SiteAuditPageDetails(const storage::SiteAuditPageRecord& page) {
  return ParsedObject(page.details);
}

json::object SiteAuditSummaryOf(const storage::SiteAuditCrawlRecord& crawl) {
  return ParsedObject(crawl.summary);
}

}  // namespace sightline::tools
