#include "query/visitor_ids.h"

namespace sightline::query {

std::uint32_t VisitorIds::Of(std::string_view visitor) {
  if (const auto it = ids_.find(visitor); it != ids_.end()) return it->second;
  const auto next = static_cast<std::uint32_t>(ids_.size());
  ids_.emplace(std::string(visitor), next);
  return next;
}

}  // namespace sightline::query
