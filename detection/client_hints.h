// Internal to detection/: reading User-Agent client hints (Sec-CH-UA-*) and fusing them with
// what the User-Agent string said. Pure functions; thread-safe.
//
// Precedence, strongest first (confidences from the spec):
//   Sec-CH-UA-Form-Factors                       → FORM_FACTORS 0.95
//   Sec-CH-UA-Mobile / -Platform settle the class → LOW_ENTROPY_HINTS 0.85
//   the UA settles it and the hints agree          → UA_FUSED 0.75 (0.60 while unresolved)
//   the UA alone                                   → UA_ONLY 0.75 (0.60 while unresolved)
//   no UA and no usable hint                       → NONE 0.30
// When the UA and Mobile/Platform disagree the hints win: the browser engine writes them,
// while UA strings are frozen, reduced or switched by "request desktop site". The UA still
// narrows what the hints allow ("?0" on Android is also a TV's answer), and a Sec-CH-UA-Model
// that names a known range ("SM-X710" is a tablet) settles the class; both count as UA_FUSED.
#pragma once

#include <string>
#include <string_view>

#include "detection/user_agent.h"

namespace sightline::detection::ua {

struct HintSignals {
  bool present = false;                           // any hint header carried a value
  DeviceType form_factor = DeviceType::kUnknown;  // from Sec-CH-UA-Form-Factors
  int mobile = -1;                                // Sec-CH-UA-Mobile: 1, 0, or -1 absent
  std::string platform;                           // unquoted: "Android", "Windows", …
  std::string platform_version;                   // unquoted: "15.0.0"
  std::string model;                              // unquoted: "Pixel 8"
  std::string browser;                            // most specific Sec-CH-UA brand, our name
  std::string browser_version;                    // its version (full list preferred)
};

HintSignals ReadHints(const ClientHints& hints);

// Fuses the device class. `ua_class` is what the User-Agent alone gave (kUnknown when
// unresolved); `has_user_agent` is false for an empty header.
struct DeviceVerdict {
  DeviceType type = DeviceType::kUnknown;
  SignalSource source = SignalSource::kNone;
  double confidence = 0.30;
};
DeviceVerdict FuseDevice(DeviceType ua_class, bool has_user_agent, const HintSignals& hints);

// Refines browser and OS fields of `info` from the brand list and platform hints (Windows 11,
// Brave, reduced "Android 10; K" UAs, the frozen macOS 10_15_7, …).
void RefineFromHints(const HintSignals& hints, UserAgentInfo& info);

}  // namespace sightline::detection::ua
