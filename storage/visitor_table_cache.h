// The web rollups' visitor tables recently read (storage/web_rollup_codec.h), kept in memory
// because a dashboard asks for the same periods' sketches on every load and a table is
// megabytes on a busy day. A table is found by its period and its stamp, the hash of its
// bytes, which every block of the period carries: a cached table is the one the block was
// written with, whatever happened to the store since, so nothing ever needs invalidating and
// nodes sharing a store need no coordination. Least recently used tables go beyond the budget.
// Thread-safe.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace sightline::storage::internal {

struct VisitorTableKey {
  std::string project_id, zone;
  std::int64_t span = 0, period_start = 0, stamp = 0;
  auto operator<=>(const VisitorTableKey&) const = default;
};

using SharedTable = std::shared_ptr<const std::vector<std::uint64_t>>;

class VisitorTableCache {
 public:
  explicit VisitorTableCache(std::size_t budget_bytes) : budget_(budget_bytes) {}
  // The process's cache (64 MiB).
  static VisitorTableCache& Shared();

  SharedTable Find(const VisitorTableKey& key);
  void Keep(const VisitorTableKey& key, SharedTable table);

 private:
  using Order = std::list<VisitorTableKey>;  // most recently used first
  struct Entry {
    SharedTable table;
    Order::iterator place;
  };
  static std::size_t BytesOf(const SharedTable& table) { return table->size() * 8; }

  const std::size_t budget_;
  std::mutex mutex_;
  std::map<VisitorTableKey, Entry> entries_;
  Order order_;
  std::size_t bytes_ = 0;
};

}  // namespace sightline::storage::internal
