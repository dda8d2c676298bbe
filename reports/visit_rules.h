// What a pageview and a bounce are (docs/metrics.md): one definition, read by the rollups the
// reports are built from and by the query layer's evaluation, so both count the same visits the
// same way.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sightline::reports {

// The event a pageview is.
inline constexpr std::string_view kPageviewEvent = "screen_view";

// Events that do not engage: a visit of at most one pageview and only these is a bounce.
inline bool IsPassiveEvent(std::string_view name) {
  return name == kPageviewEvent || name == "session_start" || name == "scroll_depth";
}

inline bool IsBounce(std::int64_t pageviews, bool engaged) { return pageviews <= 1 && !engaged; }

// A visit's referrer as the reports and `query` count it (docs/reports.md, "Referrers"), from
// its first event's referrer URL and channel: the referrer's host without "www." — or "" when
// the visit came from no other site: no referrer, the site itself (channel Direct: ingestion
// found the referrer on the page's own host or a local one) or within `own_domains` (the
// project's `domains` setting).
std::string ReferrerDomain(std::string_view referrer, std::string_view channel,
                           std::span<const std::string> own_domains);

}  // namespace sightline::reports
