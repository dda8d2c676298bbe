// The leases on site-audit crawls (jobs::LeaseStore over the audit repository): a queued crawl,
// or a running one whose lease ran out, is claimed; a renewal also fails once a cancel was asked,
// which is how the crawling node learns of it. Thread-safe.
#pragma once

#include "jobs/lease_store.h"

namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

class CrawlLeases final : public jobs::LeaseStore {
 public:
  explicit CrawlLeases(storage::Store& store) : store_(store) {}

  core::Result<bool> Claim(std::string_view id, std::int64_t now, std::int64_t until) override;
  core::Result<bool> Renew(std::string_view id, std::int64_t held, std::int64_t until) override;
  core::Result<bool> Release(std::string_view id, std::int64_t held) override;

 private:
  storage::Store& store_;
};

}  // namespace sightline::site_audit
