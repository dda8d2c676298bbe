// What the site-audit operations reach beyond the store, built once by the composition root:
// ServiceAuditBot's signed fetches for ownership checks, the installation's public URL (where
// the key directory and the bot's page are), the fetch limits and the bot catalog's AI crawlers.
// Thread-safe: immutable after construction; each call reads the current key from the store.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "site_audit/ai_usage.h"
#include "site_audit/page_fetcher.h"
#include "site_audit/request_signer.h"
#include "site_audit/site_ownership.h"
#include "core/result.h"

namespace sightline::core {
class Clock;
class HttpClient;
class SealedBox;
}  // namespace sightline::core
namespace sightline::detection {
class BotCatalog;
class DnsResolver;
}  // namespace sightline::detection
namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

struct SiteAuditSettings {
  std::string public_url;  // e.g. "https://analytics.example.com"
  FetchLimits limits;      // public_only off only for tests (--audit-private-addresses)
  std::vector<AiCrawler> ai_crawlers;
};

// The catalog's AI crawlers, by purpose: ai_training → training, ai_search → search,
// ai_user_fetch → user_fetch, in catalog order.
std::vector<AiCrawler> AiCrawlersOf(const detection::BotCatalog& catalog);

// The key directory response: the document and the signatures binding it to its keys.
struct KeyDirectoryResponse {
  std::string body;
  SignatureHeaders headers;
};

class SiteAuditService {
 public:
  // `dns` and `box` may be null (no DNS proofs; keys stored unsealed).
  SiteAuditService(storage::Store& store, core::HttpClient& http, detection::DnsResolver* dns,
                   const core::SealedBox* box, const core::Clock& clock,
                   SiteAuditSettings settings);

  // Checks now whether `origin` publishes `token` (see site_ownership.h), with a request signed
  // by the installation's current key. Errors only when the key cannot be read.
  core::Result<OwnershipCheck> CheckOwnership(const std::string& origin, const std::string& token,
                                              const std::string& method) const;
  // The directory document of the published keys (the bot's page, detection's pinned keys).
  core::Result<std::string> KeyDirectoryDocument() const;
  // The same, signed for `authority` (the Host asked), as served at the well-known path.
  core::Result<KeyDirectoryResponse> KeyDirectory(std::string_view authority) const;

  const SiteAuditSettings& settings() const { return settings_; }

 private:
  storage::Store& store_;
  core::HttpClient& http_;
  detection::DnsResolver* dns_;
  const core::SealedBox* box_;
  const core::Clock& clock_;
  const SiteAuditSettings settings_;
};

}  // namespace sightline::site_audit
