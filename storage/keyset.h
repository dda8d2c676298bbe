// A page of a list that is ordered by (time, id): the rows after the previous page's last row
// (before it, for a list newest first), at most `limit`. The default is the whole list.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace sightline::storage {

struct KeysetPage {
  std::optional<std::pair<std::int64_t, std::string>> after;  // (time, id) of the last row seen
  std::int64_t limit = std::numeric_limits<std::int64_t>::max();
};

}  // namespace sightline::storage
