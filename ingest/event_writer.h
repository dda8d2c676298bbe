// The durable write path of ingestion: request handlers hand their rows to this writer, which
// commits many requests' rows in one transaction (group commit) and only then calls each
// request back, so a 202 always means "committed". One writer thread per process; the queue
// is bounded and Submit refuses when it is full (the caller answers 503) instead of growing
// without limit. Thread-safe.
#pragma once

#include "core/result.h"
#include "storage/event_records.h"
#include "storage/store.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sightline::ingest {

// The rows of one request.
struct IngestBatch {
  std::vector<storage::EventRecord> events;
  std::vector<storage::BotRequestRecord> bot_requests;
  std::vector<storage::NotificationRecord> notifications;
  std::vector<storage::IdentityRecord> identities;
  std::vector<storage::UsageRecord> usage;  // deltas, added to the month's counters
  std::size_t RowCount() const;
};

using CommitCallback = std::function<void(core::Result<void>)>;

struct WriterOptions {
  std::size_t max_queued_rows = 100000;  // Submit refuses beyond this
  std::size_t max_rows_per_commit = 5000;
  std::int64_t session_inactivity_ms = 30 * 60 * 1000;
};

class EventWriter {
 public:
  EventWriter(storage::Store& store, WriterOptions options);
  ~EventWriter();  // commits what is queued, then stops
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  // Queues `batch`; `done` runs on the writer thread once the transaction holding it committed
  // (or failed). Events with an anonymous or user id get their session id inside that
  // transaction. Returns false, queuing nothing and never calling `done`, when the queue is
  // full.
  bool Submit(IngestBatch batch, CommitCallback done);
  void Stop();
  std::size_t queued_rows() const;
  // The store the rows go to.
  storage::Store& store() const { return store_; }

 private:
  struct Item {
    IngestBatch batch;
    CommitCallback done;
  };
  void Run();
  std::vector<Item> TakeNext();
  core::Result<void> Commit(std::vector<Item*>& items);
  // Gives every event with a visitor key its session, visitor by visitor in time order: one
  // atomic upsert decides the first event's session (and locks the visitor's row), the rest are
  // decided here, and one write stores the visitor's final state.
  core::Result<void> AssignSessions(storage::Transaction& tx,
                                    std::vector<storage::EventRecord>& events);

  storage::Store& store_;
  const WriterOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> queue_;
  std::size_t queued_rows_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace sightline::ingest
