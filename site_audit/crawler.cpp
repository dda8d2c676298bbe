#include "site_audit/crawler.h"

#include <atomic>
#include <boost/json.hpp>
#include <map>
#include <mutex>
#include <thread>

#include "site_audit/crawl_frontier.h"
#include "site_audit/crawl_url.h"
#include "site_audit/crawl_finish.h"
#include "site_audit/page_facts.h"
#include "site_audit/site_survey.h"
#include "core/clock.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"
#include "core/json_util.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;
using core::Result;

constexpr auto kMaxHostDelay = std::chrono::milliseconds(60000);

// What the previous crawl of the site knew of a URL, for conditional requests.
struct Previous {
  storage::SiteAuditPageRecord page;
  std::vector<storage::SiteAuditLinkRecord> links;
};

bool NeedsGet(const FetchResult& head) {
  // Some servers refuse HEAD or answer it differently: those get a GET.
  return head.status == 0 || head.status == 405 || head.status == 501 || head.status >= 400;
}

}  // namespace

struct Crawler::State {
  CrawlerEnvironment env;
  storage::SiteAuditCrawlRecord crawl;
  jobs::HeldLease lease;  // renewed by the watcher only, released after it stopped
  // The lease as the watcher last renewed it, for the workers' writes to check in the store
  // (HoldsAuditCrawlLease). The watcher renews and publishes under renewal_mutex; a worker whose
  // check failed waits on it once, in case a renewal had committed and not yet been published.
  std::atomic<std::int64_t> held_until;
  std::mutex renewal_mutex;
  json::object summary;
  RobotsTxt robots;
  // External hosts' rules, by origin; AllowAll for a host that did not answer at all, whose
  // links are then checked (and found broken) rather than counted as blocked.
  std::map<std::string, RobotsTxt> other_robots;
  std::mutex robots_mutex;
  std::map<std::string, Previous> previous;
  CrawlFrontier frontier;
  std::atomic<std::int64_t> fetched_internal{0}, fetched_external{0};
  std::atomic<bool> cancelled{false}, lost{false}, failed{false};
  std::string stop_reason;
  std::string failure;
  std::mutex stop_mutex;
  std::int64_t next_seq = 1;
  std::mutex seq_mutex;

  State(CrawlerEnvironment e, storage::SiteAuditCrawlRecord c, jobs::HeldLease l)
      : env(std::move(e)),
        crawl(std::move(c)),
        lease(std::move(l)),
        held_until(lease.until()),
        frontier([this](const std::string& host) { return DelayFor(host); }) {}

  std::chrono::milliseconds DelayFor(const std::string& host) {
    auto delay = std::chrono::milliseconds(crawl.delay_ms);
    if (host == UrlAuthority(crawl.start_url)) {
      if (auto crawl_delay = robots.CrawlDelay(kAuditBotToken)) {
        delay = std::max(delay, std::chrono::milliseconds(
                                    static_cast<std::int64_t>(*crawl_delay * 1000)));
      }
    }
    return std::min(delay, kMaxHostDelay);
  }

  bool Internal(const std::string& url) const { return SameSite(url, crawl.start_url); }

  void StopWith(std::string reason) {
    std::lock_guard lock(stop_mutex);
    if (stop_reason.empty()) stop_reason = std::move(reason);
    frontier.Stop();
  }

  std::int64_t NextSeq() {
    std::lock_guard lock(seq_mutex);
    return next_seq++;
  }
};

Crawler::Crawler(CrawlerEnvironment environment, storage::SiteAuditCrawlRecord crawl,
                 jobs::HeldLease lease)
    : state_(std::make_unique<State>(std::move(environment), std::move(crawl), std::move(lease))) {}

Crawler::~Crawler() = default;

namespace {

using State = Crawler::State;  // NOLINT: the helpers below are the Crawler's own steps

Result<void> Survey(State& s, const std::function<bool()>& stop) {
  if (!s.crawl.summary.empty()) {
    auto parsed = json::parse(s.crawl.summary);
    if (parsed.is_object()) s.summary = parsed.as_object();
  }
  if (const auto* site = s.summary.if_contains("site")) {
    s.robots = RobotsOfSurvey(site->as_object());
    return {};
  }
  SiteSurvey survey =
      SurveySite(s.env.fetcher, s.env.store, s.env.clock, s.crawl.start_url, s.env.ai_crawlers,
                 stop);
  s.robots = std::move(survey.robots);
  s.summary["site"] = std::move(survey.site);
  std::vector<storage::SiteAuditPageRecord> urls;
  storage::SiteAuditPageRecord start{.crawl_id = s.crawl.id, .url = s.crawl.start_url, .seq = 1,
                                 .depth = 0, .source = "start", .state = "queued"};
  urls.push_back(start);
  std::int64_t seq = 2;
  for (const std::string& url : survey.sitemap_urls) {
    urls.push_back({.crawl_id = s.crawl.id, .url = url, .seq = seq++, .depth = -1,
                    .source = "sitemap", .in_sitemap = true, .state = "queued"});
  }
  const std::string summary = core::ToJson(s.summary);
  return s.env.store.Write([&](storage::Transaction& tx) -> Result<void> {
    auto audit = tx.site_audit();
    if (auto added = audit.AddAuditUrls(urls); !added) return added;
    if (auto marked = audit.MarkInSitemap(s.crawl.id, survey.sitemap_urls); !marked) return marked;
    return audit.SaveAuditCrawlSummary(s.crawl.id, summary);
  });
}

// Loads what the crawl already holds (a resumed crawl) and what the previous crawl fetched.
Result<void> LoadFrontier(State& s) {
  auto pages = s.env.store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().ListAllAuditPages(s.crawl.id);
  });
  if (!pages) return pages.error();
  for (storage::SiteAuditPageRecord& page : *pages) {
    s.next_seq = std::max(s.next_seq, page.seq + 1);
    if (page.state == "queued") {
      s.frontier.Push(std::move(page));
      continue;
    }
    s.frontier.MarkKnown(page.url);
    if (page.state == "done" || page.state == "error") {
      (page.internal ? s.fetched_internal : s.fetched_external)++;
    }
  }
  if (!s.crawl.previous_crawl_id) return {};
  return s.env.store.Read([&](storage::Transaction& tx) -> Result<void> {
    auto audit = tx.site_audit();
    auto old_pages = audit.ListAllAuditPages(*s.crawl.previous_crawl_id);
    if (!old_pages) return old_pages.error();
    auto old_links = audit.ListAllAuditLinks(*s.crawl.previous_crawl_id);
    if (!old_links) return old_links.error();
    for (auto& page : *old_pages) {
      if (page.state == "done" && page.internal) s.previous[page.url].page = std::move(page);
    }
    for (auto& link : *old_links) {
      auto found = s.previous.find(link.from_url);
      if (found != s.previous.end()) found->second.links.push_back(std::move(link));
    }
    return {};
  });
}

const RobotsTxt& RobotsFor(State& s, const std::string& url, const std::function<bool()>& stop) {
  const std::string origin = UrlOrigin(url);
  if (origin == UrlOrigin(s.crawl.start_url)) return s.robots;
  std::lock_guard lock(s.robots_mutex);
  auto found = s.other_robots.find(origin);
  if (found == s.other_robots.end()) {
    RobotsFetch robots = LoadRobots(s.env.fetcher, s.env.store, s.env.clock, origin, stop);
    // RFC 9309 reads an unreachable robots.txt as "disallow all"; for a link's status check
    // (one HEAD) a host that accepts no connection is simply a broken link, so it is asked.
    const bool unreachable = robots.status == 0;
    found = s.other_robots
                .emplace(origin, unreachable ? RobotsTxt::AllowAll() : std::move(robots.rules))
                .first;
  }
  return found->second;
}

PageOutcome FetchInternal(State& s, storage::SiteAuditPageRecord page,
                          const std::function<bool()>& stop) {
  FetchRequest request{.url = page.url};
  request.want_body = [](const core::OutboundResponse& head) { return IsHtml(head.headers); };
  auto previous = s.previous.find(page.url);
  if (previous != s.previous.end()) {
    request.if_none_match = previous->second.page.etag;
    request.if_modified_since = previous->second.page.last_modified;
  }
  FetchResult answer = s.env.fetcher.Fetch(request, stop);
  if (answer.status == 304 && previous != s.previous.end()) {
    // Unchanged since the previous crawl: its facts and links stand.
    PageOutcome out;
    storage::SiteAuditPageRecord old = previous->second.page;
    page.state = "done";
    page.http_status = old.http_status;
    page.content_type = old.content_type;
    page.bytes = old.bytes;
    page.ttfb_ms = answer.ttfb_ms;
    page.title = old.title;
    page.indexable = old.indexable;
    page.etag = old.etag;
    page.last_modified = old.last_modified;
    page.content_hash = old.content_hash;
    json::object details = json::parse(old.details).as_object();
    details["notModified"] = true;
    page.details = core::ToJson(details);
    for (const auto& link : previous->second.links) {
      out.found.push_back({link.to_url, "link", link.anchor, link.nofollow});
    }
    if (const auto* to = details.if_contains("redirectTo")) {
      out.found.push_back({std::string(to->as_string()), "redirect", "", false});
    }
    out.page = std::move(page);
    return out;
  }
  return DescribePage(std::move(page), answer);
}

PageOutcome CheckExternal(State& s, storage::SiteAuditPageRecord page,
                          const std::function<bool()>& stop) {
  FetchRequest request{.url = page.url, .method = core::HttpMethod::kHead};
  FetchResult answer = s.env.fetcher.Fetch(request, stop);
  if (NeedsGet(answer)) {
    request.method = core::HttpMethod::kGet;
    request.want_body = [](const core::OutboundResponse&) { return false; };
    answer = s.env.fetcher.Fetch(request, stop);
  }
  PageOutcome out = DescribePage(std::move(page), answer);
  out.found.clear();  // an external page's redirects and links are not ours to follow
  return out;
}

PageOutcome Blocked(storage::SiteAuditPageRecord page, const RobotsVerdict& verdict) {
  page.state = "blocked";
  page.details = core::ToJson(json::object{{"robotsRule", verdict.rule},
                                           {"robotsLine", verdict.line},
                                           {"robotsGroup", verdict.group}});
  return {.page = std::move(page)};
}

// What a page pointed at, to queue: internal links within the depth limit (not nofollow ones),
// redirect, canonical and hreflang targets, and every external URL for a status check. Each is
// reserved in the frontier here and pushed only once its row is stored (Process), so no worker
// fetches a URL whose row does not exist yet. A sitemap-only URL a link reaches takes the link's
// click depth (`promoted`).
struct Discovered {
  std::vector<storage::SiteAuditPageRecord> added;
  std::vector<storage::SiteAuditPageRecord> promoted;
};

Discovered Discover(State& s, const storage::SiteAuditPageRecord& from, const PageOutcome& outcome) {
  Discovered out;
  for (const FoundUrl& found : outcome.found) {
    const bool internal = s.Internal(found.url);
    const bool hop = found.kind == "redirect";
    const std::int64_t depth = from.depth < 0 ? -1 : from.depth + (hop ? 0 : 1);
    if (internal && found.kind == "link" &&
        (found.nofollow || !outcome.follow_links || depth > s.crawl.max_depth)) {
      continue;
    }
    if (!s.frontier.Reserve(found.url)) {
      if (internal && depth >= 0 && s.frontier.Promote(found.url, depth, found.kind)) {
        out.promoted.push_back({.crawl_id = s.crawl.id, .url = found.url, .depth = depth,
                                .source = found.kind});
      }
      continue;
    }
    out.added.push_back({.crawl_id = s.crawl.id, .url = found.url, .seq = s.NextSeq(),
                         .depth = depth, .source = found.kind, .internal = internal,
                         .state = "queued"});
  }
  return out;
}

std::vector<storage::SiteAuditLinkRecord> LinksOf(const State& s, const PageOutcome& outcome) {
  std::vector<storage::SiteAuditLinkRecord> links;
  for (const FoundUrl& found : outcome.found) {
    if (found.kind != "link") continue;
    links.push_back({s.crawl.id, outcome.page.url, found.url, found.anchor.substr(0, 300),
                     found.nofollow});
  }
  return links;
}

void Process(State& s, storage::SiteAuditPageRecord page, const std::function<bool()>& stop) {
  const RobotsVerdict verdict = RobotsFor(s, page.url, stop).Check(kAuditBotToken,
                                                                    UrlTarget(page.url));
  PageOutcome outcome;
  if (!verdict.allowed) {
    outcome = Blocked(std::move(page), verdict);
  } else if (page.internal) {
    outcome = FetchInternal(s, std::move(page), stop);
    s.fetched_internal++;
  } else {
    outcome = CheckExternal(s, std::move(page), stop);
    s.fetched_external++;
  }
  // A fetch the crawl's stop cut short says nothing about the page: it stays queued, for the
  // node that resumes the crawl (or is skipped when the crawl was cancelled).
  if (stop()) return;
  outcome.page.fetched_at = s.env.clock.NowMillis();
  const Discovered discovered = Discover(s, outcome.page, outcome);
  const std::vector<storage::SiteAuditLinkRecord> links = LinksOf(s, outcome);
  auto save = [&](std::int64_t held) {
    return s.env.store.Write([&](storage::Transaction& tx) -> Result<bool> {
      auto audit = tx.site_audit();
      auto still_held = audit.HoldsAuditCrawlLease(s.crawl.id, held);
      if (!still_held || !*still_held) return still_held;
      if (auto done = audit.SaveAuditPage(outcome.page); !done) return done.error();
      if (auto done = audit.AddAuditUrls(discovered.added); !done) return done.error();
      for (const auto& page : discovered.promoted) {
        if (auto done = audit.SetAuditUrlDepth(page); !done) return done.error();
      }
      if (auto done = audit.InsertAuditLinks(links); !done) return done.error();
      return true;
    });
  };
  const std::int64_t held = s.held_until;
  auto saved = save(held);
  if (saved && !*saved) {
    { std::lock_guard renewal_done(s.renewal_mutex); }
    if (const std::int64_t renewed = s.held_until; renewed != held) saved = save(renewed);
  }
  if (!saved) {
    s.failure = saved.error().message();
    s.failed = true;
    s.StopWith("store_failed");
    return;
  }
  // Another node took the crawl over (this one stalled past its lease): it is theirs to go on.
  if (!*saved) return s.StopWith("lease_lost");
  for (const auto& page : discovered.added) s.frontier.Push(page);
}

void Work(State& s, const std::function<bool()>& stop) {
  while (auto page = s.frontier.Take()) {
    const bool linked = page->depth >= 0;
    if (page->internal && s.fetched_internal >= s.crawl.max_pages) {
      s.StopWith("page_limit");
      s.frontier.Done(linked);
      break;
    }
    Process(s, std::move(*page), stop);
    s.frontier.Done(linked);
  }
}

// Renews the lease while the workers crawl, and stops them when the crawl is cancelled, its time
// is up, the lease was lost or the server is shutting down.
void Watch(State& s, const std::function<bool()>& shutting_down, std::atomic<bool>& finished) {
  const std::int64_t started = s.crawl.started_at.value_or(s.env.clock.NowMillis());
  // A renewal is also how a cancel is learnt, so it comes at least every second.
  const auto renew_every =
      std::min<std::chrono::milliseconds>(s.lease.lease().RenewEvery(), std::chrono::seconds(1));
  auto last_renewal = std::chrono::steady_clock::now();
  while (!finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (shutting_down()) return s.StopWith("shutdown");
    if (s.env.clock.NowMillis() - started > s.crawl.max_duration_s * 1000) {
      return s.StopWith("duration_limit");
    }
    if (std::chrono::steady_clock::now() - last_renewal < renew_every) continue;
    last_renewal = std::chrono::steady_clock::now();
    std::unique_lock renewing(s.renewal_mutex);
    auto renewed = s.lease.Renew();
    if (renewed && *renewed) s.held_until = s.lease.until();
    renewing.unlock();
    if (renewed && *renewed) continue;
    auto now = s.env.store.Read([&](storage::Transaction& tx) {
      return tx.site_audit().FindAuditCrawlById(s.crawl.id);
    });
    if (now && *now && (*now)->cancel_requested) return s.StopWith("cancelled");
    if (renewed) return s.StopWith("lease_lost");  // another node took it (we stalled too long)
  }
}

}  // namespace

Result<void> Crawler::Run(const std::function<bool()>& shutting_down) {
  State& s = *state_;
  auto stop = [&] { return shutting_down() || s.frontier.stopped(); };
  if (auto surveyed = Survey(s, stop); !surveyed) return surveyed;
  if (auto loaded = LoadFrontier(s); !loaded) return loaded;
  std::atomic<bool> finished{false};
  std::thread watcher([&] { Watch(s, shutting_down, finished); });
  std::vector<std::thread> workers;
  const std::int64_t count = std::clamp<std::int64_t>(s.crawl.concurrency, 1, 16);
  for (std::int64_t i = 0; i < count; ++i) workers.emplace_back([&] { Work(s, stop); });
  for (std::thread& worker : workers) worker.join();
  finished = true;
  watcher.join();
  if (s.stop_reason == "lease_lost") return {};  // the crawl is its new holder's
  if (s.stop_reason == "shutdown") {
    // Given up so that the next node resumes it at once rather than when the lease runs out.
    auto released = s.lease.Release();
    if (!released) return released.error();
    return {};
  }
  return FinishCrawl(s.env, s.crawl, s.summary, s.stop_reason, s.failure, s.lease.until());
}

}  // namespace sightline::site_audit
