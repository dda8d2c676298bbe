// Giving free pages back after sealing: all of them, a step at a time, and none once the server
// is stopping (a backlog's gigabytes once kept SIGTERM waiting for minutes).
#include "app/event_sealing.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include "tests/unit/testing/temp_store.h"

namespace sightline::app {
namespace {

std::int64_t Pragma(storage::Store& store, const std::string& name) {
  std::int64_t value = -1;
  auto read = store.database().Transact(
      storage::TxMode::kAutocommit, [&](storage::SqlSession& session) -> core::Result<void> {
        auto rows = session.Query("PRAGMA " + name);
        if (!rows) return rows.error();
        value = rows->front().Int(0);
        return {};
      });
  EXPECT_TRUE(read);
  return value;
}

// About 10,000 pages (40 MB) freed: more than two steps give back.
void FreeManyPages(storage::Store& store) {
  auto done = store.database().Transact(
      storage::TxMode::kWrite, [](storage::SqlSession& session) -> core::Result<void> {
        if (auto made = session.ExecuteScript(
                "CREATE TABLE scratch (data BLOB); "
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) "
                "INSERT INTO scratch SELECT randomblob(4000) FROM n");
            !made) {
          return made.error();
        }
        return session.ExecuteScript("DROP TABLE scratch");
      });
  ASSERT_TRUE(done) << done.error().internal();
}

TEST(FreePages, AllAreGivenBackInSteps) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  FreeManyPages(temp.store());
  const std::int64_t freed = Pragma(temp.store(), "freelist_count");
  ASSERT_GT(freed, 2 * 4096);  // three steps
  const std::int64_t pages = Pragma(temp.store(), "page_count");
  std::atomic<bool> stopping = false;
  GiveBackFreePages(temp.store(), stopping);
  EXPECT_EQ(Pragma(temp.store(), "freelist_count"), 0);
  // The file shrinks by the free pages at least (their pointer-map pages go too).
  EXPECT_LE(Pragma(temp.store(), "page_count"), pages - freed);
}

TEST(FreePages, AStoppingServerGivesNoneBack) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  FreeManyPages(temp.store());
  const std::int64_t freed = Pragma(temp.store(), "freelist_count");
  std::atomic<bool> stopping = true;
  GiveBackFreePages(temp.store(), stopping);
  EXPECT_EQ(Pragma(temp.store(), "freelist_count"), freed);
}

}  // namespace
}  // namespace sightline::app
