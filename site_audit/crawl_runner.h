// Runs the crawls due anywhere in the store on this node: each round claims queued crawls (and
// running ones whose node died, to resume them) up to `max_crawls` at once, each on its own
// thread with its own signer (the current key, so a rotation applies to the next crawl).
// Several nodes sharing PostgreSQL each claim different crawls: a claim is one conditional
// UPDATE. Thread-safe; Stop (or the destructor) asks running crawls to give their leases up.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "site_audit/ai_usage.h"
#include "site_audit/crawl_leases.h"
#include "site_audit/page_fetcher.h"
#include "jobs/lease.h"

namespace sightline::core {
class Clock;
class HttpClient;
class SealedBox;
}  // namespace sightline::core
namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

struct CrawlRunnerOptions {
  std::string public_url;   // where the key directory and the bot's page are (Signature-Agent)
  FetchLimits limits;       // public_only off only for tests
  std::int64_t max_crawls = 2;
  std::chrono::milliseconds lease = std::chrono::minutes(1);  // how long a claimed crawl is ours
  std::vector<AiCrawler> ai_crawlers;
};

class CrawlRunner {
 public:
  CrawlRunner(storage::Store& store, core::HttpClient& http, const core::SealedBox* box,
              const core::Clock& clock, CrawlRunnerOptions options);
  ~CrawlRunner();

  // One round: claims what is due and starts it.
  void Poll();
  void Stop();
  std::size_t running();

 private:
  struct Job;
  void Start(jobs::HeldLease lease);
  void Reap();

  storage::Store& store_;
  core::HttpClient& http_;
  const core::SealedBox* box_;
  const core::Clock& clock_;
  CrawlRunnerOptions options_;
  CrawlLeases leases_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::list<std::unique_ptr<Job>> jobs_;
};

}  // namespace sightline::site_audit
