// Internal to detection/: the device class, brand and model a User-Agent gives away on its own
// (client hints are fused later, in client_hints.cpp). Pure function; thread-safe.
#pragma once

#include <string_view>

#include "detection/ua_model.h"
#include "detection/ua_os.h"
#include "detection/ua_text.h"
#include "detection/user_agent.h"

namespace sightline::detection::ua {

struct DeviceGuess {
  DeviceType type = DeviceType::kUnknown;  // kUnknown when the UA does not settle it
  std::string_view brand;                  // a literal, or empty
  std::string_view model;                  // a view into the UA text, or a literal
};

DeviceGuess DetectDevice(const UaText& ua, const OsGuess& os, const ModelSpan& model);

}  // namespace sightline::detection::ua
