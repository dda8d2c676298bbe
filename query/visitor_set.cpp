#include "query/visitor_set.h"

#include <algorithm>
#include <limits>

namespace sightline::query {
namespace {

// No visitor has this number (VisitorIds numbers stay far below it).
constexpr std::uint32_t kFree = std::numeric_limits<std::uint32_t>::max();

// Where a number's probe starts: its bits spread by a multiplication (numbers come in order).
std::size_t Home(std::uint32_t visitor, std::size_t mask) {
  return static_cast<std::size_t>((visitor * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
}

}  // namespace

void VisitorSet::Insert(std::uint32_t visitor) {
  if (dense_) {
    SetBit(visitor);
    return;
  }
  if (2 * (size_ + 1) > sparse_.size()) GrowSparse();
  AddSparse(visitor);
  largest_ = std::max(largest_, visitor);
  // The bitmap up to the largest number would take no more bits than the table does.
  if (sparse_.size() * 32 >= std::size_t{largest_} + 1) MakeDense();
}

void VisitorSet::AddSparse(std::uint32_t visitor) {
  const std::size_t mask = sparse_.size() - 1;
  for (std::size_t i = Home(visitor, mask);; i = (i + 1) & mask) {
    if (sparse_[i] == visitor) return;
    if (sparse_[i] == kFree) {
      sparse_[i] = visitor;
      ++size_;
      return;
    }
  }
}

void VisitorSet::GrowSparse() {
  std::vector<std::uint32_t> old(std::max<std::size_t>(8, 2 * sparse_.size()), kFree);
  old.swap(sparse_);
  size_ = 0;
  for (const std::uint32_t visitor : old) {
    if (visitor != kFree) AddSparse(visitor);
  }
}

void VisitorSet::MakeDense() {
  dense_ = true;
  size_ = 0;
  for (const std::uint32_t visitor : sparse_) {
    if (visitor != kFree) SetBit(visitor);
  }
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
