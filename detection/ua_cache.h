// A bounded cache of User-Agent classifications. Real traffic repeats a small set of strings (a
// few thousand browsers and crawlers make most requests), so a hit skips the parse entirely.
// Requests carrying client hints bypass it (hints refine the result per request). Sharded by
// hash to keep lock contention low; a full shard is emptied whole (cheap, and a working set
// refills it at once). Thread-safe.
#pragma once

#include "detection/bot_catalog.h"
#include "detection/user_agent.h"

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sightline::detection {

class UserAgentCache {
 public:
  static constexpr std::size_t kMaxKeyBytes = 512;  // longer strings are parsed, not kept

  explicit UserAgentCache(const BotCatalog& catalog, std::size_t capacity = 65536)
      : catalog_(catalog), shard_capacity_(capacity / kShards + 1) {}

  UserAgentClassification Classify(std::string_view user_agent, const ClientHints& hints);

 private:
  static constexpr std::size_t kShards = 16;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, UserAgentClassification> entries;
  };
  const BotCatalog& catalog_;
  const std::size_t shard_capacity_;
  std::array<Shard, kShards> shards_;
};

bool HasClientHints(const ClientHints& hints);

}  // namespace sightline::detection
