#include "storage/visitor_table_cache.h"

#include <gtest/gtest.h>

namespace sightline::storage::internal {
namespace {

SharedTable TableOf(std::size_t hashes) {
  return std::make_shared<const std::vector<std::uint64_t>>(hashes, 7);
}

VisitorTableKey Key(std::int64_t period, std::int64_t stamp = 1) {
  return {"p-1", "UTC", 0, period, stamp};
}

TEST(VisitorTableCache, FindsATableByItsPeriodAndStamp) {
  VisitorTableCache cache(1 << 20);
  const SharedTable table = TableOf(10);
  cache.Keep(Key(1), table);
  EXPECT_EQ(cache.Find(Key(1)), table);
  EXPECT_EQ(cache.Find(Key(1, 2)), nullptr) << "another stamp is another table";
  EXPECT_EQ(cache.Find(Key(2)), nullptr);
  EXPECT_EQ(cache.Find({"p-2", "UTC", 0, 1, 1}), nullptr) << "another project's";
}

TEST(VisitorTableCache, LeastRecentlyUsedTablesGoBeyondTheBudget) {
  VisitorTableCache cache(3 * 100 * 8);  // three tables of 100 hashes
  for (std::int64_t period = 1; period <= 3; ++period) cache.Keep(Key(period), TableOf(100));
  ASSERT_NE(cache.Find(Key(1)), nullptr);  // 1 is now the most recently used
  cache.Keep(Key(4), TableOf(100));
  EXPECT_EQ(cache.Find(Key(2)), nullptr);
  EXPECT_NE(cache.Find(Key(1)), nullptr);
  EXPECT_NE(cache.Find(Key(3)), nullptr);
  EXPECT_NE(cache.Find(Key(4)), nullptr);
  cache.Keep(Key(5), TableOf(1'000));  // larger than the whole budget: not kept
  EXPECT_EQ(cache.Find(Key(5)), nullptr);
  EXPECT_NE(cache.Find(Key(4)), nullptr);
}

}  // namespace
}  // namespace sightline::storage::internal
