// IANA time-zone names, checked against the system's tz database (Debian's tzdata, in
// /usr/share/zoneinfo or $TZDIR). Thread-safe.
#pragma once

#include <string_view>

namespace sightline::core {

// True for a canonical or link name the tz database knows ("UTC", "Europe/Berlin",
// "Asia/Kathmandu"); false for anything else, including paths that try to escape the
// database directory.
bool IsKnownTimeZone(std::string_view name);

}  // namespace sightline::core
