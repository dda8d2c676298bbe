// Visitors as small integers: each distinct visitor id gets the next number the first time it
// is seen, so the sets of visitors an evaluation keeps per row hold integers, not strings.
//
// A visitor is known by a 96-bit hash of its id (MurmurHash3's 128-bit form, cut), as
// ClickHouse's uniqExact knows strings by a 128-bit hash: one probe of a 16-byte slot, where
// comparing the ids themselves took two more reads from memory per visit. Two of a query's
// visitors share a hash with a chance below 10^-14 even at its 20-million-row limit
// (n² / 2^97), far below the 64-bit hashes the rollups' visitor tables already count by.
// One per query; not thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/huge_pages.h"

namespace sightline::query {

// MurmurHash3 x64 128 of `bytes`: its two 64-bit halves (h1, h2). Exposed for its test.
struct Hash128 {
  std::uint64_t low, high;
};
Hash128 Murmur3Hash128(std::string_view bytes, std::uint32_t seed = 0);

class VisitorIds {
 public:
  // The visitor's number: 0 for the first visitor seen, 1 for the next, and so on.
  std::uint32_t Of(std::string_view visitor);
  // The same for a visitor id that is a canonical UUID (lowercase, with dashes) given as its
  // 16 bytes, as column blocks keep such ids (storage/blocks/column_block.h): it is the same
  // visitor as its text given to Of, so a query may read both forms.
  std::uint32_t OfPackedUuid(std::string_view bytes);
  // How many distinct visitors have been seen.
  std::size_t size() const { return size_; }

 private:
  // An open-addressing table, at most half full; a probe reads one slot.
  struct Slot {
    std::uint64_t low = 0;
    std::uint32_t high = 0;
    std::uint32_t number = 0;  // the visitor's number + 1; 0: empty
  };
  std::uint32_t OfHash(const Hash128& hash);
  void Grow();

  std::vector<Slot, core::HugePageAllocator<Slot>> slots_;  // a power of two
  std::size_t size_ = 0;
};

}  // namespace sightline::query
