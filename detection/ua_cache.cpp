#include "detection/ua_cache.h"

#include <functional>

namespace sightline::detection {

bool HasClientHints(const ClientHints& h) {
  return h.brands || h.mobile || h.platform || h.platform_version || h.model || h.form_factors ||
         h.full_version_list;
}

UserAgentClassification UserAgentCache::Classify(std::string_view user_agent,
                                                 const ClientHints& hints) {
  if (HasClientHints(hints) || user_agent.size() > kMaxKeyBytes) {
    return ClassifyUserAgent(user_agent, hints, catalog_);
  }
  const std::size_t hash = std::hash<std::string_view>{}(user_agent);
  Shard& shard = shards_[hash % kShards];
  {
    std::lock_guard lock(shard.mutex);
    if (auto it = shard.entries.find(std::string(user_agent)); it != shard.entries.end()) {
      return it->second;
    }
  }
  UserAgentClassification result = ClassifyUserAgent(user_agent, hints, catalog_);
  std::lock_guard lock(shard.mutex);
  if (shard.entries.size() >= shard_capacity_) shard.entries.clear();
  shard.entries.emplace(std::string(user_agent), result);
  return result;
}

}  // namespace sightline::detection
