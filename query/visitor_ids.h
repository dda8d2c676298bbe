// Visitors as small integers: each distinct visitor id gets the next number the first time it
// is seen, so the sets of visitors an evaluation keeps per row hold integers, not strings.
// One per query; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::query {

class VisitorIds {
 public:
  // The visitor's number: 0 for the first visitor seen, 1 for the next, and so on.
  std::uint32_t Of(std::string_view visitor);
  // How many distinct visitors have been seen.
  std::size_t size() const { return starts_.size() - 1; }

 private:
  // An open-addressing table (one probe is one cache line, where a node-based map takes
  // three) with the visitors' bytes kept apart, one after another.
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t number = 0;  // the visitor's number + 1; 0: empty
  };
  std::string_view Visitor(std::uint32_t number) const;
  void Grow();

  std::vector<Slot> slots_;  // a power of two, at most half full
  std::string bytes_;
  std::vector<std::size_t> starts_ = {0};  // where each visitor's bytes start, and the end
};

}  // namespace sightline::query
