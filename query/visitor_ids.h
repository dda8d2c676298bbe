// Visitors as small integers: each distinct visitor id gets the next number the first time it
// is seen, so the sets of visitors an evaluation keeps per row hold integers, not strings.
// One per query; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sightline::query {

class VisitorIds {
 public:
  // The visitor's number: 0 for the first visitor seen, 1 for the next, and so on.
  std::uint32_t Of(std::string_view visitor);
  // How many distinct visitors have been seen.
  std::size_t size() const { return ids_.size(); }

 private:
  // Looks a view up without making a string of it.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ids_;
};

}  // namespace sightline::query
