// Small text helpers shared across layers.
#pragma once

#include <string>
#include <string_view>

namespace sightline::core {

// ASCII lower-casing (emails, slugs, header names); other bytes are kept as they are.
std::string ToLowerAscii(std::string_view text);

}  // namespace sightline::core
