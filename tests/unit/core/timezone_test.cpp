#include "core/timezone.h"

#include <gtest/gtest.h>

#include <string_view>

namespace sightline::core {
namespace {

TEST(IsKnownTimeZone, AcceptsZonesOfTheTzDatabase) {
  for (std::string_view zone :
       {"UTC", "Europe/Berlin", "Asia/Kathmandu", "America/Argentina/Buenos_Aires",
        "America/New_York", "Etc/GMT+5"}) {
    EXPECT_TRUE(IsKnownTimeZone(zone)) << zone;
  }
}

TEST(IsKnownTimeZone, RejectsUnknownNames) {
  for (std::string_view zone :
       {"", "Mars/Base", "Europe/Berlín", "europe", "Europe/", "Europe/Berlin ", "Asia"}) {
    EXPECT_FALSE(IsKnownTimeZone(zone)) << zone;
  }
}

TEST(IsKnownTimeZone, RejectsPathsOutsideTheDatabase) {
  for (std::string_view zone : {"../etc/passwd", "/etc/passwd", "Europe/../../../etc/passwd",
                                "Europe//Berlin", "./UTC", "Europe\\Berlin"}) {
    EXPECT_FALSE(IsKnownTimeZone(zone)) << zone;
  }
}

TEST(IsKnownTimeZone, RejectsDatabaseFilesThatAreNotZones) {
  for (std::string_view zone : {"posixrules", "zone.tab", "zone1970.tab", "iso3166.tab",
                                "tzdata.zi", "leapseconds", "posix/UTC", "right/UTC"}) {
    EXPECT_FALSE(IsKnownTimeZone(zone)) << zone;
  }
}

// BUG (core/timezone.cpp, IsSafeName): Debian's /usr/share/zoneinfo/localtime is a symlink to
// /etc/localtime, a TZif file, so the server's own local zone is accepted under a name that is
// not an IANA zone. Enable once IsSafeName rejects it (every IANA name starts with A-Z).
TEST(IsKnownTimeZone, RejectsTheLocaltimeLink) {
  EXPECT_FALSE(IsKnownTimeZone("localtime"));
}

}  // namespace
}  // namespace sightline::core
