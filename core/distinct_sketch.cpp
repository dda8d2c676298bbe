#include "core/distinct_sketch.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <utility>

namespace sightline::core {
namespace {

constexpr std::size_t kRegisterCount = std::size_t{1} << DistinctSketch::kPrecision;
// q = 64 - p hash bits feed the rank, so a register holds 0 (unset) up to q + 1.
constexpr int kRankBits = 64 - DistinctSketch::kPrecision;
constexpr int kMaxRank = kRankBits + 1;
// Below this many pending hashes Add does not bother sorting.
constexpr std::size_t kMinPendingBatch = 64;

constexpr char kExactTag = 0x01;
constexpr char kDenseTag = 0x02;        // one byte per register (read, no longer written)
constexpr char kPackedDenseTag = 0x03;  // four bits per register above a base, and overflows
constexpr int kNibbleOverflow = 15;
constexpr std::size_t kCountBytes = 4;
constexpr std::size_t kHashBytes = 8;

std::uint64_t Fmix64(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

void PutLittleEndian(std::string& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

// REQUIRES: in.size() >= bytes.
std::uint64_t ByteSwap64(std::uint64_t value) {
  std::uint64_t swapped = 0;
  for (int i = 0; i < 8; ++i) swapped = swapped << 8 | ((value >> (8 * i)) & 0xFF);
  return swapped;
}

std::uint64_t ReadLittleEndian(std::string_view in, std::size_t bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(in[i])} << (8 * i);
  }
  return value;
}

// A fixed trip count and non-aliasing pointers let GCC vectorise this at -O2: its "very cheap"
// cost model allows neither a scalar epilogue nor a runtime alias check.
void MaxRegisters(std::uint8_t* __restrict into, const std::uint8_t* __restrict from) {
  for (std::size_t i = 0; i < kRegisterCount; ++i) into[i] = std::max(into[i], from[i]);
}

// Ertl (2017), section 4: sigma(x) = x + sum_{k>=1} x^(2^k) 2^(k-1), summed until it stops
// changing in double precision.
double Sigma(double x) {
  if (x == 1.0) return std::numeric_limits<double>::infinity();
  double y = 1.0;
  double z = x;
  double previous = 0.0;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z != previous);
  return z;
}

// Ertl (2017), section 4: tau(x) = (1 - x - sum_{k>=1} (1 - x^(2^-k))^2 2^-k) / 3.
double Tau(double x) {
  if (x == 0.0 || x == 1.0) return 0.0;
  double y = 1.0;
  double z = 1.0 - x;
  double previous = 0.0;
  do {
    x = std::sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
  } while (z != previous);
  return z / 3.0;
}

// Ertl's improved raw estimator: nearly unbiased over the whole range, with no bias tables
// and no switch to linear counting.
double ErtlEstimate(const std::vector<std::uint8_t>& registers) {
  // Four interleaved integer histograms: registers cluster on a few ranks, and one histogram
  // would make every increment wait for the previous one to the same counter.
  std::array<std::array<std::uint32_t, kMaxRank + 1>, 4> partial{};
  const std::size_t size = registers.size();
  for (std::size_t i = 0; i + 3 < size; i += 4) {
    ++partial[0][registers[i]];
    ++partial[1][registers[i + 1]];
    ++partial[2][registers[i + 2]];
    ++partial[3][registers[i + 3]];
  }
  for (std::size_t i = size - size % 4; i < size; ++i) ++partial[0][registers[i]];
  std::array<double, kMaxRank + 1> histogram{};
  for (std::size_t k = 0; k < histogram.size(); ++k) {
    histogram[k] = static_cast<double>(partial[0][k] + partial[1][k] + partial[2][k] +
                                       partial[3][k]);
  }
  const double m = static_cast<double>(kRegisterCount);
  double z = m * Tau(1.0 - histogram[kMaxRank] / m);
  for (int k = kRankBits; k >= 1; --k) z = 0.5 * (z + histogram[k]);
  z += m * Sigma(histogram[0] / m);
  return m * m / (2.0 * std::log(2.0) * z);
}

std::int64_t RoundEstimate(double estimate) {
  // Registers saturated at q + 1 (only reachable from crafted bytes) make z zero.
  constexpr double kMax = 9.2e18;
  if (!(estimate < kMax)) return std::numeric_limits<std::int64_t>::max();
  return std::llround(estimate);
}

}  // namespace

std::uint64_t StableHash64(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a 64 offset basis
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;  // FNV-1a 64 prime
  }
  return Fmix64(hash);
}

void DistinctSketch::Add(std::uint64_t hash) {
  if (dense()) {
    AddToRegisters(hash);
    return;
  }
  hashes_.push_back(hash);
  // Sorting in batches keeps Add amortised O(log n); as the pending tail never outgrows the
  // sorted prefix, memory stays within twice the dense size.
  if (hashes_.size() - sorted_count_ >= std::max(sorted_count_, kMinPendingBatch)) Settle();
}

void DistinctSketch::Merge(const DistinctSketch& other) {
  if (&other == this) return;  // a set's union with itself is itself
  DistinctSketch scratch;
  const DistinctSketch& rhs = other.Settled(scratch);
  Settle();
  if (rhs.dense()) {
    if (!dense()) ConvertToDense();
    MaxRegisters(registers_.data(), rhs.registers_.data());
  } else if (dense()) {
    for (const std::uint64_t hash : rhs.hashes_) AddToRegisters(hash);
  } else {
    UnionExact(rhs.hashes_);
  }
}

std::int64_t DistinctSketch::Estimate() const {
  DistinctSketch scratch;
  const DistinctSketch& settled = Settled(scratch);
  if (!settled.dense()) return static_cast<std::int64_t>(settled.hashes_.size());
  return RoundEstimate(ErtlEstimate(settled.registers_));
}

bool DistinctSketch::exact() const {
  if (dense()) return false;
  if (hashes_.size() <= kExactLimit) return true;  // duplicates aside, it already fits
  DistinctSketch scratch;
  return !Settled(scratch).dense();
}

// Dense sketches are never empty: Parse rejects all-zero registers, which nothing else makes.
bool DistinctSketch::empty() const { return !dense() && hashes_.empty(); }

std::string DistinctSketch::Serialize() const {
  DistinctSketch scratch;
  const DistinctSketch& settled = Settled(scratch);
  std::string out;
  if (settled.dense()) return settled.SerializePacked();
  out.reserve(1 + kCountBytes + kHashBytes * settled.hashes_.size());
  out.push_back(kExactTag);
  PutLittleEndian(out, settled.hashes_.size(), kCountBytes);
  for (const std::uint64_t hash : settled.hashes_) PutLittleEndian(out, hash, kHashBytes);
  return out;
}

std::optional<DistinctSketch> DistinctSketch::Parse(std::string_view bytes) {
  if (bytes.empty()) return DistinctSketch();
  switch (bytes.front()) {
    case kExactTag:
      return ParseExact(bytes.substr(1));
    case kDenseTag:
      return ParseDense(bytes.substr(1));
    case kPackedDenseTag:
      return ParsePacked(bytes.substr(1));
    default:
      return std::nullopt;
  }
}

std::optional<DistinctSketch> DistinctSketch::ParseExact(std::string_view body) {
  if (body.size() < kCountBytes) return std::nullopt;
  const std::uint64_t count = ReadLittleEndian(body, kCountBytes);
  // Checking the count first keeps the length product far from overflow.
  if (count > kExactLimit || body.size() != kCountBytes + kHashBytes * count) return std::nullopt;
  DistinctSketch sketch;
  sketch.hashes_.resize(count);
  // Reports parse megabytes of these: copy the little-endian words at once, then check them.
  // Not for an empty sketch: its vector's data() is null, and memcpy from or to null is
  // undefined even for zero bytes (UBSan, script/test).
  if (count > 0) std::memcpy(sketch.hashes_.data(), body.data() + kCountBytes, kHashBytes * count);
  if constexpr (std::endian::native == std::endian::big) {
    for (std::uint64_t& hash : sketch.hashes_) hash = ByteSwap64(hash);
  }
  // Strictly increasing, as Serialize writes them: the sorted-prefix invariant relies on it.
  for (std::size_t i = 1; i < count; ++i) {
    if (sketch.hashes_[i] <= sketch.hashes_[i - 1]) return std::nullopt;
  }
  sketch.sorted_count_ = sketch.hashes_.size();
  return sketch;
}

std::optional<DistinctSketch> DistinctSketch::ParseDense(std::string_view body) {
  if (body.size() != kRegisterCount) return std::nullopt;
  DistinctSketch sketch;
  sketch.registers_.assign(body.begin(), body.end());
  const auto& registers = sketch.registers_;
  if (std::any_of(registers.begin(), registers.end(), [](int r) { return r > kMaxRank; }) ||
      std::all_of(registers.begin(), registers.end(), [](int r) { return r == 0; })) {
    return std::nullopt;
  }
  return sketch;
}

// Registers cluster a few ranks above their minimum, so each is stored as four bits above
// that base (half the bytes); the rare register 15 or more above it reads 15 there and is
// listed with its value after the packed registers.
std::string DistinctSketch::SerializePacked() const {
  const std::uint8_t base = *std::min_element(registers_.begin(), registers_.end());
  std::string out;
  out.reserve(2 + kRegisterCount / 2 + kCountBytes);
  out.push_back(kPackedDenseTag);
  out.push_back(static_cast<char>(base));
  std::vector<std::size_t> overflows;
  for (std::size_t i = 0; i < kRegisterCount; i += 2) {
    int nibbles[2];
    for (std::size_t j = 0; j < 2; ++j) {
      nibbles[j] = registers_[i + j] - base;
      if (nibbles[j] >= kNibbleOverflow) {
        nibbles[j] = kNibbleOverflow;
        overflows.push_back(i + j);
      }
    }
    out.push_back(static_cast<char>(nibbles[0] | nibbles[1] << 4));
  }
  PutLittleEndian(out, overflows.size(), kCountBytes);
  for (std::size_t index : overflows) {
    PutLittleEndian(out, index, 2);
    out.push_back(static_cast<char>(registers_[index]));
  }
  return out;
}

std::optional<DistinctSketch> DistinctSketch::ParsePacked(std::string_view body) {
  constexpr std::size_t kPacked = kRegisterCount / 2;
  if (body.size() < 1 + kPacked + kCountBytes) return std::nullopt;
  const int base = static_cast<unsigned char>(body[0]);
  const std::string_view packed = body.substr(1, kPacked);
  std::string_view rest = body.substr(1 + kPacked);
  const std::uint64_t count = ReadLittleEndian(rest, kCountBytes);
  rest.remove_prefix(kCountBytes);
  if (base > kMaxRank || count > kRegisterCount || rest.size() != 3 * count) return std::nullopt;
  // Each packed byte decodes through a table built for this base: its two registers (clamped
  // one above the largest valid rank, so bad bytes stay detectable) and how many overflow.
  std::array<std::array<std::uint8_t, 2>, 256> pairs;
  std::array<std::uint8_t, 256> overflow_nibbles;
  for (int byte = 0; byte < 256; ++byte) {
    const int low = byte & 15;
    const int high = byte >> 4;
    pairs[byte] = {static_cast<std::uint8_t>(std::min(base + low, kMaxRank + 1)),
                   static_cast<std::uint8_t>(std::min(base + high, kMaxRank + 1))};
    overflow_nibbles[byte] =
        static_cast<std::uint8_t>((low == kNibbleOverflow) + (high == kNibbleOverflow));
  }
  DistinctSketch sketch;
  sketch.registers_.resize(kRegisterCount);
  auto& registers = sketch.registers_;
  std::size_t overflows = 0;
  for (std::size_t i = 0; i < kPacked; ++i) {
    const auto byte = static_cast<unsigned char>(packed[i]);
    registers[2 * i] = pairs[byte][0];
    registers[2 * i + 1] = pairs[byte][1];
    overflows += overflow_nibbles[byte];
  }
  // Every register marked as overflowing is listed once, in order, above the nibble's reach.
  if (overflows != count) return std::nullopt;
  std::size_t previous = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t index = ReadLittleEndian(rest.substr(3 * k), 2);
    const int value = static_cast<unsigned char>(rest[3 * k + 2]);
    const auto byte = static_cast<unsigned char>(packed[index / 2]);
    const int nibble = index % 2 == 0 ? byte & 15 : byte >> 4;
    if ((k > 0 && index <= previous) || nibble != kNibbleOverflow ||
        value < base + kNibbleOverflow || value > kMaxRank) {
      return std::nullopt;
    }
    registers[index] = static_cast<std::uint8_t>(value);
    previous = index;
  }
  if (std::any_of(registers.begin(), registers.end(), [](int r) { return r > kMaxRank; }) ||
      std::all_of(registers.begin(), registers.end(), [](int r) { return r == 0; })) {
    return std::nullopt;
  }
  return sketch;
}

void DistinctSketch::Settle() {
  if (settled()) return;
  const auto pending = hashes_.begin() + static_cast<std::ptrdiff_t>(sorted_count_);
  std::sort(pending, hashes_.end());
  std::inplace_merge(hashes_.begin(), pending, hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  sorted_count_ = hashes_.size();
  if (hashes_.size() > kExactLimit) ConvertToDense();
}

const DistinctSketch& DistinctSketch::Settled(DistinctSketch& scratch) const {
  if (settled()) return *this;
  scratch = *this;
  scratch.Settle();
  return scratch;
}

void DistinctSketch::ConvertToDense() {
  registers_.assign(kRegisterCount, 0);
  for (const std::uint64_t hash : hashes_) AddToRegisters(hash);
  std::vector<std::uint64_t>().swap(hashes_);  // give the exact set's memory back
  sorted_count_ = 0;
}

void DistinctSketch::AddToRegisters(std::uint64_t hash) {
  const std::size_t index = hash >> kRankBits;
  const std::uint64_t rest = hash << kPrecision;  // the low q bits, moved to the top
  // countl_zero(0) is 64; HyperLogLog caps the rank of an all-zero remainder at q + 1.
  const auto rank = static_cast<std::uint8_t>(std::min(std::countl_zero(rest) + 1, kMaxRank));
  registers_[index] = std::max(registers_[index], rank);
}

void DistinctSketch::UnionExact(const std::vector<std::uint64_t>& sorted_hashes) {
  std::vector<std::uint64_t> merged;
  merged.reserve(hashes_.size() + sorted_hashes.size());
  std::set_union(hashes_.begin(), hashes_.end(), sorted_hashes.begin(), sorted_hashes.end(),
                 std::back_inserter(merged));
  hashes_ = std::move(merged);
  sorted_count_ = hashes_.size();
  if (hashes_.size() > kExactLimit) ConvertToDense();
}

}  // namespace sightline::core
