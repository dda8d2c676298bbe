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

// A UUID's text and its 16 bytes (as column blocks keep it) are one visitor; a text of 16
// bytes is not a UUID's bytes, nor is a UUID's text in upper case (blocks keep that as text).
TEST(VisitorIds, AUuidIsOneVisitorAsTextAndAsItsBytes) {
  VisitorIds ids;
  const std::string text = "0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b";
  const std::string bytes = "\x01\x90\xa3\xb4\x5c\x6d\x7e\x8f\x9a\x0b\x1c\x2d\x3e\x4f\x5a\x6b";
  ASSERT_EQ(bytes.size(), 16u);
  EXPECT_EQ(ids.Of(text), 0u);
  EXPECT_EQ(ids.OfPackedUuid(bytes), 0u);
  EXPECT_EQ(ids.Of(bytes), 1u) << "16 bytes of text are another visitor";
  EXPECT_EQ(ids.Of("0190A3B4-5C6D-7E8F-9A0B-1C2D3E4F5A6B"), 2u);
  EXPECT_EQ(ids.Of("0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6"), 3u);   // one digit short
  EXPECT_EQ(ids.Of("0190a3b4x5c6d-7e8f-9a0b-1c2d3e4f5a6b"), 4u);  // no dash
  EXPECT_EQ(ids.OfPackedUuid(std::string(16, '\0')), 5u);
  EXPECT_EQ(ids.Of("00000000-0000-0000-0000-000000000000"), 5u);
  EXPECT_EQ(ids.size(), 6u);
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
