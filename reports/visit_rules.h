// What a pageview and a bounce are (docs/metrics.md): one definition, read by the rollups the
// reports are built from and by the query layer's evaluation, so both count the same visits the
// same way.
#pragma once

#include <cstdint>
#include <string_view>

namespace sightline::reports {

// The event a pageview is.
inline constexpr std::string_view kPageviewEvent = "screen_view";

// Events that do not engage: a visit of at most one pageview and only these is a bounce.
inline bool IsPassiveEvent(std::string_view name) {
  return name == kPageviewEvent || name == "session_start" || name == "scroll_depth";
}

inline bool IsBounce(std::int64_t pageviews, bool engaged) { return pageviews <= 1 && !engaged; }

}  // namespace sightline::reports
