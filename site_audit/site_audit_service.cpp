#include "site_audit/site_audit_service.h"

#include "site_audit/crawler_keys.h"
#include "core/clock.h"
#include "detection/bot_catalog.h"

namespace sightline::site_audit {

std::vector<AiCrawler> AiCrawlersOf(const detection::BotCatalog& catalog) {
  std::vector<AiCrawler> crawlers;
  for (const auto& entry : catalog.entries()) {
    if (entry.category == "ai_training") crawlers.push_back({entry.name, "training"});
    if (entry.category == "ai_search") crawlers.push_back({entry.name, "search"});
    if (entry.category == "ai_user_fetch") crawlers.push_back({entry.name, "user_fetch"});
  }
  return crawlers;
}

SiteAuditService::SiteAuditService(storage::Store& store, core::HttpClient& http,
                                   detection::DnsResolver* dns, const core::SealedBox* box,
                                   const core::Clock& clock, SiteAuditSettings settings)
    : store_(store), http_(http), dns_(dns), box_(box), clock_(clock),
      settings_(std::move(settings)) {}

core::Result<OwnershipCheck> SiteAuditService::CheckOwnership(const std::string& origin,
                                                              const std::string& token,
                                                              const std::string& method) const {
  auto key = LoadOrCreateCrawlerKey(store_, box_, clock_);
  if (!key) return key.error();
  const RequestSigner signer(std::move(*key), settings_.public_url);
  const PageFetcher fetcher(http_, &signer, ServiceAuditBotUserAgent(settings_.public_url),
                            settings_.limits);
  return site_audit::CheckOwnership(fetcher, dns_, origin, token, method);
}

namespace {

// The first request after installation may come before any crawl made the key.
core::Result<PublishedKeys> KeysToPublish(storage::Store& store, const core::SealedBox* box,
                                          const core::Clock& clock) {
  if (auto current = LoadOrCreateCrawlerKey(store, box, clock); !current) return current.error();
  return PublishedCrawlerKeys(store, box, clock);
}

}  // namespace

core::Result<std::string> SiteAuditService::KeyDirectoryDocument() const {
  auto keys = KeysToPublish(store_, box_, clock_);
  if (!keys) return keys.error();
  return SignatureDirectoryDocument(keys->public_keys);
}

core::Result<KeyDirectoryResponse> SiteAuditService::KeyDirectory(
    std::string_view authority) const {
  auto keys = KeysToPublish(store_, box_, clock_);
  if (!keys) return keys.error();
  return KeyDirectoryResponse{
      SignatureDirectoryDocument(keys->public_keys),
      SignDirectoryResponse(keys->openable, authority, clock_.NowMillis() / 1000)};
}

}  // namespace sightline::site_audit
