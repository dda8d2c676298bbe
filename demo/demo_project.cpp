#include "demo/demo_project.h"

#include "core/crypto.h"
#include "demo/sample_site.h"
#include "detection/bot_catalog.h"
#include "jobs/job_status.h"
#include "jobs/lease.h"
#include "site_audit/crawl_leases.h"
#include "site_audit/crawler.h"
#include "site_audit/page_fetcher.h"
#include "site_audit/site_audit_service.h"
#include "site_audit/site_ownership.h"
#include "storage/account_repository.h"
#include "storage/event_repository.h"
#include "storage/site_audit_repository.h"

namespace sightline::demo {
namespace {

using core::Result;

Result<bool> HasEvents(storage::Store& store, const std::string& project_id) {
  storage::EventQuery query;
  query.project_id = project_id;
  query.limit = 1;
  auto events = store.Read([&](storage::Transaction& tx) { return tx.events().ListEvents(query); });
  if (!events) return events.error();
  return !events->empty();
}

// The sample site as an audit site whose ownership file is in place, and a crawl of it.
Result<storage::SiteAuditCrawlRecord> QueueCrawl(storage::Store& store, const std::string& project_id,
                                                 const std::string& user_id, std::int64_t now,
                                                 const std::string& token) {
  storage::SiteRecord site;
  site.id = core::NewUuidV7(now);
  site.project_id = project_id;
  site.origin = std::string(kSampleOrigin);
  site.token = token;
  site.verified_method = "file";  // the sample site serves the token at kVerificationPath
  site.verified_at = site.checked_at = now;
  site.created_by = user_id;
  site.created_at = now;
  storage::SiteAuditCrawlRecord crawl;
  crawl.id = core::NewUuidV7(now);
  crawl.project_id = project_id;
  crawl.site_id = site.id;
  crawl.start_url = std::string(kSampleOrigin) + "/";
  crawl.status = jobs::StatusName(jobs::JobKind::kCrawl, jobs::JobStatus::kQueued);
  crawl.max_pages = 200;
  crawl.max_depth = 10;
  crawl.max_duration_s = 300;
  crawl.concurrency = 2;
  crawl.created_by = user_id;
  crawl.created_at = now;
  auto written = store.Write([&](storage::Transaction& tx) -> Result<void> {
    if (auto added = tx.site_audit().InsertAuditSite(site); !added) return added;
    return tx.site_audit().InsertAuditCrawl(crawl);
  });
  if (!written) return written.error();
  return crawl;
}

// Runs the crawl on this thread with the crawler every node runs, reading the sample site.
Result<std::int64_t> CrawlSampleSite(storage::Store& store, const core::Clock& clock,
                                     const std::string& project_id, const std::string& user_id) {
  const std::string token = site_audit::NewVerificationToken();
  auto crawl = QueueCrawl(store, project_id, user_id, clock.NowMillis(), token);
  if (!crawl) return crawl.error();
  site_audit::CrawlLeases leases(store);
  auto lease = jobs::HeldLease::Claim(leases, jobs::Lease(std::chrono::minutes(5)), clock, crawl->id);
  if (!lease) return lease.error();
  if (!*lease) return core::Error::Internal("demo: the sample site's crawl was claimed elsewhere");
  SampleSite site(token);
  // Unsigned: the sample site is in this process, and no one else reads these requests.
  const site_audit::PageFetcher fetcher(site, nullptr,
                                        site_audit::ServiceAuditBotUserAgent("http://localhost"),
                                        {.public_only = false});
  site_audit::Crawler crawler(
      {store, fetcher, clock, site_audit::AiCrawlersOf(detection::BotCatalog::Builtin())}, *crawl,
      std::move(**lease));
  if (auto ran = crawler.Run([] { return false; }); !ran) return ran.error();
  auto pages = store.Read(
      [&](storage::Transaction& tx) { return tx.site_audit().CountAuditPages(crawl->id); });
  if (!pages) return pages.error();
  return pages->done;
}

}  // namespace

Result<DemoResult> CreateDemoProject(storage::Store& store, const core::Clock& clock,
                                     const DemoRequest& request) {
  DemoResult out;
  auto keys = identity::Bootstrap(store, clock,
                                  {request.email, "", request.organization_name, request.project_name});
  if (!keys) return keys.error();
  out.keys = std::move(*keys);
  auto has_events = HasEvents(store, out.keys.project_id);
  if (!has_events) return has_events.error();
  if (*has_events) return out;
  auto project = store.Read(
      [&](storage::Transaction& tx) { return tx.accounts().FindProject(out.keys.project_id); });
  if (!project) return project.error();
  if (!*project) return core::Error::Internal("demo: the project just made is gone");
  const std::int64_t now = clock.NowMillis();
  auto traffic = GenerateTraffic(store, **project, {.end_ms = now, .days = request.days});
  if (!traffic) return traffic.error();
  out.traffic = *traffic;
  auto answers = GenerateAnswers(store, **project, out.keys.user_id, now);
  if (!answers) return answers.error();
  out.answers = *answers;
  auto pages = CrawlSampleSite(store, clock, out.keys.project_id, out.keys.user_id);
  if (!pages) return pages.error();
  out.crawled_pages = *pages;
  out.generated = true;
  return out;
}

}  // namespace sightline::demo
