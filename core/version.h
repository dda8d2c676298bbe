// The server's release and the API revision it serves (`sightline version`, the OpenAPI
// document's info.version, MCP serverInfo and the server card).
#pragma once

#include <string_view>

namespace sightline::core {

inline constexpr std::string_view kServerVersion = "0.1.0";
inline constexpr std::string_view kApiVersion = "1.0.0";

}  // namespace sightline::core
