#include "ingest/event_writer.h"

#include "core/crypto.h"
#include "storage/event_repository.h"
#include "tests/unit/testing/temp_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace sightline::ingest {
namespace {

using core::Result;

IngestBatch OneEvent(int i) {
  IngestBatch batch;
  storage::EventRecord event;
  event.id = core::NewUuidV4();
  event.project_id = "p-1";
  event.occurred_at = event.received_at = 1767225600000 + i;
  event.event = "e" + std::to_string(i);
  event.channel = "c";
  batch.events.push_back(event);
  return batch;
}

std::size_t StoredEvents(storage::Store& store) {
  auto events = store.Read(
      [](storage::Transaction& tx) { return tx.events().ListRecentEvents("p-1", 10000); });
  return events ? events->size() : 0;
}

TEST(EventWriter, CommitsBeforeItCallsBack) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  EventWriter writer(temp.store(), {});
  std::promise<bool> committed;
  ASSERT_TRUE(writer.Submit(OneEvent(1), [&](Result<void> r) {
    // The row is visible to another transaction by the time the callback runs.
    committed.set_value(r.has_value() && StoredEvents(temp.store()) == 1);
  }));
  EXPECT_TRUE(committed.get_future().get());
}

// A stalled store (another connection holds SQLite's write lock) fills the bounded queue:
// Submit refuses instead of growing, and everything it accepted commits once the store moves.
TEST(EventWriter, RefusesWhenFullAndCommitsEverythingItAccepted) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  storage::StoreOptions options;
  options.sqlite_path = temp.sqlite_path();
  auto other = storage::OpenStore(options);
  ASSERT_TRUE(other);
  std::promise<void> locked, release;
  std::thread holder([&] {
    (void)(*other)->Write([&](storage::Transaction&) -> Result<void> {
      locked.set_value();
      release.get_future().wait();
      return {};
    });
  });
  locked.get_future().wait();

  EventWriter writer(temp.store(), {.max_queued_rows = 10});
  std::atomic<int> succeeded{0}, failed{0};
  int accepted = 0;
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    if (writer.Submit(OneEvent(i), [&](Result<void> r) { (r ? succeeded : failed)++; })) {
      ++accepted;
    } else {
      refused = true;
    }
  }
  EXPECT_TRUE(refused) << "a bounded queue must refuse at some point";
  EXPECT_LT(accepted, 20);
  release.set_value();
  holder.join();
  writer.Stop();
  EXPECT_EQ(succeeded.load(), accepted);
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(StoredEvents(temp.store()), static_cast<std::size_t>(accepted));
}

TEST(EventWriter, StopCommitsWhatIsQueued) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  std::atomic<int> done{0};
  {
    EventWriter writer(temp.store(), {});
    for (int i = 0; i < 200; ++i) writer.Submit(OneEvent(i), [&](Result<void> r) { done += r ? 1 : 0; });
  }
  EXPECT_EQ(done.load(), 200);
  EXPECT_EQ(StoredEvents(temp.store()), 200u);
}

}  // namespace
}  // namespace sightline::ingest

namespace sightline::ingest {
namespace {

constexpr std::int64_t kMinute = 60 * 1000;
constexpr std::int64_t kStart = 1767225600000;

storage::EventRecord VisitorEvent(std::int64_t minute) {
  storage::EventRecord event = OneEvent(static_cast<int>(minute)).events.front();
  event.occurred_at = kStart + minute * kMinute;
  event.anonymous_id = "8b0c4a3e-5f1d-4c2a-9b7e-1f2d3c4b5a69";
  return event;
}

// Commits one batch of the visitor's events at `minutes` and returns their sessions in order.
std::vector<std::string> Commit(EventWriter& writer, storage::Store& store,
                                std::vector<std::int64_t> minutes) {
  IngestBatch batch;
  for (auto m : minutes) batch.events.push_back(VisitorEvent(m));
  std::vector<std::string> ids;
  for (const auto& e : batch.events) ids.push_back(e.id);
  std::promise<void> done;
  EXPECT_TRUE(writer.Submit(std::move(batch), [&](core::Result<void> r) {
    EXPECT_TRUE(r.has_value());
    done.set_value();
  }));
  done.get_future().wait();
  auto events = store.Read(
      [](storage::Transaction& tx) { return tx.events().ListRecentEvents("p-1", 1000); });
  std::vector<std::string> sessions;
  for (const auto& id : ids) {
    for (const auto& e : *events) {
      if (e.id == id) sessions.push_back(e.session_id.value_or(""));
    }
  }
  return sessions;
}

TEST(EventWriterSessions, ALateOldBatchKeepsTheSessionAndNeverMovesLastSeenBack) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  EventWriter writer(temp.store(), {});
  const std::string current = Commit(writer, temp.store(), {100}).at(0);
  // Events from minutes 10 and 20 arrive late: the visitor's session goes on...
  EXPECT_EQ(Commit(writer, temp.store(), {10, 20}), (std::vector<std::string>{current, current}));
  // ...and last_seen is still minute 100, so minute 125 continues it too.
  EXPECT_EQ(Commit(writer, temp.store(), {125}).at(0), current);
}

TEST(EventWriterSessions, ABatchSplitsWhereThirtyMinutesOfInactivityLie) {
  testutil::TempStore temp;
  ASSERT_TRUE(temp.ok());
  EventWriter writer(temp.store(), {});
  const std::string first = Commit(writer, temp.store(), {50}).at(0);
  // Straddling the stored time: 40 and 60 continue; 95 comes 35 minutes after 60.
  const auto sessions = Commit(writer, temp.store(), {40, 60, 95});
  EXPECT_EQ(sessions.at(0), first);
  EXPECT_EQ(sessions.at(1), first);
  EXPECT_NE(sessions.at(2), first);
  EXPECT_EQ(Commit(writer, temp.store(), {100}).at(0), sessions.at(2)) << "the new one is current";
}

}  // namespace
}  // namespace sightline::ingest
