#include "site_audit/crawl_frontier.h"

#include "site_audit/crawl_url.h"

namespace sightline::site_audit {

CrawlFrontier::CrawlFrontier(
    std::function<std::chrono::milliseconds(const std::string&)> delay_for)
    : delay_for_(std::move(delay_for)) {}

bool CrawlFrontier::Known(const std::string& url) {
  std::lock_guard lock(mutex_);
  return known_.count(url) > 0;
}

void CrawlFrontier::MarkKnown(const std::string& url) {
  std::lock_guard lock(mutex_);
  known_.insert(url);
}

bool CrawlFrontier::Reserve(const std::string& url) {
  std::lock_guard lock(mutex_);
  return known_.insert(url).second;
}

bool CrawlFrontier::Promote(const std::string& url, std::int64_t depth,
                            const std::string& source) {
  std::lock_guard lock(mutex_);
  // Still queued from a longer path: workers race, so a deeper link may have come first.
  for (auto& page : linked_) {
    if (page.url != url) continue;
    if (page.depth <= depth) return false;
    page.depth = depth;
    page.source = source;
    return true;
  }
  for (auto it = orphans_.begin(); it != orphans_.end(); ++it) {
    if (it->url != url) continue;
    storage::SiteAuditPageRecord page = std::move(*it);
    orphans_.erase(it);
    page.depth = depth;
    page.source = source;
    linked_.push_back(std::move(page));
    changed_.notify_one();
    return true;
  }
  return false;
}

void CrawlFrontier::Push(storage::SiteAuditPageRecord page) {
  std::lock_guard lock(mutex_);
  known_.insert(page.url);
  (page.depth < 0 ? orphans_ : linked_).push_back(std::move(page));
  changed_.notify_one();
}

std::optional<storage::SiteAuditPageRecord> CrawlFrontier::TakeReady(
    std::chrono::steady_clock::time_point now, std::chrono::steady_clock::time_point& wake) {
  for (auto* queue : {&linked_, &orphans_}) {
    if (queue == &orphans_ && busy_linked_ > 0) return std::nullopt;  // it may link to them
    // The first few entries only: a busy host must not make us scan the whole queue.
    const std::size_t scan = std::min<std::size_t>(queue->size(), 64);
    for (std::size_t i = 0; i < scan; ++i) {
      const std::string host = UrlAuthority((*queue)[i].url);
      auto next = next_request_.find(host);
      if (next != next_request_.end() && next->second > now) {
        wake = std::min(wake, next->second);
        continue;
      }
      next_request_[host] = now + delay_for_(host);
      storage::SiteAuditPageRecord page = std::move((*queue)[i]);
      queue->erase(queue->begin() + static_cast<std::ptrdiff_t>(i));
      return page;
    }
    if (!queue->empty()) return std::nullopt;  // linked pages first, even when waiting for them
  }
  return std::nullopt;
}

std::optional<storage::SiteAuditPageRecord> CrawlFrontier::Take() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopped_) return std::nullopt;
    if (linked_.empty() && orphans_.empty()) {
      if (busy_ == 0) return std::nullopt;
      changed_.wait_for(lock, std::chrono::milliseconds(200));
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    auto wake = now + std::chrono::milliseconds(200);
    if (auto page = TakeReady(now, wake)) {
      ++busy_;
      busy_linked_ += page->depth >= 0;
      return page;
    }
    changed_.wait_until(lock, wake);
  }
}

void CrawlFrontier::Done(bool linked) {
  std::lock_guard lock(mutex_);
  --busy_;
  busy_linked_ -= linked;
  changed_.notify_all();
}

void CrawlFrontier::Stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  changed_.notify_all();
}

bool CrawlFrontier::stopped() {
  std::lock_guard lock(mutex_);
  return stopped_;
}

std::size_t CrawlFrontier::queued() {
  std::lock_guard lock(mutex_);
  return linked_.size() + orphans_.size();
}

}  // namespace sightline::site_audit
