// The URLs a running crawl still has to fetch, handed to its workers in breadth-first order
// (pages reached by links before pages only the sitemaps list), each host no sooner than its
// delay after the previous request to it. Thread-safe: the workers share one frontier.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "storage/site_audit_records.h"

namespace sightline::site_audit {

class CrawlFrontier {
 public:
  // `delay_for(host)`: the pause between two requests to that host.
  explicit CrawlFrontier(std::function<std::chrono::milliseconds(const std::string&)> delay_for);

  // Whether `url` was ever seen by this crawl (queued, fetched or skipped).
  bool Known(const std::string& url);
  void MarkKnown(const std::string& url);
  // Marks `url` known unless it was; whether this call did (so two workers finding one URL at
  // once queue it once). The caller Pushes it later, once its row is stored.
  bool Reserve(const std::string& url);
  // A queued URL a link reaches by a shorter path, or one queued from the sitemaps only (depth
  // < 0, then it joins the linked pages): it takes the link's depth and source. Whether it did.
  bool Promote(const std::string& url, std::int64_t depth, const std::string& source);
  // Queues a URL (the caller checked it is not Known) and marks it known.
  void Push(storage::SiteAuditPageRecord page);

  // The next URL whose host may be asked now, waiting for one; nullopt when the frontier is
  // empty and no worker is busy (the crawl is done) or after Stop. A URL taken must be handed
  // back with Done (`linked`: its depth was not negative). Sitemap-only URLs wait until no
  // linked page is queued or being fetched, so that a link that reaches one first gives it its
  // click depth (Promote).
  std::optional<storage::SiteAuditPageRecord> Take();
  void Done(bool linked);
  // Wakes every waiting worker with nullopt.
  void Stop();
  bool stopped();
  std::size_t queued();

 private:
  std::optional<storage::SiteAuditPageRecord> TakeReady(std::chrono::steady_clock::time_point now,
                                                    std::chrono::steady_clock::time_point& wake);

  std::function<std::chrono::milliseconds(const std::string&)> delay_for_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<storage::SiteAuditPageRecord> linked_, orphans_;
  std::set<std::string> known_;
  std::map<std::string, std::chrono::steady_clock::time_point> next_request_;
  int busy_ = 0;
  int busy_linked_ = 0;  // of busy_, pages reached by links
  bool stopped_ = false;
};

}  // namespace sightline::site_audit
