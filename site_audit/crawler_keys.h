// The installation's Web Bot Auth keys for ServiceAuditBot, kept in the store so every node signs
// with the same key: created at first start, rotated on demand (the previous key stays published
// for kRetiredKeyDays so signatures made just before still verify). The private seed is sealed
// with the server's encryption key when it has one. Thread-safe functions over the store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "site_audit/request_signer.h"
#include "core/result.h"

namespace sightline::core {
class Clock;
class SealedBox;
}  // namespace sightline::core
namespace sightline::storage {
class Store;
}

namespace sightline::site_audit {

inline constexpr std::int64_t kRetiredKeyDays = 7;

// The current key (the oldest one not retired that this node can open, so that nodes starting
// together agree), creating one when there is none this node can open. `box` may be null (the seed is then stored as it is).
core::Result<CrawlerKeyPair> LoadOrCreateCrawlerKey(storage::Store& store,
                                                    const core::SealedBox* box,
                                                    const core::Clock& clock);
// Makes a new key current and retires the others; the new key.
core::Result<CrawlerKeyPair> RotateCrawlerKey(storage::Store& store, const core::SealedBox* box,
                                              const core::Clock& clock);
// The keys to publish: the current ones and those retired less than kRetiredKeyDays ago, newest
// first, as raw public keys; and of those, the ones this node can open (to sign the directory
// response with). A node whose encryption key differs from the one that sealed a key cannot use
// it, but still publishes it: the node that made it signs with it.
struct PublishedKeys {
  std::vector<std::string> public_keys;
  std::vector<CrawlerKeyPair> openable;
};
core::Result<PublishedKeys> PublishedCrawlerKeys(storage::Store& store, const core::SealedBox* box,
                                                 const core::Clock& clock);

}  // namespace sightline::site_audit
