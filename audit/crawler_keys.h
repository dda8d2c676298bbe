// The installation's Web Bot Auth keys for ServiceAuditBot, kept in the store so every node signs
// with the same key: created at first start, rotated on demand (the previous key stays published
// for kRetiredKeyDays so signatures made just before still verify). The private seed is sealed
// with the server's encryption key when it has one. Thread-safe functions over the store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audit/request_signer.h"
#include "core/result.h"

namespace sightline::core {
class Clock;
class SealedBox;
}  // namespace sightline::core
namespace sightline::storage {
class Store;
}

namespace sightline::audit {

inline constexpr std::int64_t kRetiredKeyDays = 7;

// The current key (the oldest one not retired, so that nodes starting together agree), creating
// one when there is none. `box` may be null (the seed is then stored as it is).
core::Result<CrawlerKeyPair> LoadOrCreateCrawlerKey(storage::Store& store,
                                                    const core::SealedBox* box,
                                                    const core::Clock& clock);
// Makes a new key current and retires the others; the new key.
core::Result<CrawlerKeyPair> RotateCrawlerKey(storage::Store& store, const core::SealedBox* box,
                                              const core::Clock& clock);
// The keys to publish (and to sign the directory with): the current ones and those retired less
// than kRetiredKeyDays ago, newest first.
core::Result<std::vector<CrawlerKeyPair>> PublishedCrawlerKeys(storage::Store& store,
                                                               const core::SealedBox* box,
                                                               const core::Clock& clock);

}  // namespace sightline::audit
