#include "core/distinct_sketch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace sightline::core {
namespace {

constexpr std::size_t kRegisters = std::size_t{1} << DistinctSketch::kPrecision;

std::uint64_t KeyHash(std::int64_t i) { return StableHash64("k" + std::to_string(i)); }

// Keys "k<begin>" .. "k<end - 1>".
DistinctSketch SketchOfKeys(std::int64_t begin, std::int64_t end) {
  DistinctSketch sketch;
  for (std::int64_t i = begin; i < end; ++i) sketch.Add(KeyHash(i));
  return sketch;
}

double RelativeError(const DistinctSketch& sketch, std::int64_t truth) {
  return std::abs(static_cast<double>(sketch.Estimate() - truth)) / static_cast<double>(truth);
}

std::string DenseBytes(std::uint8_t fill) {
  std::string bytes(1 + kRegisters, static_cast<char>(fill));
  bytes[0] = 0x02;
  return bytes;
}

TEST(DistinctSketchHash, PinnedValuesNeverChange) {
  // Persisted sketches hold these hashes; a change here would corrupt every stored rollup.
  EXPECT_EQ(StableHash64(""), 0xefd01f60ba992926ULL);
  EXPECT_EQ(StableHash64("a"), 0x82a2a958a9bece5bULL);
  EXPECT_EQ(StableHash64("visitor-1"), 0xfc1f761ed37d2af6ULL);
}

TEST(DistinctSketchExact, EmptySketchCountsZero) {
  const DistinctSketch sketch;
  EXPECT_TRUE(sketch.empty());
  EXPECT_TRUE(sketch.exact());
  EXPECT_EQ(sketch.Estimate(), 0);
}

TEST(DistinctSketchExact, CountsOneHash) {
  DistinctSketch sketch;
  sketch.Add(StableHash64("visitor-1"));
  EXPECT_FALSE(sketch.empty());
  EXPECT_EQ(sketch.Estimate(), 1);
}

TEST(DistinctSketchExact, CountsDuplicatesOnce) {
  DistinctSketch sketch;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 7; ++i) sketch.Add(KeyHash(i));
  }
  EXPECT_TRUE(sketch.exact());
  EXPECT_EQ(sketch.Estimate(), 7);
}

TEST(DistinctSketchExact, StaysExactAtTheLimit) {
  const auto limit = static_cast<std::int64_t>(DistinctSketch::kExactLimit);
  DistinctSketch sketch = SketchOfKeys(0, limit);
  EXPECT_TRUE(sketch.exact());
  EXPECT_EQ(sketch.Estimate(), limit);
  // Twice as many Adds as the limit, all repeats: still exact.
  for (std::int64_t i = 0; i < limit; ++i) sketch.Add(KeyHash(i));
  EXPECT_TRUE(sketch.exact());
  EXPECT_EQ(sketch.Estimate(), limit);
}

TEST(DistinctSketchExact, MergeOfOverlappingSetsIsTheExactUnion) {
  DistinctSketch left = SketchOfKeys(0, 3000);
  const DistinctSketch right = SketchOfKeys(2000, 5000);
  left.Merge(right);
  EXPECT_TRUE(left.exact());
  EXPECT_EQ(left.Estimate(), 5000);
  left.Merge(left);
  EXPECT_EQ(left.Estimate(), 5000);
}

TEST(DistinctSketchExact, MergeWithAnEmptySketchChangesNothing) {
  DistinctSketch sketch = SketchOfKeys(0, 10);
  sketch.Merge(DistinctSketch());
  EXPECT_EQ(sketch.Estimate(), 10);
  DistinctSketch empty;
  empty.Merge(sketch);
  EXPECT_EQ(empty.Serialize(), sketch.Serialize());
}

TEST(DistinctSketchDense, ConvertsAfterTheLimitWithinOnePercent) {
  const auto n = static_cast<std::int64_t>(DistinctSketch::kExactLimit) + 1;
  const DistinctSketch sketch = SketchOfKeys(0, n);
  EXPECT_FALSE(sketch.exact());
  EXPECT_FALSE(sketch.empty());
  EXPECT_LE(RelativeError(sketch, n), 0.01) << sketch.Estimate();
}

TEST(DistinctSketchDense, MergeOfExactSetsBeyondTheLimitTurnsDense) {
  DistinctSketch left = SketchOfKeys(0, 5000);
  left.Merge(SketchOfKeys(5000, 10000));
  EXPECT_FALSE(left.exact());
  EXPECT_LE(RelativeError(left, 10000), 0.01) << left.Estimate();
}

TEST(DistinctSketchDense, MergeOrderDoesNotMatter) {
  const DistinctSketch exact = SketchOfKeys(0, 1000);
  const DistinctSketch dense = SketchOfKeys(500, 20000);
  DistinctSketch exact_first = exact;
  exact_first.Merge(dense);
  DistinctSketch dense_first = dense;
  dense_first.Merge(exact);
  EXPECT_FALSE(exact_first.exact());
  EXPECT_EQ(exact_first.Serialize(), dense_first.Serialize());
  EXPECT_EQ(exact_first.Serialize(), SketchOfKeys(0, 20000).Serialize());
}

TEST(DistinctSketchDense, OneSetRegisterEstimatesOne) {
  std::string bytes = DenseBytes(0);
  bytes[1 + 12345] = 1;
  const auto sketch = DistinctSketch::Parse(bytes);
  ASSERT_TRUE(sketch.has_value());
  EXPECT_EQ(sketch->Estimate(), 1);
}

TEST(DistinctSketchDense, SaturatedRegistersDoNotOverflow) {
  const auto sketch = DistinctSketch::Parse(DenseBytes(49));
  ASSERT_TRUE(sketch.has_value());
  EXPECT_EQ(sketch->Estimate(), std::numeric_limits<std::int64_t>::max());
}

TEST(DistinctSketchAccuracy, WithinOnePercentUpToFiveMillion) {
  DistinctSketch sketch;
  std::int64_t added = 0;
  for (const std::int64_t n : {10'000, 100'000, 1'000'000, 5'000'000}) {
    for (; added < n; ++added) sketch.Add(KeyHash(added));
    const double error = RelativeError(sketch, n);
    RecordProperty("relative_error_" + std::to_string(n), std::to_string(error));
    EXPECT_LE(error, 0.01) << "n=" << n << " estimate=" << sketch.Estimate();
  }
}

TEST(DistinctSketchAccuracy, MergedHalvesWithTenPercentOverlapWithinOnePercent) {
  constexpr std::int64_t kUnion = 1'000'000;
  DistinctSketch left = SketchOfKeys(0, kUnion * 55 / 100);
  const DistinctSketch right = SketchOfKeys(kUnion * 45 / 100, kUnion);
  left.Merge(right);
  const double error = RelativeError(left, kUnion);
  RecordProperty("relative_error_merged", std::to_string(error));
  EXPECT_LE(error, 0.01) << left.Estimate();
  EXPECT_EQ(left.Serialize(), SketchOfKeys(0, kUnion).Serialize());
}

TEST(DistinctSketchSerialization, ExactRoundTrip) {
  const DistinctSketch sketch = SketchOfKeys(0, 100);
  const std::string bytes = sketch.Serialize();
  ASSERT_EQ(bytes.size(), 1u + 4u + 8u * 100u);
  EXPECT_EQ(bytes[0], 0x01);
  EXPECT_EQ(bytes.substr(1, 4), std::string("\x64\x00\x00\x00", 4));
  const auto parsed = DistinctSketch::Parse(bytes);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->exact());
  EXPECT_EQ(parsed->Estimate(), 100);
  EXPECT_EQ(parsed->Serialize(), bytes);
}

TEST(DistinctSketchSerialization, DenseRoundTripPacksFourBitsPerRegister) {
  const DistinctSketch sketch = SketchOfKeys(0, 50'000);
  const std::string bytes = sketch.Serialize();
  EXPECT_EQ(bytes[0], 0x03);
  EXPECT_LT(bytes.size(), 1u + kRegisters / 2 + 1 + 4 + 3 * 64);  // few overflowing registers
  const auto parsed = DistinctSketch::Parse(bytes);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_FALSE(parsed->exact());
  EXPECT_EQ(parsed->Estimate(), sketch.Estimate());
  EXPECT_EQ(parsed->Serialize(), bytes);
}

TEST(DistinctSketchSerialization, RegistersFarAboveTheBaseRoundTrip) {
  // Base 1 everywhere, one register at the maximum rank (49) and one at base + 15.
  std::string legacy = DenseBytes(1);
  legacy[1 + 5] = 49;
  legacy[1 + 60'000] = 16;
  const auto sketch = DistinctSketch::Parse(legacy);  // the first dense format still reads
  ASSERT_TRUE(sketch.has_value());
  const std::string packed = sketch->Serialize();
  EXPECT_EQ(packed.size(), 2u + kRegisters / 2 + 4 + 2 * 3);
  const auto parsed = DistinctSketch::Parse(packed);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->Estimate(), sketch->Estimate());
  DistinctSketch merged = *parsed;
  merged.Merge(*sketch);
  EXPECT_EQ(merged.Serialize(), packed);
}

TEST(DistinctSketchParse, RejectsInconsistentOverflows) {
  const std::string packed = SketchOfKeys(0, 50'000).Serialize();
  ASSERT_EQ(packed[0], 0x03);
  const std::size_t count_at = 2 + kRegisters / 2;
  // A register marked as overflowing (nibble 15) with no entry in the list.
  std::string unlisted = packed;
  unlisted[2] = static_cast<char>(0xff);
  EXPECT_FALSE(DistinctSketch::Parse(unlisted).has_value());
  // A listed entry for a register that is not marked.
  std::string listed = packed.substr(0, count_at) + std::string("\x01\x00\x00\x00", 4) +
                       std::string("\x00\x00\x31", 3);
  listed[2] = 0;
  EXPECT_FALSE(DistinctSketch::Parse(listed).has_value());
  // A base above the largest rank.
  std::string high = packed;
  high[1] = 50;
  EXPECT_FALSE(DistinctSketch::Parse(high).has_value());
}

TEST(DistinctSketchSerialization, EmptyStringAndEmptySketch) {
  const auto from_nothing = DistinctSketch::Parse("");
  ASSERT_TRUE(from_nothing.has_value());
  EXPECT_TRUE(from_nothing->empty());
  const std::string bytes = DistinctSketch().Serialize();
  EXPECT_EQ(bytes, std::string("\x01\x00\x00\x00\x00", 5));
  const auto parsed = DistinctSketch::Parse(bytes);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_TRUE(parsed->empty());
}

TEST(DistinctSketchParse, RejectsEveryTruncation) {
  const std::string exact = SketchOfKeys(0, 20).Serialize();
  for (std::size_t size = 1; size < exact.size(); ++size) {
    EXPECT_FALSE(DistinctSketch::Parse(exact.substr(0, size)).has_value()) << size;
  }
  const std::string dense = SketchOfKeys(0, 10'000).Serialize();
  EXPECT_FALSE(DistinctSketch::Parse(dense.substr(0, dense.size() - 1)).has_value());
  EXPECT_FALSE(DistinctSketch::Parse(dense.substr(0, 1)).has_value());
}

TEST(DistinctSketchParse, RejectsTrailingBytes) {
  EXPECT_FALSE(DistinctSketch::Parse(SketchOfKeys(0, 3).Serialize() + "x").has_value());
  EXPECT_FALSE(DistinctSketch::Parse(SketchOfKeys(0, 10'000).Serialize() + "x").has_value());
}

TEST(DistinctSketchParse, RejectsWrongTag) {
  std::string bytes = SketchOfKeys(0, 3).Serialize();
  for (const char tag : {'\x00', '\x04', '\xff'}) {
    bytes[0] = tag;
    EXPECT_FALSE(DistinctSketch::Parse(bytes).has_value()) << int{tag};
  }
}

TEST(DistinctSketchParse, RejectsOversizedRegister) {
  std::string bytes = DenseBytes(1);
  bytes[1 + 777] = 50;
  EXPECT_FALSE(DistinctSketch::Parse(bytes).has_value());
  EXPECT_FALSE(DistinctSketch::Parse(DenseBytes(0xff)).has_value());
}

TEST(DistinctSketchParse, RejectsAllZeroRegisters) {
  EXPECT_FALSE(DistinctSketch::Parse(DenseBytes(0)).has_value());
}

TEST(DistinctSketchParse, RejectsUnsortedOrRepeatedHashes) {
  std::string bytes = SketchOfKeys(0, 2).Serialize();
  std::string swapped = bytes.substr(0, 5) + bytes.substr(13, 8) + bytes.substr(5, 8);
  EXPECT_FALSE(DistinctSketch::Parse(swapped).has_value());
  std::string repeated = bytes.substr(0, 5) + bytes.substr(5, 8) + bytes.substr(5, 8);
  EXPECT_FALSE(DistinctSketch::Parse(repeated).has_value());
}

TEST(DistinctSketchParse, RejectsCountAboveTheLimit) {
  constexpr std::uint32_t kCount = DistinctSketch::kExactLimit + 1;
  std::string bytes = "\x01";
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>(kCount >> (8 * i)));
  for (std::uint64_t hash = 1; hash <= kCount; ++hash) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>(hash >> (8 * i)));
  }
  EXPECT_FALSE(DistinctSketch::Parse(bytes).has_value());
  // A count near 2^32 with a short body must not overflow the length check.
  EXPECT_FALSE(DistinctSketch::Parse(std::string("\x01\xff\xff\xff\xff", 5)).has_value());
}

}  // namespace
}  // namespace sightline::core
