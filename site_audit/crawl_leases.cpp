#include "site_audit/crawl_leases.h"

#include "storage/site_audit_repository.h"
#include "storage/store.h"

namespace sightline::site_audit {

core::Result<bool> CrawlLeases::Claim(std::string_view id, std::int64_t now, std::int64_t until) {
  return store_.WriteOne(
      [&](storage::Transaction& tx) { return tx.site_audit().ClaimAuditCrawl(id, now, until); });
}

core::Result<bool> CrawlLeases::Renew(std::string_view id, std::int64_t held, std::int64_t until) {
  return store_.WriteOne(
      [&](storage::Transaction& tx) { return tx.site_audit().RenewAuditCrawlLease(id, held, until); });
}

core::Result<bool> CrawlLeases::Release(std::string_view id, std::int64_t held) {
  return store_.WriteOne(
      [&](storage::Transaction& tx) { return tx.site_audit().ReleaseAuditCrawlLease(id, held); });
}

}  // namespace sightline::site_audit
