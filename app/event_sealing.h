// Seals inbox events into the compact store's column blocks in the background (serve runs
// this in a PeriodicTask; docs/storage.md, "Event blocks"): each project's events received
// more than --seal-after ago, a bounded batch per write transaction so that ingestion's
// commits wait at most one batch. Any node may run it: a project's sealing holds its lock
// (event_seals) for the batch, and a second node finds the rows already gone.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "core/clock.h"
#include "storage/store.h"

namespace sightline::app {

// Events sealed per write transaction.
inline constexpr std::size_t kSealBatch = 20'000;

// SQLite keeps the pages of deleted rows for later inserts; a store created with incremental
// auto-vacuum gives them back to the file system, a bounded number per transaction, until none
// is left or `stopping` (elsewhere it does nothing). Called after sealing.
void GiveBackFreePages(storage::Store& store, const std::atomic<bool>& stopping);

// One pass over the projects with events to seal; returns how many events it sealed.
std::size_t SealInboxEvents(storage::Store& store, const core::Clock& clock,
                            std::chrono::seconds seal_after, const std::atomic<bool>& stopping);

}  // namespace sightline::app
