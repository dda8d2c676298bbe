#include "storage/visitor_table_cache.h"

namespace sightline::storage::internal {

VisitorTableCache& VisitorTableCache::Shared() {
  static VisitorTableCache cache(std::size_t{64} << 20);
  return cache;
}

SharedTable VisitorTableCache::Find(const VisitorTableKey& key) {
  const std::lock_guard lock(mutex_);
  const auto found = entries_.find(key);
  if (found == entries_.end()) return nullptr;
  order_.splice(order_.begin(), order_, found->second.place);
  return found->second.table;
}

void VisitorTableCache::Keep(const VisitorTableKey& key, SharedTable table) {
  if (!table || BytesOf(table) > budget_) return;
  const std::lock_guard lock(mutex_);
  if (entries_.contains(key)) return;
  order_.push_front(key);
  bytes_ += BytesOf(table);
  entries_.emplace(key, Entry{std::move(table), order_.begin()});
  while (bytes_ > budget_) {
    const auto last = entries_.find(order_.back());
    bytes_ -= BytesOf(last->second.table);
    entries_.erase(last);
    order_.pop_back();
  }
}

}  // namespace sightline::storage::internal
