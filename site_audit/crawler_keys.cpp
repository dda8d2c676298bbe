#include "site_audit/crawler_keys.h"

#include <mutex>

#include "core/clock.h"
#include "core/crypto.h"
#include "core/sealed_box.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"

namespace sightline::site_audit {
namespace {

using core::Result;
constexpr std::int64_t kDayMillis = 24LL * 60 * 60 * 1000;

storage::CrawlerKeyRecord RecordOf(const CrawlerKeyPair& key, const core::SealedBox* box,
                                   std::int64_t now) {
  storage::CrawlerKeyRecord record;
  record.id = key.key_id;
  record.sealed = box != nullptr;
  record.seed = core::Base64Encode(box ? box->Seal(key.private_seed, key.key_id)
                                       : key.private_seed);
  record.public_key = core::Base64UrlEncode(key.public_key);
  record.created_at = now;
  return record;
}

Result<CrawlerKeyPair> KeyOf(const storage::CrawlerKeyRecord& record, const core::SealedBox* box) {
  auto stored = core::Base64Decode(record.seed);
  if (!stored) return core::Error::Internal("The crawler key " + record.id + " is damaged.");
  std::optional<std::string> seed = *stored;
  if (record.sealed) {
    if (box == nullptr) {
      return core::Error::Internal(
          "The crawler key is sealed and this node has no encryption key (--encryption-key-file).");
    }
    seed = box->Open(*stored, record.id);
  }
  auto key = seed ? CrawlerKeyPairFromSeed(*seed) : std::nullopt;
  if (!key) {
    return core::Error::Internal("The crawler key " + record.id +
                                 " cannot be opened with this node's encryption key.");
  }
  return *key;
}

// The oldest current key `box` opens.
const storage::CrawlerKeyRecord* Current(const std::vector<storage::CrawlerKeyRecord>& keys,
                                         const core::SealedBox* box) {
  const storage::CrawlerKeyRecord* current = nullptr;
  for (const auto& key : keys) {
    if (key.retired_at || !KeyOf(key, box)) continue;
    if (!current || key.created_at < current->created_at ||
        (key.created_at == current->created_at && key.id < current->id)) {
      current = &key;
    }
  }
  return current;
}

}  // namespace

Result<CrawlerKeyPair> LoadOrCreateCrawlerKey(storage::Store& store, const core::SealedBox* box,
                                              const core::Clock& clock) {
  // One node's first callers (the crawl runner, the key directory, ownership checks) would
  // otherwise each make a key at start; nodes starting together still may, and then all sign
  // with the oldest while the directory lists both.
  static std::mutex creating;
  std::lock_guard lock(creating);
  auto keys = store.Read([](storage::Transaction& tx) { return tx.site_audit().ListCrawlerKeys(); });
  if (!keys) return keys.error();
  if (const auto* current = Current(*keys, box)) return KeyOf(*current, box);
  const CrawlerKeyPair fresh = GenerateCrawlerKeyPair();
  auto inserted = store.Write([&](storage::Transaction& tx) {
    return tx.site_audit().InsertCrawlerKey(RecordOf(fresh, box, clock.NowMillis()));
  });
  if (!inserted) return inserted.error();
  // Another node may have made one at the same moment: every node takes the oldest.
  keys = store.Read([](storage::Transaction& tx) { return tx.site_audit().ListCrawlerKeys(); });
  if (!keys) return keys.error();
  const auto* current = Current(*keys, box);
  if (current == nullptr) return core::Error::Internal("The new crawler key cannot be read back.");
  return KeyOf(*current, box);
}

Result<CrawlerKeyPair> RotateCrawlerKey(storage::Store& store, const core::SealedBox* box,
                                        const core::Clock& clock) {
  const CrawlerKeyPair fresh = GenerateCrawlerKeyPair();
  const std::int64_t now = clock.NowMillis();
  auto rotated = store.Write([&](storage::Transaction& tx) -> Result<void> {
    auto audit = tx.site_audit();
    if (auto inserted = audit.InsertCrawlerKey(RecordOf(fresh, box, now)); !inserted) {
      return inserted;
    }
    if (auto retired = audit.RetireCrawlerKeys(fresh.key_id, now); !retired) return retired;
    return audit.DeleteCrawlerKeysRetiredBefore(now - 4 * kRetiredKeyDays * kDayMillis);
  });
  if (!rotated) return rotated.error();
  return fresh;
}

Result<PublishedKeys> PublishedCrawlerKeys(storage::Store& store, const core::SealedBox* box,
                                           const core::Clock& clock) {
  auto keys = store.Read([](storage::Transaction& tx) { return tx.site_audit().ListCrawlerKeys(); });
  if (!keys) return keys.error();
  const std::int64_t since = clock.NowMillis() - kRetiredKeyDays * kDayMillis;
  PublishedKeys published;
  for (const auto& key : *keys) {
    if (key.retired_at && *key.retired_at < since) continue;
    auto raw = core::Base64UrlDecode(key.public_key);
    if (!raw) continue;  // damaged: nothing to publish
    published.public_keys.push_back(std::move(*raw));
    if (auto pair = KeyOf(key, box)) published.openable.push_back(std::move(*pair));
  }
  return published;
}

}  // namespace sightline::site_audit
