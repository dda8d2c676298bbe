#include "query/visitor_ids.h"

#include <gtest/gtest.h>

#include <string>

namespace sightline::query {
namespace {

TEST(VisitorIds, NumbersEachDistinctVisitorOnceInTheOrderSeen) {
  VisitorIds ids;
  EXPECT_EQ(ids.Of("v1"), 0u);
  EXPECT_EQ(ids.Of("v2"), 1u);
  std::string again = "v1";  // another string with the same bytes
  EXPECT_EQ(ids.Of(again), 0u);
  EXPECT_EQ(ids.Of("v2"), 1u);
  EXPECT_EQ(ids.Of("v3"), 2u);
  EXPECT_EQ(ids.size(), 3u);
}

// SMHasher's verification of MurmurHash3_x64_128: keys 0, 0 1, 0 1 2, … of 0 to 255 bytes
// hashed with seeds 256 down to 1, their hashes hashed with seed 0; the first four bytes.
TEST(VisitorIds, TheHashIsMurmurHash3) {
  std::string keys, hashes;
  for (int i = 0; i < 256; ++i) {
    const Hash128 hash = Murmur3Hash128(keys, static_cast<std::uint32_t>(256 - i));
    for (const std::uint64_t half : {hash.low, hash.high}) {
      for (int b = 0; b < 8; ++b) hashes.push_back(static_cast<char>(half >> (8 * b)));
    }
    keys.push_back(static_cast<char>(i));
  }
  EXPECT_EQ(static_cast<std::uint32_t>(Murmur3Hash128(hashes).low), 0x6384BA69u);
}

TEST(VisitorIds, KnowsAVisitorByItsBytesOnceItsStringIsGone) {
  VisitorIds ids;
  {
    std::string visitor(40, 'a');  // past the short-string buffer: its bytes are freed below
    EXPECT_EQ(ids.Of(visitor), 0u);
  }
  EXPECT_EQ(ids.Of(std::string(40, 'a')), 0u);
  EXPECT_EQ(ids.Of(std::string(40, 'b')), 1u);
}

// Past the table's first size, and the empty visitor (events without an id are numbered by
// no caller, but the table must not mistake it for an empty slot).
TEST(VisitorIds, StaysExactAsTheTableGrows) {
  VisitorIds ids;
  EXPECT_EQ(ids.Of(""), 0u);
  for (std::uint32_t i = 1; i <= 5000; ++i) EXPECT_EQ(ids.Of("visitor-" + std::to_string(i)), i);
  for (std::uint32_t i = 5000; i >= 1; --i) EXPECT_EQ(ids.Of("visitor-" + std::to_string(i)), i);
  EXPECT_EQ(ids.Of(""), 0u);
  EXPECT_EQ(ids.size(), 5001u);
}

}  // namespace
}  // namespace sightline::query
