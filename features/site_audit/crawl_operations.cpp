// ServiceAuditBot's crawls: start one (queued for whichever node claims it first, answered at
// once with the crawl to poll), follow and cancel it, and read what it found: pages, their
// links, the issues compared with the site's previous crawl, and the summary.
#include <algorithm>
#include <map>
#include <set>

#include "site_audit/rules.h"
#include "site_audit/crawl_url.h"
#include "core/crypto.h"
#include "jobs/job_status.h"
#include "storage/site_audit_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "features/site_audit/common.h"
#include "features/site_audit/operations.h"
#include "features/site_audit/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::Result;
using identity::Permission;
using site_audit::kCallers;
using site_audit::ProjectId;

Result<json::value> CrawlView(storage::Transaction& tx, const storage::SiteAuditCrawlRecord& crawl) {
  auto progress = tx.site_audit().CountAuditPages(crawl.id);
  if (!progress) return progress.error();
  return json::value(SiteAuditCrawlView(crawl, *progress));
}

Result<storage::SiteAuditCrawlRecord> FindCrawl(storage::Transaction& tx,
                                            const OperationContext& context,
                                            const std::string& crawl_id) {
  auto crawl = tx.site_audit().FindAuditCrawl(ProjectId(context), crawl_id);
  if (!crawl) return crawl.error();
  if (!*crawl) return NotFound("crawl");
  return std::move(**crawl);
}

// The crawl's first URL: the site's home page unless `startUrl` names another page of it.
Result<std::string> StartUrl(const storage::SiteRecord& site, const json::object& args) {
  const auto asked = OptionalString(args, "startUrl");
  if (!asked) return site.origin + "/";
  auto normalized = sightline::site_audit::NormalizeUrl(*asked);
  if (!normalized || sightline::site_audit::UrlOrigin(*normalized) != site.origin) {
    return core::Error::Invalid("startUrl", "startUrl must be a page of " + site.origin + ".");
  }
  return *normalized;
}

storage::SiteAuditCrawlRecord NewCrawl(const OperationContext& context, const json::object& args) {
  storage::SiteAuditCrawlRecord crawl;
  crawl.id = core::NewUuidV7(context.clock.NowMillis());
  crawl.project_id = ProjectId(context);
  crawl.site_id = RequiredString(args, "siteId");
  crawl.status = jobs::StatusName(jobs::JobKind::kCrawl, jobs::JobStatus::kQueued);
  crawl.max_pages = IntegerOr(args, "maxPages", 500);
  crawl.max_depth = IntegerOr(args, "maxDepth", 10);
  crawl.max_duration_s = IntegerOr(args, "maxDurationSeconds", 1800);
  crawl.concurrency = IntegerOr(args, "concurrency", 2);
  crawl.delay_ms = IntegerOr(args, "delayMs", 250);
  crawl.created_by = context.principal.user_id;
  crawl.created_at = context.clock.NowMillis();
  return crawl;
}

core::Error CrawlActive() {
  return core::Error(ErrorCode::kAuditCrawlActive,
                     "The site already has a crawl queued or running; wait for it or cancel it.");
}

// AUDIT_002 naming the site's queued or running crawl, if it has one.
Result<void> NoActiveCrawl(storage::Transaction& tx, const OperationContext& context,
                           const std::string& site_id) {
  auto active = tx.site_audit().HasActiveAuditCrawl(site_id);
  if (!active) return active.error();
  if (!*active) return {};
  core::Error error = CrawlActive();
  auto recent = tx.site_audit().ListAuditCrawls(ProjectId(context), site_id, 20, 0);
  if (!recent) return recent.error();
  for (const auto& crawl : *recent) {
    const auto status = jobs::ParseStatus(jobs::JobKind::kCrawl, crawl.status);
    if (status && !jobs::IsFinished(*status)) {
      error.mutable_details()["crawlId"] = crawl.id;
      break;
    }
  }
  return error;
}

Result<json::value> RunStartSiteCrawl(OperationContext& context, const json::object& args) {
  storage::SiteAuditCrawlRecord crawl = NewCrawl(context, args);
  AuditEntry audit{"site_audit.crawl_start", "audit_crawl", crawl.id, {}};
  json::value view;
  bool lost_race = false;
  auto started = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto site = tx.site_audit().FindAuditSite(crawl.project_id, crawl.site_id);
    if (!site) return site.error();
    if (!*site) return NotFound("site");
    if (!(*site)->verified_method) {
      core::Error error(ErrorCode::kAuditSiteNotVerified,
                        "Prove that the project owns " + (*site)->origin +
                            " (verify_audit_site) before ServiceAuditBot crawls it.");
      error.mutable_details()["siteId"] = crawl.site_id;
      return error;
    }
    auto start_url = StartUrl(**site, args);
    if (!start_url) return start_url.error();
    crawl.start_url = *start_url;
    if (auto free = NoActiveCrawl(tx, context, crawl.site_id); !free) return free;
    auto previous = tx.site_audit().FindLastCompletedCrawl(crawl.site_id, crawl.created_at + 1);
    if (!previous) return previous.error();
    if (*previous) crawl.previous_crawl_id = (*previous)->id;
    if (auto inserted = tx.site_audit().InsertAuditCrawl(crawl); !inserted) {
      // Another call inserted its crawl since the check above; the store keeps one per site.
      lost_race = inserted.error().code() == ErrorCode::kConflict;
      return inserted;
    }
    audit.details = {{"siteId", crawl.site_id}, {"startUrl", crawl.start_url}};
    auto shown = CrawlView(tx, crawl);
    if (!shown) return shown.error();
    view = std::move(*shown);
    return {};
  });
  if (!started && lost_race) {
    // The same answer as when the check saw the other crawl, read after its transaction.
    auto active = context.store.Read(
        [&](storage::Transaction& tx) { return NoActiveCrawl(tx, context, crawl.site_id); });
    if (!active) return active.error();
    return CrawlActive();  // the other crawl has ended already
  }
  if (!started) return started.error();
  return view;
}

constexpr std::string_view kCrawlList = "list_site_crawls";
constexpr std::string_view kPageList = "list_crawl_pages";
constexpr std::string_view kIssueList = "list_crawl_issues";
// A page's place in discovery order: (seq, url).
constexpr PageKeyShape kPageShape = "is";
// An issue's place, worst first: (severity rank, rule, URL).
constexpr PageKeyShape kIssueShape = "iss";

// Version 1's `offset` still works on these lists, alone or after a cursor.
Result<json::value> RunListSiteCrawls(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kCrawlList, kTimeIdShape, 20);
  if (!request) return request.error();
  std::optional<std::pair<std::int64_t, std::string>> before;
  if (request->after) before = TimeIdOf(*request->after);
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawls = tx.site_audit().ListAuditCrawls(
        ProjectId(context), OptionalString(args, "siteId").value_or(""),
        static_cast<std::int64_t>(request->limit) + 1, IntegerOr(args, "offset", 0), before);
    if (!crawls) return crawls.error();
    const auto last = TrimToPage(*crawls, request->limit, [](const storage::SiteAuditCrawlRecord& c) {
      return TimeIdKey(c.created_at, c.id);
    });
    json::array out;
    for (const auto& crawl : *crawls) {
      auto view = CrawlView(tx, crawl);
      if (!view) return view.error();
      out.push_back(std::move(*view));
    }
    json::object page{{"crawls", std::move(out)}};
    WriteNextCursor(page, kCrawlList, last);
    return json::value(std::move(page));
  });
}

Result<json::value> RunGetSiteCrawl(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawl = FindCrawl(tx, context, RequiredString(args, "crawlId"));
    if (!crawl) return crawl.error();
    return CrawlView(tx, *crawl);
  });
}

Result<json::value> RunCancelSiteCrawl(OperationContext& context, const json::object& args) {
  const std::string crawl_id = RequiredString(args, "crawlId");
  AuditEntry audit{"site_audit.crawl_cancel", "audit_crawl", crawl_id, {}};
  json::value view;
  auto cancelled = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto crawl = tx.site_audit().CancelAuditCrawl(ProjectId(context), crawl_id,
                                             context.clock.NowMillis());
    if (!crawl) return crawl.error();
    if (!*crawl) return NotFound("crawl");
    auto shown = CrawlView(tx, **crawl);
    if (!shown) return shown.error();
    view = std::move(*shown);
    return {};
  });
  if (!cancelled) return cancelled.error();
  return view;
}

Result<json::value> RunListCrawlPages(OperationContext& context, const json::object& args) {
  storage::SiteAuditRepository::PageFilter filter;
  filter.state = OptionalString(args, "state").value_or("");
  filter.internal = !OptionalBool(args, "external").value_or(false);
  filter.search = OptionalString(args, "search").value_or("");
  auto request = ReadPageArgs(args, kPageList, kPageShape, 50);
  if (!request) return request.error();
  filter.limit = static_cast<std::int64_t>(request->limit) + 1;
  filter.offset = IntegerOr(args, "offset", 0);
  if (request->after) filter.after = TimeIdOf(*request->after);
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawl = FindCrawl(tx, context, RequiredString(args, "crawlId"));
    if (!crawl) return crawl.error();
    auto pages = tx.site_audit().ListAuditPages(crawl->id, filter);
    if (!pages) return pages.error();
    const auto last = TrimToPage(*pages, request->limit, [](const storage::SiteAuditPageRecord& p) {
      return PageKey{p.seq, p.url};
    });
    json::array out;
    for (const auto& page : *pages) out.push_back(SiteAuditPageView(page));
    json::object answer{{"pages", std::move(out)}};
    WriteNextCursor(answer, kPageList, last);
    return json::value(std::move(answer));
  });
}

template <typename Records, typename View>
json::array ViewsOf(const Records& records, View view) {
  json::array out;
  for (const auto& record : records) out.push_back(view(record));
  return out;
}

Result<json::value> RunGetCrawlPage(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawl = FindCrawl(tx, context, RequiredString(args, "crawlId"));
    if (!crawl) return crawl.error();
    const std::string asked = RequiredString(args, "url");
    const std::string url = sightline::site_audit::NormalizeUrl(asked).value_or(asked);
    auto audit = tx.site_audit();
    auto page = audit.FindAuditPage(crawl->id, url);
    if (!page) return page.error();
    if (!*page) return NotFound("page");
    storage::SiteAuditRepository::IssueFilter filter;
    filter.url = url;
    filter.limit = 500;
    auto issues = audit.ListAuditIssues(crawl->id, filter);
    if (!issues) return issues.error();
    auto inlinks = audit.ListAuditLinksTo(crawl->id, url, 200);
    if (!inlinks) return inlinks.error();
    auto outlinks = audit.ListAuditLinksFrom(crawl->id, url);
    if (!outlinks) return outlinks.error();
    json::object view = SiteAuditPageView(**page);
    view["details"] = SiteAuditPageDetails(**page);
    view["issues"] = ViewsOf(*issues, [](const auto& i) { return SiteAuditIssueView(i); });
    view["inlinks"] = ViewsOf(*inlinks, SiteAuditLinkView);
    view["outlinks"] = ViewsOf(*outlinks, SiteAuditLinkView);
    return json::value(std::move(view));
  });
}

// Issues of the previous crawl that this one no longer has: fixed since.
Result<std::vector<storage::SiteAuditIssueRecord>> FixedIssues(storage::Transaction& tx,
                                                           const storage::SiteAuditCrawlRecord& crawl) {
  if (!crawl.previous_crawl_id ||
      !jobs::HasStatus(jobs::JobKind::kCrawl, crawl.status, jobs::JobStatus::kCompleted)) {
    return std::vector<storage::SiteAuditIssueRecord>();
  }
  auto before = tx.site_audit().ListAllAuditIssues(*crawl.previous_crawl_id);
  if (!before) return before.error();
  auto now = tx.site_audit().ListAllAuditIssues(crawl.id);
  if (!now) return now.error();
  std::set<std::pair<std::string, std::string>> current;
  for (const auto& issue : *now) current.emplace(issue.rule_id, issue.url);
  std::vector<storage::SiteAuditIssueRecord> fixed;
  for (auto& issue : *before) {
    if (!current.count({issue.rule_id, issue.url})) fixed.push_back(std::move(issue));
  }
  return fixed;
}

bool Matches(const storage::SiteAuditIssueRecord& issue,
             const storage::SiteAuditRepository::IssueFilter& filter) {
  return (filter.rule_id.empty() || issue.rule_id == filter.rule_id) &&
         (filter.severity.empty() || issue.severity == filter.severity) &&
         (filter.url.empty() || issue.url == filter.url);
}

int SeverityRank(std::string_view severity) {
  return severity == "error" ? 0 : severity == "warning" ? 1 : 2;
}

PageKey IssueKey(const storage::SiteAuditIssueRecord& issue) {
  return PageKey{SeverityRank(issue.severity), issue.rule_id, issue.url};
}

// The fixed issues are the previous crawl's, read whole and paged here like the others.
Result<std::optional<PageKey>> FixedIssuesPage(storage::Transaction& tx,
                                               const storage::SiteAuditCrawlRecord& crawl,
                                               const storage::SiteAuditRepository::IssueFilter& filter,
                                               const PageRequest& request, json::array& out) {
  auto fixed = FixedIssues(tx, crawl);
  if (!fixed) return fixed.error();
  std::erase_if(*fixed, [&](const auto& issue) { return !Matches(issue, filter); });
  PageRequest shifted = request;
  shifted.limit = request.limit + static_cast<std::size_t>(filter.offset);
  auto last = PageInMemory(*fixed, shifted, PageOrder::kAscending, IssueKey);
  const auto skip = std::min(fixed->size(), static_cast<std::size_t>(filter.offset));
  fixed->erase(fixed->begin(), fixed->begin() + static_cast<std::ptrdiff_t>(skip));
  for (const auto& issue : *fixed) out.push_back(SiteAuditIssueView(issue, "fixed"));
  return last;
}

Result<json::value> RunListCrawlIssues(OperationContext& context, const json::object& args) {
  storage::SiteAuditRepository::IssueFilter filter;
  filter.rule_id = OptionalString(args, "ruleId").value_or("");
  filter.severity = OptionalString(args, "severity").value_or("");
  filter.url = OptionalString(args, "url").value_or("");
  filter.state = OptionalString(args, "state").value_or("");
  auto request = ReadPageArgs(args, kIssueList, kIssueShape, 100);
  if (!request) return request.error();
  filter.limit = static_cast<std::int64_t>(request->limit) + 1;
  filter.offset = IntegerOr(args, "offset", 0);
  if (request->after) {
    const PageKey& key = *request->after;
    filter.after = {key.at(0).as_int64(), std::string(key.at(1).as_string()),
                    std::string(key.at(2).as_string())};
  }
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawl = FindCrawl(tx, context, RequiredString(args, "crawlId"));
    if (!crawl) return crawl.error();
    json::array out;
    std::optional<PageKey> last;
    if (filter.state == "fixed") {
      auto fixed_last = FixedIssuesPage(tx, *crawl, filter, *request, out);
      if (!fixed_last) return fixed_last.error();
      last = std::move(*fixed_last);
    } else {
      auto issues = tx.site_audit().ListAuditIssues(crawl->id, filter);
      if (!issues) return issues.error();
      last = TrimToPage(*issues, request->limit, IssueKey);
      for (const auto& issue : *issues) out.push_back(SiteAuditIssueView(issue));
    }
    json::object page{{"issues", std::move(out)}};
    WriteNextCursor(page, kIssueList, last);
    return json::value(std::move(page));
  });
}

// One line per rule with issues in this crawl or fixed since the previous one, worst first.
Result<json::array> RuleLines(storage::Transaction& tx, const storage::SiteAuditCrawlRecord& crawl) {
  auto counts = tx.site_audit().CountAuditIssues(crawl.id);
  if (!counts) return counts.error();
  auto fixed = FixedIssues(tx, crawl);
  if (!fixed) return fixed.error();
  std::map<std::string, std::int64_t> fixed_by_rule;
  for (const auto& issue : *fixed) ++fixed_by_rule[issue.rule_id];
  std::vector<json::object> lines;
  auto line = [&](const std::string& id, std::string_view severity, std::int64_t count,
                  std::int64_t fresh) {
    const sightline::site_audit::SiteAuditRule* rule = sightline::site_audit::FindAuditRule(id);
    lines.push_back({{"ruleId", id},
                     {"title", rule ? rule->title : std::string_view(id)},
                     {"category", rule ? rule->category : std::string_view()},
                     {"severity", severity},
                     {"count", count},
                     {"new", fresh},
                     {"fixed", fixed_by_rule.count(id) ? fixed_by_rule.at(id) : 0}});
  };
  for (const auto& count : *counts) {
    line(count.rule_id, count.severity, count.count, count.new_count);
    fixed_by_rule.erase(count.rule_id);
  }
  for (const auto& [id, n] : std::map(fixed_by_rule)) {
    const sightline::site_audit::SiteAuditRule* rule = sightline::site_audit::FindAuditRule(id);
    line(id, rule ? rule->severity : "notice", 0, 0);
  }
  std::stable_sort(lines.begin(), lines.end(), [](const json::object& a, const json::object& b) {
    const int ra = SeverityRank(a.at("severity").as_string());
    const int rb = SeverityRank(b.at("severity").as_string());
    if (ra != rb) return ra < rb;
    return a.at("count").as_int64() > b.at("count").as_int64();
  });
  json::array out;
  for (auto& l : lines) out.push_back(std::move(l));
  return out;
}

Result<json::value> RunGetSiteAuditSummary(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto crawl = FindCrawl(tx, context, RequiredString(args, "crawlId"));
    if (!crawl) return crawl.error();
    auto view = CrawlView(tx, *crawl);
    if (!view) return view.error();
    auto rules = RuleLines(tx, *crawl);
    if (!rules) return rules.error();
    json::object summary = SiteAuditSummaryOf(*crawl);
    json::value site = summary.contains("site") ? summary.at("site") : json::object();
    auto sites = tx.site_audit().FindAuditSite(ProjectId(context), crawl->site_id);
    if (!sites) return sites.error();
    return json::value(json::object{
        {"crawl", std::move(*view)},
        {"origin", *sites ? json::value((*sites)->origin) : json::value(nullptr)},
        {"site", std::move(site)},
        {"rules", std::move(*rules)}});
  });
}

constexpr LongRunning kCrawlJob{"get_site_crawl", "crawlId", "cancel_site_crawl"};

#define CRAWLS_PATH "/{orgSlug}/projects/{projectId}/site-audit/crawls"

}  // namespace

const OperationSpec kStartSiteCrawl{
    .name = "start_site_crawl",
    .summary = "Start a site-audit crawl",
    .description =
        "Queues a crawl of a proven site by ServiceAuditBot and answers at once with it (202); "
        "poll `get_site_crawl` for progress (over MCP it may run as a task). The crawl reads "
        "robots.txt, sitemaps and llms.txt, then the pages breadth-first from `startUrl` (the "
        "home page by default) within the limits, and runs every check, comparing with the "
        "site's previous crawl. 409 AUDIT_001 for a site not proven, AUDIT_002 when one is "
        "already queued or running (`details.crawlId`).",
    .tag = "Site audit",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/site-audit/sites/{siteId}/crawls",
    .permission = Permission::kSiteAuditManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 202,
    .error_statuses = "409",
    .long_running = &kCrawlJob,
    .run = RunStartSiteCrawl,
};

const OperationSpec kListSiteCrawls{
    .name = "list_site_crawls",
    .summary = "List site-audit crawls",
    .description = "Newest first, each with its progress and issue counts; only the site's "
                   "when `siteId` is given.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH,
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListSiteCrawls,
};

const OperationSpec kGetSiteCrawl{
    .name = "get_site_crawl",
    .summary = "A site-audit crawl's progress",
    .description = "Its status, limits, pages done so far, and once finished its issue counts "
                   "(new, still open and fixed since the previous crawl).",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH "/{crawlId}",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetSiteCrawl,
};

const OperationSpec kCancelSiteCrawl{
    .name = "cancel_site_crawl",
    .summary = "Cancel a site-audit crawl",
    .description = "A queued crawl is cancelled at once; a running one stops after the pages "
                   "it is fetching and keeps what it found. A finished crawl stays as it was.",
    .tag = "Site audit",
    .method = core::HttpMethod::kPost,
    .path = CRAWLS_PATH "/{crawlId}/cancel",
    .permission = Permission::kSiteAuditManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .run = RunCancelSiteCrawl,
};

const OperationSpec kListCrawlPages{
    .name = "list_crawl_pages",
    .summary = "The pages of a crawl",
    .description = "The URLs the crawl met, in discovery order: status, depth, title, whether "
                   "indexable and in the sitemap. `state`: queued, done, blocked (robots.txt), "
                   "error, skipped; `external` lists the external links checked instead.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH "/{crawlId}/pages",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListCrawlPages,
};

const OperationSpec kGetCrawlPage{
    .name = "get_crawl_page",
    .summary = "One page of a crawl",
    .description = "The page with everything the crawl read of it (`details`: canonicals, "
                   "robots directives, titles, headings, hreflang, images, structured data, "
                   "redirects…), its issues, the links to it and from it.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH "/{crawlId}/page",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetCrawlPage,
};

const OperationSpec kListCrawlIssues{
    .name = "list_crawl_issues",
    .summary = "The issues a crawl found",
    .description = "Each with its rule, severity, URL and evidence, worst first. `state`: new "
                   "(not in the previous crawl), open (in both), fixed (in the previous crawl "
                   "only).",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH "/{crawlId}/issues",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListCrawlIssues,
};

const OperationSpec kGetSiteAuditSummary{
    .name = "get_site_audit_summary",
    .summary = "A crawl's audit summary",
    .description = "The crawl, what it read of the site (robots.txt with each AI crawler's "
                   "verdict and AI-usage lines, sitemaps, llms.txt, HTTPS) and one line per "
                   "check with issues: count, new and fixed since the previous crawl.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = CRAWLS_PATH "/{crawlId}/summary",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetSiteAuditSummary,
};

}  // namespace sightline::tools
