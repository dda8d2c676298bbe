// Crawl throughput of the site audit (issue 24): ServiceAuditBot crawling a generated site of N
// pages served on 127.0.0.1 by an in-process HTTP/1.1 server (bench/loopback_site.h), end to
// end — the site survey (robots.txt, sitemap, llms.txt), every page fetched with the real
// transport (net BeastHttpClient) and signed (Web Bot Auth), parsed, its facts, URLs
// and links stored in an SQLite store in a temporary directory, the external links HEAD-checked,
// then the finish step (the checks over every stored page and link, the issues written).
//
// The reference, measured in the same run with the same HttpClient, PageFetcher (same signer,
// same limits) and concurrency: the same N pages fetched and nothing else (no parsing, store,
// frontier or checks). The ratio crawl / fetch-only is the share of the bare fetching rate the
// whole audit keeps. Also measured: the process's CPU time a page in both passes (every thread:
// crawler, transport, the site's server), DescribePage alone over the N bodies (HTML parse and
// facts, one thread, no network) and the finish step run again alone on the finished crawl.
//
// The site's server runs in this process and shares the machine's cores with the crawler; it
// costs the same in both passes.
//
// Usage: build/bench/crawl_bench [--pages N (2000)] [--runs R (3)] [--concurrency 1,2,4]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "net/http_client.h"
#include "site_audit/crawl_finish.h"
#include "site_audit/crawl_leases.h"
#include "site_audit/crawler.h"
#include "site_audit/crawler_keys.h"
#include "site_audit/page_facts.h"
#include "site_audit/page_fetcher.h"
#include "site_audit/request_signer.h"
#include "site_audit/site_audit_service.h"
#include "core/clock.h"
#include "detection/bot_catalog.h"
#include "jobs/lease.h"
#include "loopback_site.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"

namespace {

using namespace sightline;
namespace json = boost::json;
using Steady = std::chrono::steady_clock;

constexpr char kPublicUrl[] = "https://sightline.example.com";

double SecondsSince(Steady::time_point start) {
  return std::chrono::duration<double>(Steady::now() - start).count();
}

// CPU time of the whole process (every thread: crawler, transport, the site's server), seconds.
double ProcessCpuSeconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

// A migrated SQLite store in a fresh temporary directory, removed with it.
class TempStore {
 public:
  TempStore() {
    std::string pattern = (std::filesystem::temp_directory_path() / "crawl_bench.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return;
    dir_ = pattern;
    auto opened = storage::OpenStore({.sqlite_path = dir_ + "/sightline.db"});
    if (opened && (*opened)->Migrate()) store_ = std::move(*opened);
  }
  ~TempStore() {
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  storage::Store* get() { return store_.get(); }

 private:
  std::string dir_;
  std::unique_ptr<storage::Store> store_;
};

struct FetchFigures {
  double seconds = 0;
  double cpu_seconds = 0;     // the process's, over the pass
  std::int64_t failures = 0;  // not 200 with a body
};

// The reference: `urls` fetched by `concurrency` threads as the crawler fetches a page (GET,
// the body read only when it is HTML), nothing else done with the answers.
FetchFigures FetchOnly(const site_audit::PageFetcher& fetcher, const std::vector<std::string>& urls,
                       int concurrency) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::int64_t> failures{0};
  const double cpu = ProcessCpuSeconds();
  const auto started = Steady::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < concurrency; ++t) {
    threads.emplace_back([&] {
      for (std::size_t i; (i = next++) < urls.size();) {
        site_audit::FetchRequest request{.url = urls[i]};
        request.want_body = [](const core::OutboundResponse& head) {
          return site_audit::IsHtml(head.headers);
        };
        const site_audit::FetchResult answer = fetcher.Fetch(request, [] { return false; });
        if (answer.status != 200 || answer.body.empty()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const double seconds = SecondsSince(started);
  return {seconds, ProcessCpuSeconds() - cpu, failures};
}

// DescribePage over every page body, one thread, no network: the HTML parse and facts alone.
double DescribeOnly(const bench::LoopbackSite& site) {
  site_audit::FetchResult answer{.status = 200};
  answer.headers.Set("Content-Type", "text/html; charset=utf-8");
  const auto started = Steady::now();
  std::size_t found = 0;
  for (std::size_t i = 0; i < site.page_urls.size(); ++i) {
    answer.body = site.page_html[i];
    storage::SiteAuditPageRecord page{.crawl_id = "c",
                                  .url = site.page_urls[i],
                                  .seq = 1,
                                  .depth = -1,
                                  .source = "sitemap",
                                  .state = "queued"};
    found += site_audit::DescribePage(std::move(page), answer).found.size();
  }
  const double seconds = SecondsSince(started);
  if (found == 0) std::fprintf(stderr, "crawl_bench: DescribePage found no links\n");
  return seconds;
}

struct CrawlFigures {
  double seconds = 0;           // Crawler::Run: survey, pages, finish
  double cpu_seconds = 0;       // the process's, over Crawler::Run
  double until_first_page = 0;  // from the start of Run to the first URL stored: the survey
  double until_last_page = 0;   // from the start of Run to the last URL stored
  double finish_alone = 0;      // FinishCrawl again on the finished crawl, timed alone
  std::int64_t internal_done = 0, external_done = 0, links = 0, issues = 0;
  std::int64_t requests = 0, pages_fetched_twice = 0;
  std::string status;
  std::vector<std::string> not_done;  // the first internal URLs not fetched, with their state
};

// Inserts the verified site and its crawl (queued: Crawl claims it, as the runner would).
std::optional<storage::SiteAuditCrawlRecord> QueueCrawl(storage::Store& store,
                                                    const bench::LoopbackSite& site,
                                                    int concurrency, std::int64_t now) {
  const storage::SiteRecord audit_site{.id = "bench-site",
                                            .project_id = "bench-project",
                                            .origin = site.origin,
                                            .token = "sl-bench",
                                            .verified_method = "file",
                                            .verified_at = now,
                                            .checked_at = now,
                                            .created_at = now};
  storage::SiteAuditCrawlRecord crawl;
  crawl.id = "bench-crawl";
  crawl.project_id = audit_site.project_id;
  crawl.site_id = audit_site.id;
  crawl.start_url = site.page_urls.front();
  crawl.status = "queued";
  crawl.max_pages = static_cast<std::int64_t>(site.page_urls.size());
  crawl.max_depth = 50;
  crawl.max_duration_s = 3600;
  crawl.concurrency = concurrency;
  crawl.delay_ms = 0;
  crawl.created_at = now;
  crawl.summary = "{}";
  auto queued = store.Write([&](storage::Transaction& tx) -> core::Result<void> {
    if (auto added = tx.site_audit().InsertAuditSite(audit_site); !added) return added;
    return tx.site_audit().InsertAuditCrawl(crawl);
  });
  if (!queued) return std::nullopt;
  auto found =
      store.Read([&](storage::Transaction& tx) { return tx.site_audit().FindAuditCrawlById(crawl.id); });
  if (!found || !*found) return std::nullopt;
  return **found;
}

// A second crawl holding the finished one's pages and links, claimed as a node would: the finish
// step runs again alone on it (the finished crawl's lease is nobody's, so FinishCrawl would
// write nothing there). Its id and the lease held.
std::optional<std::pair<storage::SiteAuditCrawlRecord, std::int64_t>> CopyToFinishAgain(
    const site_audit::CrawlerEnvironment& env, storage::SiteAuditCrawlRecord crawl,
    std::vector<storage::SiteAuditPageRecord> pages,
    std::vector<storage::SiteAuditLinkRecord> links) {
  crawl.id += "-again";
  crawl.status = "queued";
  crawl.lease_until = 0;
  crawl.finished_at.reset();
  for (auto& page : pages) page.crawl_id = crawl.id;
  for (auto& link : links) link.crawl_id = crawl.id;
  auto copied = env.store.Write([&](storage::Transaction& tx) -> core::Result<void> {
    auto audit = tx.site_audit();
    if (auto done = audit.InsertAuditCrawl(crawl); !done) return done;
    if (auto done = audit.AddAuditUrls(pages); !done) return done;
    for (const auto& page : pages) {
      if (auto done = audit.SaveAuditPage(page); !done) return done;
    }
    return audit.InsertAuditLinks(links);
  });
  if (!copied) return std::nullopt;
  site_audit::CrawlLeases leases(env.store);
  auto lease = jobs::HeldLease::Claim(leases, jobs::Lease(std::chrono::minutes(10)), env.clock,
                                      crawl.id);
  if (!lease || !*lease) return std::nullopt;
  crawl.status = "running";
  return std::make_pair(std::move(crawl), (*lease)->until());
}

// What the finished crawl holds, and the finish step run again alone.
bool Inspect(const site_audit::CrawlerEnvironment& env, std::int64_t started_ms, CrawlFigures& out) {
  storage::Store& store = env.store;
  auto crawl = store.Read(
      [](storage::Transaction& tx) { return tx.site_audit().FindAuditCrawlById("bench-crawl"); });
  auto pages = store.Read(
      [](storage::Transaction& tx) { return tx.site_audit().ListAllAuditPages("bench-crawl"); });
  auto links = store.Read(
      [](storage::Transaction& tx) { return tx.site_audit().ListAllAuditLinks("bench-crawl"); });
  auto issues = store.Read(
      [](storage::Transaction& tx) { return tx.site_audit().ListAllAuditIssues("bench-crawl"); });
  if (!crawl || !*crawl || !pages || !links || !issues) return false;
  std::int64_t first = INT64_MAX, last = started_ms;
  for (const storage::SiteAuditPageRecord& page : *pages) {
    if (page.state != "done") {
      if (page.internal && out.not_done.size() < 3)
        out.not_done.push_back(page.url + " " + page.state);
      continue;
    }
    (page.internal ? out.internal_done : out.external_done)++;
    first = std::min(first, page.fetched_at.value_or(INT64_MAX));
    last = std::max(last, page.fetched_at.value_or(0));
  }
  out.until_first_page = static_cast<double>(first - started_ms) / 1000;
  out.until_last_page = static_cast<double>(last - started_ms) / 1000;
  out.links = static_cast<std::int64_t>(links->size());
  out.issues = static_cast<std::int64_t>(issues->size());
  out.status = (*crawl)->status;
  json::object summary = json::parse((*crawl)->summary).as_object();
  summary.erase("counts");
  auto again = CopyToFinishAgain(env, **crawl, std::move(*pages), std::move(*links));
  if (!again) return false;
  const auto started = Steady::now();
  auto finished = site_audit::FinishCrawl(env, again->first, std::move(summary),
                                          (*crawl)->stop_reason, "", again->second);
  out.finish_alone = SecondsSince(started);
  return static_cast<bool>(finished);
}

std::optional<CrawlFigures> Crawl(storage::Store& store, const site_audit::PageFetcher& fetcher,
                                  const bench::LoopbackSite& site, bench::LoopbackServer& server,
                                  const std::vector<site_audit::AiCrawler>& ai_crawlers,
                                  int concurrency) {
  const core::SystemClock clock;
  auto crawl = QueueCrawl(store, site, concurrency, clock.NowMillis());
  if (!crawl) return std::nullopt;
  site_audit::CrawlLeases leases(store);
  auto lease =
      jobs::HeldLease::Claim(leases, jobs::Lease(std::chrono::minutes(1)), clock, crawl->id);
  if (!lease || !*lease) return std::nullopt;
  const site_audit::CrawlerEnvironment env{store, fetcher, clock, ai_crawlers};
  CrawlFigures out;
  server.ResetCounts();
  const std::int64_t started_ms = clock.NowMillis();
  const double cpu = ProcessCpuSeconds();
  const auto started = Steady::now();
  site_audit::Crawler crawler(env, *crawl, std::move(**lease));
  if (!crawler.Run([] { return false; })) return std::nullopt;
  out.seconds = SecondsSince(started);
  out.cpu_seconds = ProcessCpuSeconds() - cpu;
  out.requests = server.requests();
  out.pages_fetched_twice = server.pages_fetched_twice();
  if (!Inspect(env, started_ms, out)) return std::nullopt;
  return out;
}

struct Pass {
  FetchFigures fetch;
  CrawlFigures crawl;
};

// One reference pass and one crawl at `concurrency`, on a fresh store with a fresh key.
std::optional<Pass> RunPass(const bench::LoopbackSite& site, bench::LoopbackServer& server,
                            core::HttpClient& http,
                            const std::vector<site_audit::AiCrawler>& ai_crawlers, int concurrency) {
  TempStore temp;
  if (temp.get() == nullptr) return std::nullopt;
  const core::SystemClock clock;
  auto key = site_audit::LoadOrCreateCrawlerKey(*temp.get(), nullptr, clock);
  if (!key) return std::nullopt;
  const site_audit::RequestSigner signer(*key, kPublicUrl);
  const site_audit::PageFetcher fetcher(http, &signer, site_audit::ServiceAuditBotUserAgent(kPublicUrl),
                                   site_audit::FetchLimits{.public_only = false});
  Pass pass;
  pass.fetch = FetchOnly(fetcher, site.page_urls, concurrency);
  auto crawl = Crawl(*temp.get(), fetcher, site, server, ai_crawlers, concurrency);
  if (!crawl) return std::nullopt;
  pass.crawl = std::move(*crawl);
  return pass;
}

void PrintPass(int run, int concurrency, std::size_t pages, const Pass& pass) {
  const auto n = static_cast<double>(pages);
  const CrawlFigures& c = pass.crawl;
  std::printf(
      "run %d, concurrency %d: fetch-only %5.0f pages/s (%.2f s, CPU %.2f ms a page) | crawl "
      "%4.0f pages/s (%.2f s, CPU %.2f ms a page) | crawl/fetch %.2f\n"
      "    crawl: URLs stored from %.2f to %.2f s, finish alone %.3f s; %s, %lld pages + %lld "
      "external URLs done, %lld links, %lld issues, %lld requests answered, %lld pages asked for "
      "twice; fetch-only failures %lld\n",
      run, concurrency, n / pass.fetch.seconds, pass.fetch.seconds,
      pass.fetch.cpu_seconds / n * 1e3, n / c.seconds, c.seconds, c.cpu_seconds / n * 1e3,
      pass.fetch.seconds / c.seconds, c.until_first_page, c.until_last_page, c.finish_alone,
      c.status.c_str(), static_cast<long long>(c.internal_done),
      static_cast<long long>(c.external_done), static_cast<long long>(c.links),
      static_cast<long long>(c.issues), static_cast<long long>(c.requests),
      static_cast<long long>(c.pages_fetched_twice), static_cast<long long>(pass.fetch.failures));
  if (c.internal_done != static_cast<std::int64_t>(pages) || c.status != "completed") {
    std::printf("    WARNING: the crawl did not fetch every page:");
    for (const std::string& url : c.not_done) std::printf(" %s;", url.c_str());
    std::printf("\n");
  }
  std::fflush(stdout);
}

void PrintSummary(const std::vector<int>& levels, const std::vector<std::vector<Pass>>& passes,
                  std::size_t pages) {
  const auto n = static_cast<double>(pages);
  std::printf("\nmedians over %zu runs, %zu pages:\n", passes.front().size(), pages);
  std::printf(
      "| concurrency | fetch-only pages/s | crawl pages/s | crawl / fetch-only | CPU a page, "
      "fetch-only / crawl | finish step alone |\n|---|---|---|---|---|---|\n");
  for (std::size_t l = 0; l < levels.size(); ++l) {
    std::vector<double> fetch, crawl, ratio, fetch_cpu, crawl_cpu, finish;
    for (const Pass& p : passes[l]) {
      fetch.push_back(n / p.fetch.seconds);
      crawl.push_back(n / p.crawl.seconds);
      ratio.push_back(p.fetch.seconds / p.crawl.seconds);
      fetch_cpu.push_back(p.fetch.cpu_seconds / n * 1e3);
      crawl_cpu.push_back(p.crawl.cpu_seconds / n * 1e3);
      finish.push_back(p.crawl.finish_alone);
    }
    std::printf("| %d | %.0f | %.0f | %.2f | %.2f ms / %.2f ms | %.2f s |\n", levels[l],
                Median(fetch), Median(crawl), Median(ratio), Median(fetch_cpu), Median(crawl_cpu),
                Median(finish));
  }
}

std::vector<int> Levels(const std::string& text) {
  std::vector<int> out;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    out.push_back(std::atoi(text.substr(at, comma - at).c_str()));
    at = comma + 1;
  }
  return out;
}

struct Options {
  int pages = 2000;
  int runs = 3;
  std::vector<int> levels{1, 2, 4};
};

std::optional<Options> ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--pages" && i + 1 < argc) {
      options.pages = std::atoi(argv[++i]);
    } else if (arg == "--runs" && i + 1 < argc) {
      options.runs = std::atoi(argv[++i]);
    } else if (arg == "--concurrency" && i + 1 < argc) {
      options.levels = Levels(argv[++i]);
    } else {
      return std::nullopt;
    }
  }
  const auto& levels = options.levels;
  if (options.pages < 20 || options.runs < 1 || levels.empty() ||
      std::any_of(levels.begin(), levels.end(), [](int c) { return c < 1 || c > 16; })) {
    return std::nullopt;
  }
  return options;
}

void PrintSite(const bench::LoopbackSite& site) {
  const auto n = static_cast<double>(site.page_urls.size());
  std::printf(
      "site %s: %zu pages, %.1f MB of HTML (%.1f KB a page), %.1f internal and %.1f "
      "external links a page, %zu external URLs\n",
      site.origin.c_str(), site.page_urls.size(), static_cast<double>(site.html_bytes) / 1e6,
      static_cast<double>(site.html_bytes) / n / 1e3, static_cast<double>(site.internal_links) / n,
      static_cast<double>(site.external_links) / n, site.external_urls.size());
  std::fflush(stdout);
  const double describe = std::min(DescribeOnly(site), DescribeOnly(site));
  std::printf(
      "DescribePage alone (HTML parse and facts, one thread, best of 2): %.0f pages/s, "
      "%.2f ms a page\n",
      n / describe, describe / n * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) {
    std::fprintf(stderr,
                 "usage: crawl_bench [--pages N >= 20] [--runs R] [--concurrency 1,2,4 (1..16)]\n");
    return 2;
  }
  bench::LoopbackServer server;
  const bench::LoopbackSite site = bench::GenerateSite(options->pages, server.port());
  server.Serve(site);
  PrintSite(site);

  net::BeastHttpClient http(net::HttpClientOptions{.user_agent = "Sightline/bench"});
  const std::vector<site_audit::AiCrawler> ai_crawlers =
      site_audit::AiCrawlersOf(detection::BotCatalog::Builtin());
  const std::vector<int>& levels = options->levels;
  std::vector<std::vector<Pass>> passes(levels.size());
  for (int run = 1; run <= options->runs; ++run) {
    for (std::size_t l = 0; l < levels.size(); ++l) {
      auto pass = RunPass(site, server, http, ai_crawlers, levels[l]);
      if (!pass) {
        std::fprintf(stderr, "crawl_bench: the store or the crawl failed\n");
        server.Stop();  // before `site` goes
        return 1;
      }
      PrintPass(run, levels[l], site.page_urls.size(), *pass);
      passes[l].push_back(std::move(*pass));
    }
  }
  PrintSummary(levels, passes, site.page_urls.size());
  server.Stop();
  return 0;
}
