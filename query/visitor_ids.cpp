#include "query/visitor_ids.h"

#include <algorithm>
#include <functional>

namespace sightline::query {

std::uint32_t VisitorIds::Of(std::string_view visitor) {
  if (2 * (size() + 1) > slots_.size()) Grow();
  const std::uint64_t hash = std::hash<std::string_view>{}(visitor);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.number == 0) {
      const auto number = static_cast<std::uint32_t>(size());
      slot = {hash, number + 1};
      bytes_.append(visitor);
      starts_.push_back(bytes_.size());
      return number;
    }
    if (slot.hash == hash && Visitor(slot.number - 1) == visitor) return slot.number - 1;
  }
}

std::string_view VisitorIds::Visitor(std::uint32_t number) const {
  return std::string_view(bytes_).substr(starts_[number], starts_[number + 1] - starts_[number]);
}

void VisitorIds::Grow() {
  std::vector<Slot> old(std::max<std::size_t>(1024, 2 * slots_.size()));
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.number == 0) continue;
    std::size_t i = slot.hash & mask;
    while (slots_[i].number != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace sightline::query
