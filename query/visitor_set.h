// The distinct visitors of one row of an answer, by their VisitorIds numbers: a flat hash set
// (open addressing, at most half full) while few, a bitmap over the numbers once the bitmap
// takes no more memory than the hash set would (the rows most visitors reach then cost a bit a
// visitor). Neither allocates per visitor. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sightline::query {

class VisitorSet {
 public:
  void Insert(std::uint32_t visitor);
  // How many distinct visitors were inserted.
  std::size_t size() const { return size_; }

 private:
  void SetBit(std::uint32_t visitor);
  void AddSparse(std::uint32_t visitor);
  void GrowSparse();
  void MakeDense();

  std::vector<std::uint32_t> sparse_;  // until the bitmap is used: a power of two, kFree free
  std::vector<std::uint64_t> bits_;    // once used; grows with the largest number
  bool dense_ = false;
  std::uint32_t largest_ = 0;
  std::size_t size_ = 0;
};

}  // namespace sightline::query
