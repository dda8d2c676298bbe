#include "ingest/daily_visitor_ids.h"

#include "tests/unit/testing/temp_store.h"

#include <gtest/gtest.h>

namespace sightline::ingest {
namespace {

constexpr std::int64_t kDay = 86'400'000;
constexpr std::int64_t kNoon = 20000 * kDay + kDay / 2;  // a UTC noon

std::string Id(DailyVisitorIds& ids, std::string_view ip, std::string_view ua, std::int64_t at,
               std::string_view project = "p-1") {
  auto id = ids.IdFor(project, ip, ua, at);
  EXPECT_TRUE(id.has_value());
  return id ? *id : std::string();
}

TEST(DailyVisitorIds, SameVisitorSameDaySameId) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  DailyVisitorIds ids(temp.store());
  const std::string id = Id(ids, "203.0.113.7", "Firefox", kNoon);
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(Id(ids, "203.0.113.7", "Firefox", kNoon + 3 * 3'600'000), id);
  // Another node (its own cache) sharing the store agrees: the salt is the store's.
  DailyVisitorIds other_node(temp.store());
  EXPECT_EQ(Id(other_node, "203.0.113.7", "Firefox", kNoon), id);
}

TEST(DailyVisitorIds, AnotherIpBrowserProjectOrDayIsAnotherVisitor) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  DailyVisitorIds ids(temp.store());
  const std::string id = Id(ids, "203.0.113.7", "Firefox", kNoon);
  EXPECT_NE(Id(ids, "203.0.113.8", "Firefox", kNoon), id);
  EXPECT_NE(Id(ids, "203.0.113.7", "Chrome", kNoon), id);
  EXPECT_NE(Id(ids, "203.0.113.7", "Firefox", kNoon, "p-2"), id);
  EXPECT_NE(Id(ids, "203.0.113.7", "Firefox", kNoon + kDay), id) << "a new salt at midnight";
  // Fields cannot shift into one another.
  EXPECT_NE(Id(ids, "1", "23", kNoon), Id(ids, "12", "3", kNoon));
}

}  // namespace
}  // namespace sightline::ingest
