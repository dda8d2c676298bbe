#include "app/data_paths.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <fstream>

namespace sightline::app {
namespace {

namespace fs = std::filesystem;

class DataPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("sightline-data-paths-" + std::to_string(::getpid()));
    fs::create_directories(root_ / "bin");
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(DataPathsTest, TheExecutableDirectoryIsThisTestBinarys) {
  const fs::path dir = ExecutableDir();
  ASSERT_TRUE(dir.is_absolute());
  EXPECT_TRUE(fs::exists(dir / "unit_tests")) << dir;
}

TEST_F(DataPathsTest, AnInstalledFileIsFoundBesideTheExecutable) {
  fs::create_directories(root_ / "share" / "sightline" / "geoip");
  const auto dirs = DataDirsBeside(root_ / "bin");
  EXPECT_EQ(FindDataFile(dirs, "geoip"), root_ / "share" / "sightline" / "geoip");
  EXPECT_EQ(FindDataFile(dirs, "absent"), std::nullopt);
}

TEST_F(DataPathsTest, TheBuildTreeLayoutIsFoundWhenNothingIsInstalled) {
  fs::create_directories(root_ / "bin" / "share" / "sightline" / "geoip");
  EXPECT_EQ(FindDataFile(DataDirsBeside(root_ / "bin"), "geoip"),
            root_ / "bin" / "share" / "sightline" / "geoip");
}

TEST_F(DataPathsTest, ALinkToAnUninstalledDatabaseIsSkipped) {
  fs::create_directories(root_ / "bin" / "share" / "sightline");
  fs::create_directory_symlink(root_ / "missing", root_ / "bin" / "share" / "sightline" / "geoip");
  EXPECT_EQ(FindDataFile(DataDirsBeside(root_ / "bin"), "geoip"), std::nullopt);
}

TEST_F(DataPathsTest, AnExplicitGeoipOptionWins) {
  std::array<char*, 2> args{const_cast<char*>("--geoip"), const_cast<char*>("/opt/geo.mmdb")};
  auto options = ParseOptions(ServeOptionDefs(), args);
  ASSERT_TRUE(options.has_value());
  EXPECT_EQ(GeoipPath(*options), "/opt/geo.mmdb");
}

}  // namespace
}  // namespace sightline::app
