#include "detection/geo.h"

#include <maxminddb.h>

#include <algorithm>
#include <filesystem>

namespace sightline::detection {

struct GeoDatabase::Handle {
  MMDB_s mmdb{};
  ~Handle() { MMDB_close(&mmdb); }
};

namespace {

// A UTF-8 string at `path` (a null-terminated list of keys) in the entry; empty if absent.
std::string Text(MMDB_entry_s* entry, const char* const* path) {
  MMDB_entry_data_s data{};
  if (MMDB_aget_value(entry, &data, path) != MMDB_SUCCESS || !data.has_data ||
      data.type != MMDB_DATA_TYPE_UTF8_STRING) {
    return {};
  }
  return std::string(data.utf8_string, data.data_size);
}

std::string FirstOf(MMDB_entry_s* entry, std::initializer_list<const char* const*> paths) {
  for (const char* const* path : paths) {
    std::string value = Text(entry, path);
    if (!value.empty()) return value;
  }
  return {};
}

constexpr const char* kFlatCountry[] = {"country_code", nullptr};
constexpr const char* kFlatRegion[] = {"state1", nullptr};
constexpr const char* kFlatCity[] = {"city", nullptr};
constexpr const char* kMaxMindCountry[] = {"country", "iso_code", nullptr};
constexpr const char* kMaxMindRegion[] = {"subdivisions", "0", "names", "en", nullptr};
constexpr const char* kMaxMindCity[] = {"city", "names", "en", nullptr};

std::vector<std::string> DatabaseFiles(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return {path};
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".mmdb") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

GeoDatabase::~GeoDatabase() = default;

core::Result<std::unique_ptr<GeoDatabase>> GeoDatabase::Open(const std::string& path) {
  std::unique_ptr<GeoDatabase> db(new GeoDatabase());
  for (const std::string& file : DatabaseFiles(path)) {
    auto handle = std::make_unique<Handle>();
    if (MMDB_open(file.c_str(), MMDB_MODE_MMAP, &handle->mmdb) != MMDB_SUCCESS) continue;
    db->handles_.push_back(std::move(handle));
    db->files_.push_back(file);
  }
  if (db->handles_.empty()) {
    return core::Error::Invalid("geoip", "No readable .mmdb database at '" + path + "'.");
  }
  return db;
}

std::optional<GeoLocation> GeoDatabase::Lookup(std::string_view ip) const {
  const std::string address(ip);
  for (const auto& handle : handles_) {
    int gai_error = 0;
    int mmdb_error = 0;
    MMDB_lookup_result_s result =
        MMDB_lookup_string(&handle->mmdb, address.c_str(), &gai_error, &mmdb_error);
    if (gai_error != 0 || mmdb_error != MMDB_SUCCESS || !result.found_entry) continue;
    GeoLocation location;
    location.country = FirstOf(&result.entry, {kFlatCountry, kMaxMindCountry});
    location.region = FirstOf(&result.entry, {kFlatRegion, kMaxMindRegion});
    location.city = FirstOf(&result.entry, {kFlatCity, kMaxMindCity});
    if (!location.country.empty()) return location;
  }
  return std::nullopt;
}

}  // namespace sightline::detection
