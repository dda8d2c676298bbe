// The distinct visitors of one row of an answer, by their VisitorIds numbers: a hash set while
// few, a bitmap over the numbers once the bitmap takes no more memory than the hash set would
// (the rows most visitors reach then cost a bit a visitor and no allocation per insert). Not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace sightline::query {

class VisitorSet {
 public:
  void Insert(std::uint32_t visitor);
  // How many distinct visitors were inserted.
  std::size_t size() const { return size_; }

 private:
  void SetBit(std::uint32_t visitor);

  std::unordered_set<std::uint32_t> sparse_;  // until the bitmap is used
  std::vector<std::uint64_t> bits_;           // once used; grows with the largest number
  bool dense_ = false;
  std::uint32_t largest_ = 0;
  std::size_t size_ = 0;
};

}  // namespace sightline::query
