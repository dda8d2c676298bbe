// Where `sightline` finds the data files it ships with (the geolocation database): beside its
// own executable, never relative to the working directory, so the binary runs from anywhere.
// The layouts, most specific first:
//   installed   <prefix>/bin/sightline  →  <prefix>/share/sightline/<file>
//   build tree  build/sightline         →  build/share/sightline/<file> (links CMake makes)
// Explicit options (--geoip, SIGHTLINE_GEOIP) win over both. Thread-safe (no state).
#pragma once

#include "app/options.h"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::app {

// The directory of the running executable, from /proc/self/exe; empty when it cannot be read.
std::filesystem::path ExecutableDir();

// The data directories of an executable in `exe_dir`, in the order they are searched.
std::vector<std::filesystem::path> DataDirsBeside(const std::filesystem::path& exe_dir);

// `relative` (a file or directory, e.g. "geoip") in the first of `dirs` that has it.
std::optional<std::filesystem::path> FindDataFile(std::span<const std::filesystem::path> dirs,
                                                  std::string_view relative);

// The geolocation database `serve` opens: --geoip / SIGHTLINE_GEOIP when given, else the
// installation's share/sightline/geoip; empty when there is neither.
std::string GeoipPath(const Options& options);

}  // namespace sightline::app
