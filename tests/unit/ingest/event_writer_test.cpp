#include "ingest/event_writer.h"

#include "core/crypto.h"
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
  auto events = store.Read([](storage::Repository& repo) { return repo.ListRecentEvents("p-1", 10000); });
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
    (void)(*other)->Write([&](storage::Repository&) -> Result<void> {
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
