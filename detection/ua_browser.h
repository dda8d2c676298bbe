// Internal to detection/: the browser (or in-app web view) a User-Agent names, and its version.
// Pure function; thread-safe.
#pragma once

#include <string_view>

#include "detection/ua_text.h"

namespace sightline::detection::ua {

struct BrowserGuess {
  std::string_view name = "unknown";  // a string literal
  std::string_view version;           // major.minor, a view into the UA text
  bool in_app = false;                // an app's web view (Facebook, Android "wv", Electron…)
};

// `os` is the already-detected operating system name ("iOS", "Android", …): Safari, Android
// Browser and the web views are told apart by platform.
BrowserGuess DetectBrowser(const UaText& ua, std::string_view os);

}  // namespace sightline::detection::ua
