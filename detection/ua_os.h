// Internal to detection/: the operating system a User-Agent names, and its version.
// Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "detection/ua_text.h"

namespace sightline::detection::ua {

struct OsGuess {
  std::string_view name = "unknown";  // a string literal: "Windows", "macOS", "Android", …
  std::string version;                // dotted ("10.15.7"); Windows uses its marketing name
};

OsGuess DetectOs(const UaText& ua);

// "6.1" → "7", "10.0" → "10" …; empty for an unknown NT version.
std::string_view WindowsVersionName(std::string_view nt_version);

}  // namespace sightline::detection::ua
