#include "app/data_paths.h"

#include <system_error>

namespace sightline::app {

std::filesystem::path ExecutableDir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

std::vector<std::filesystem::path> DataDirsBeside(const std::filesystem::path& exe_dir) {
  if (exe_dir.empty()) return {};
  return {exe_dir.parent_path() / "share" / "sightline", exe_dir / "share" / "sightline"};
}

std::optional<std::filesystem::path> FindDataFile(std::span<const std::filesystem::path> dirs,
                                                  std::string_view relative) {
  for (const std::filesystem::path& dir : dirs) {
    std::error_code ec;
    const std::filesystem::path candidate = dir / relative;
    // exists() follows links, so the build tree's link to an uninstalled database is skipped.
    if (std::filesystem::exists(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

std::string GeoipPath(const Options& options) {
  if (options.Has("geoip")) return options.Get("geoip");
  const auto found = FindDataFile(DataDirsBeside(ExecutableDir()), "geoip");
  return found ? found->string() : std::string();
}

}  // namespace sightline::app
