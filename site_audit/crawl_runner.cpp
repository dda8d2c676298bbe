#include "site_audit/crawl_runner.h"

#include <spdlog/spdlog.h>

#include "site_audit/crawler.h"
#include "site_audit/crawler_keys.h"
#include "core/clock.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"

namespace sightline::site_audit {

struct CrawlRunner::Job {
  std::string crawl_id;
  std::atomic<bool> done{false};
  std::thread thread;
};

CrawlRunner::CrawlRunner(storage::Store& store, core::HttpClient& http, const core::SealedBox* box,
                         const core::Clock& clock, CrawlRunnerOptions options)
    : store_(store),
      http_(http),
      box_(box),
      clock_(clock),
      options_(std::move(options)),
      leases_(store) {}

CrawlRunner::~CrawlRunner() { Stop(); }

void CrawlRunner::Stop() {
  stopping_ = true;
  std::lock_guard lock(mutex_);
  for (auto& job : jobs_) {
    if (job->thread.joinable()) job->thread.join();
  }
  jobs_.clear();
}

std::size_t CrawlRunner::running() {
  std::lock_guard lock(mutex_);
  Reap();
  return jobs_.size();
}

void CrawlRunner::Reap() {
  jobs_.remove_if([](const std::unique_ptr<Job>& job) {
    if (!job->done) return false;
    job->thread.join();
    return true;
  });
}

void CrawlRunner::Poll() {
  if (stopping_) return;
  std::int64_t room = 0;
  {
    std::lock_guard lock(mutex_);
    Reap();
    room = options_.max_crawls - static_cast<std::int64_t>(jobs_.size());
  }
  if (room <= 0) return;
  const std::int64_t now = clock_.NowMillis();
  auto due = store_.Read([&](storage::Transaction& tx) {
    return tx.site_audit().ListDueAuditCrawls(now, room);
  });
  if (!due) return spdlog::warn("site audit: cannot list due crawls: {}", due.error().message());
  const jobs::Lease lease(options_.lease);
  for (const auto& crawl : *due) {
    auto claimed = jobs::HeldLease::Claim(leases_, lease, clock_, crawl.id);
    if (claimed && *claimed) Start(std::move(**claimed));
  }
}

void CrawlRunner::Start(jobs::HeldLease lease) {
  auto job = std::make_unique<Job>();
  job->crawl_id = lease.id();
  Job* raw = job.get();
  raw->thread = std::thread([this, raw, lease = std::move(lease)]() mutable {
    auto crawl = store_.Read([&](storage::Transaction& tx) {
      return tx.site_audit().FindAuditCrawlById(raw->crawl_id);
    });
    auto key = LoadOrCreateCrawlerKey(store_, box_, clock_);
    if (crawl && *crawl && key) {
      const RequestSigner signer(*key, options_.public_url);
      const PageFetcher fetcher(http_, &signer, ServiceAuditBotUserAgent(options_.public_url),
                                options_.limits);
      Crawler crawler({store_, fetcher, clock_, options_.ai_crawlers}, **crawl, std::move(lease));
      auto ran = crawler.Run([this] { return stopping_.load(); });
      if (!ran)
        spdlog::warn("site audit: crawl {} stopped: {}", raw->crawl_id, ran.error().message());
    } else if (!key) {
      spdlog::error("site audit: no signing key: {}", key.error().internal());
    }
    raw->done = true;
  });
  std::lock_guard lock(mutex_);
  jobs_.push_back(std::move(job));
}

}  // namespace sightline::site_audit
