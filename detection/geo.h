// IP geolocation from MaxMind-format (.mmdb) databases read with libmaxminddb: the country
// (ISO 3166-1 alpha-2), region and city of an address. Understands MaxMind's GeoLite2/GeoIP2
// layout (country.iso_code, subdivisions.0.names.en, city.names.en) and the flat layout of the
// ip-location-db packages (country_code, state1, city). Several files may be loaded (those
// packages ship IPv4 and IPv6 separately); the first with an answer wins.
// Opened once; lookups are thread-safe.
#pragma once

#include "core/result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::detection {

struct GeoLocation {
  std::string country;  // "US"
  std::string region;   // "California"
  std::string city;     // "Mountain View"
};

class GeoDatabase {
 public:
  // `path` is an .mmdb file or a directory whose *.mmdb files are all loaded. VAL_003 when it
  // holds no readable database.
  static core::Result<std::unique_ptr<GeoDatabase>> Open(const std::string& path);
  ~GeoDatabase();
  GeoDatabase(const GeoDatabase&) = delete;
  GeoDatabase& operator=(const GeoDatabase&) = delete;

  std::optional<GeoLocation> Lookup(std::string_view ip) const;
  const std::vector<std::string>& files() const { return files_; }

 private:
  GeoDatabase() = default;
  struct Handle;
  std::vector<std::unique_ptr<Handle>> handles_;
  std::vector<std::string> files_;
};

}  // namespace sightline::detection
