#include "core/timezone.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace sightline::core {
namespace {

bool IsSafeName(std::string_view name) {
  // Every zone and link name starts with an upper-case letter; the database's other files
  // ("localtime", "posixrules", "zone.tab", "leap-seconds.list") do not.
  if (name.empty() || name.size() > 64 || name.front() < 'A' || name.front() > 'Z' ||
      name.back() == '/') {
    return false;
  }
  if (name.find("..") != std::string_view::npos || name.find("//") != std::string_view::npos) {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '/' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return name.find('.') == std::string_view::npos;
}

std::filesystem::path DatabaseDirectory() {
  if (const char* dir = std::getenv("TZDIR"); dir && *dir) return dir;
  return "/usr/share/zoneinfo";
}

}  // namespace

bool IsKnownTimeZone(std::string_view name) {
  if (!IsSafeName(name)) return false;
  const std::filesystem::path path = DatabaseDirectory() / std::string(name);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, 4);
  return file.gcount() == 4 && std::string_view(magic, 4) == "TZif";
}

}  // namespace sightline::core
