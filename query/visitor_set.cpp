#include "query/visitor_set.h"

#include <algorithm>

namespace sightline::query {
namespace {

// About what a hash set spends on an element (its node and its share of the buckets), in bits.
constexpr std::size_t kSparseBitsPerVisitor = 32 * 8;

}  // namespace

void VisitorSet::Insert(std::uint32_t visitor) {
  if (dense_) {
    SetBit(visitor);
    return;
  }
  if (!sparse_.insert(visitor).second) return;
  ++size_;
  largest_ = std::max(largest_, visitor);
  if (sparse_.size() * kSparseBitsPerVisitor < std::size_t{largest_} + 1) return;
  dense_ = true;
  size_ = 0;
  for (const std::uint32_t inserted : sparse_) SetBit(inserted);
  sparse_ = {};
}

void VisitorSet::SetBit(std::uint32_t visitor) {
  const std::size_t word = visitor / 64;
  // Grown by doubling, so a row reaching ever newer visitors reallocates rarely.
  if (word >= bits_.size()) bits_.resize(std::max(word + 1, 2 * bits_.size()));
  const std::uint64_t bit = std::uint64_t{1} << (visitor % 64);
  if (bits_[word] & bit) return;
  bits_[word] |= bit;
  ++size_;
}

}  // namespace sightline::query
