// A mergeable distinct-count sketch, for "distinct visitors" in report rollups: exact up to
// kExactLimit hashes, then a dense HyperLogLog (2^16 one-byte registers, about 0.4% standard
// error) read with Otmar Ertl's improved raw estimator. Sketches are persisted, so StableHash64
// and the Serialize format are part of the storage contract.
// A value type: const methods may run concurrently; anything else needs external synchronisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::core {

// 64-bit hash of a visitor key, stable across versions, machines and processes (it is
// persisted): FNV-1a 64 over the bytes, then MurmurHash3's fmix64 finalizer so that the high
// bits (register index) and the low bits (rank) are both well mixed.
std::uint64_t StableHash64(std::string_view text);

class DistinctSketch {
 public:
  static constexpr int kPrecision = 16;             // HLL registers: 2^16, one byte each
  static constexpr std::size_t kExactLimit = 8192;  // exact hashes (64 KiB)

  // Counts one key, given as StableHash64(key); adding a hash again changes nothing.
  void Add(std::uint64_t hash);
  // This sketch becomes the union of both key sets: exact while the union fits in
  // kExactLimit, dense after. The order of merges does not change the result.
  void Merge(const DistinctSketch& other);
  // The exact number of distinct hashes while exact(), else the rounded HyperLogLog estimate.
  std::int64_t Estimate() const;
  // Whether Estimate() is exact; once dense, a sketch stays dense.
  bool exact() const;
  bool empty() const;

  // Little-endian bytes: 0x01, u32 count, count sorted u64 hashes (exact); or, dense, 0x03, a
  // base rank b, the 65536 registers as four bits each (r − b, two per byte, low nibble first,
  // 15 for r ≥ b + 15), u32 count and one (u16 index, u8 rank) per register at 15. Parse also
  // reads 0x02 and the 65536 registers as bytes (the first dense format).
  std::string Serialize() const;
  // The sketch Serialize wrote; "" is the empty sketch. nullopt for anything else (a wrong tag
  // or length, unsorted hashes, a register above 49): bytes from storage are not trusted.
  static std::optional<DistinctSketch> Parse(std::string_view bytes);

 private:
  static std::optional<DistinctSketch> ParseExact(std::string_view body);
  static std::optional<DistinctSketch> ParseDense(std::string_view body);
  static std::optional<DistinctSketch> ParsePacked(std::string_view body);
  std::string SerializePacked() const;

  bool dense() const { return !registers_.empty(); }
  bool settled() const { return sorted_count_ == hashes_.size(); }
  // Sorts pending hashes into the sorted prefix and turns dense when over kExactLimit.
  void Settle();
  // *this when settled, else a settled copy kept in `scratch` (const methods never mutate).
  const DistinctSketch& Settled(DistinctSketch& scratch) const;
  void ConvertToDense();
  void AddToRegisters(std::uint64_t hash);
  void UnionExact(const std::vector<std::uint64_t>& sorted_hashes);

  // Exact mode: hashes_[0, sorted_count_) is sorted and unique; the rest are pending Adds.
  std::vector<std::uint64_t> hashes_;
  std::size_t sorted_count_ = 0;
  // Dense mode iff non-empty (then hashes_ is empty).
  std::vector<std::uint8_t> registers_;
};

}  // namespace sightline::core
