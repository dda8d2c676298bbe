#include "query/visitor_set.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace sightline::query {
namespace {

TEST(VisitorSet, CountsEachVisitorOnce) {
  VisitorSet visitors;
  EXPECT_EQ(visitors.size(), 0u);
  for (const std::uint32_t visitor : {7u, 3u, 7u, 0u, 3u}) visitors.Insert(visitor);
  EXPECT_EQ(visitors.size(), 3u);
}

// Random numbers, some often, against std::set: exact before, across and after the change to
// a bitmap (dense numbers make it early, sparse ones late or never).
TEST(VisitorSet, StaysExactAcrossTheChangeToABitmap) {
  std::mt19937 random(7);
  for (const std::uint32_t range : {50u, 5'000u, 2'000'000u}) {
    VisitorSet visitors;
    std::set<std::uint32_t> expected;
    for (int i = 0; i < 20'000; ++i) {
      const std::uint32_t visitor = random() % range;
      visitors.Insert(visitor);
      expected.insert(visitor);
      ASSERT_EQ(visitors.size(), expected.size()) << "range " << range << ", insert " << i;
    }
  }
}

}  // namespace
}  // namespace sightline::query
