#include "ingest/event_writer.h"

#include "core/crypto.h"
#include "core/logging.h"
#include "storage/event_repository.h"

#include <algorithm>
#include <map>

namespace sightline::ingest {

using core::Result;

std::size_t IngestBatch::RowCount() const {
  return events.size() + bot_requests.size() + notifications.size() + identities.size() + 1;
}

EventWriter::EventWriter(storage::Store& store, WriterOptions options)
    : store_(store), options_(options), thread_([this] { Run(); }) {}

EventWriter::~EventWriter() { Stop(); }

void EventWriter::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::size_t EventWriter::queued_rows() const {
  std::lock_guard lock(mutex_);
  return queued_rows_;
}

bool EventWriter::Submit(IngestBatch batch, CommitCallback done) {
  const std::size_t rows = batch.RowCount();
  {
    std::lock_guard lock(mutex_);
    // An empty queue always takes the batch, so a batch larger than the bound is not refused
    // forever; otherwise the bound holds.
    if (stopping_ || (queued_rows_ > 0 && queued_rows_ + rows > options_.max_queued_rows)) {
      return false;
    }
    queued_rows_ += rows;
    queue_.push_back({std::move(batch), std::move(done)});
  }
  wake_.notify_one();
  return true;
}

// Everything queued now, up to the per-commit bound: under load a commit carries many
// requests, when idle it carries one and adds no delay.
std::vector<EventWriter::Item> EventWriter::TakeNext() {
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
  std::vector<Item> items;
  std::size_t rows = 0;
  while (!queue_.empty() && (items.empty() || rows < options_.max_rows_per_commit)) {
    rows += queue_.front().batch.RowCount();
    items.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  queued_rows_ -= rows;
  return items;
}

void EventWriter::Run() {
  for (;;) {
    std::vector<Item> items = TakeNext();
    if (items.empty()) return;  // stopping and drained
    std::vector<Item*> all;
    for (auto& item : items) all.push_back(&item);
    Result<void> outcome = Commit(all);
    if (!outcome && items.size() > 1) {
      // One bad request must not fail the others: commit each on its own.
      for (auto& item : items) {
        std::vector<Item*> one{&item};
        item.done(Commit(one));
      }
      continue;
    }
    if (!outcome) {
      core::Log(core::LogLevel::kError, "ingestion commit failed",
                {{"code", outcome.error().info().id}, {"internal", outcome.error().internal()}});
    }
    for (auto& item : items) item.done(outcome);
  }
}

Result<void> EventWriter::AssignSessions(storage::Transaction& tx,
                                         std::vector<storage::EventRecord>& events) {
  std::map<std::pair<std::string, std::string>, std::vector<storage::EventRecord*>> visitors;
  for (auto& event : events) {
    // Events without ids form visits under their daily id, as Plausible's do (docs/metrics.md).
    const auto& key = event.anonymous_id ? event.anonymous_id
                      : event.user_id    ? event.user_id
                                         : event.daily_visitor;
    if (key) visitors[{event.project_id, *key}].push_back(&event);
  }
  const std::int64_t gap = options_.session_inactivity_ms;
  for (auto& [visitor, list] : visitors) {
    std::stable_sort(list.begin(), list.end(), [](auto* a, auto* b) {
      return a->occurred_at < b->occurred_at;
    });
    // The stored last_seen may be later than this batch (events arriving out of order): the
    // walk starts from it, so it never moves back and a straddling batch continues correctly.
    std::int64_t last_seen = 0;
    auto first = tx.events().TouchVisitorSession(visitor.first, visitor.second, core::NewUuidV4(),
                                          list.front()->occurred_at, gap, &last_seen);
    if (!first) return first.error();
    std::string session = std::move(*first);
    for (auto* event : list) {
      if (event->occurred_at - last_seen >= gap) session = core::NewUuidV4();
      last_seen = std::max(last_seen, event->occurred_at);
      event->session_id = session;
    }
    if (list.size() > 1) {
      auto stored =
          tx.events().PutVisitorSession(visitor.first, visitor.second, session, last_seen);
      if (!stored) return stored.error();
    }
  }
  return {};
}

Result<void> EventWriter::Commit(std::vector<Item*>& items) {
  return store_.Write([&](storage::Transaction& tx) -> Result<void> {
    std::vector<storage::EventRecord> events;
    std::vector<storage::BotRequestRecord> bots;
    std::vector<storage::NotificationRecord> notifications;
    std::map<std::pair<std::string, std::string>, storage::UsageRecord> usage;
    for (Item* item : items) {
      events.insert(events.end(), item->batch.events.begin(), item->batch.events.end());
      bots.insert(bots.end(), item->batch.bot_requests.begin(), item->batch.bot_requests.end());
      notifications.insert(notifications.end(), item->batch.notifications.begin(),
                           item->batch.notifications.end());
      for (const auto& identity : item->batch.identities) {
        if (auto put = tx.events().PutIdentity(identity); !put) return put;
      }
      for (const auto& delta : item->batch.usage) {
        auto& total = usage[{delta.project_id, delta.month}];
        total.project_id = delta.project_id;
        total.month = delta.month;
        total.human_events += delta.human_events;
        total.bot_events += delta.bot_events;
      }
    }
    if (auto r = AssignSessions(tx, events); !r) return r;
    if (auto r = tx.events().InsertEvents(events); !r) return r;
    if (auto r = tx.events().InsertBotRequests(bots); !r) return r;
    if (auto r = tx.events().InsertNotifications(notifications); !r) return r;
    for (const auto& [key, total] : usage) {
      if (auto r = tx.events().AddUsage(total); !r) return r;
    }
    return {};
  });
}

}  // namespace sightline::ingest
