// Internal to detection/: the device class a hardware model name gives away, from naming
// conventions vendors publish (Samsung "SM-T…" tablets, Amazon "AFT…" Fire TV sticks, "…Pad",
// "… TV", a TV's screen size leading its model number, …). Pure function; thread-safe.
#pragma once

#include <optional>
#include <string_view>

#include "detection/user_agent.h"

namespace sightline::detection::ua {

// Empty when the name follows no known convention (the platform decides then); kUnknown when it
// names a device outside the form factors (a camera, a single-board computer). `model` is the
// name as written (the screen-size rule reads letter case), `lower_model` the same name
// lower-cased.
std::optional<DeviceType> ClassifyModel(std::string_view model, std::string_view lower_model);

}  // namespace sightline::detection::ua
