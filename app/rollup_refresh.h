// Rolls marked report days up in the background, so a dashboard rarely waits for it: every
// interval, each project with marks gets its marked days rolled up again in its reporting zone
// (reports/rollups.h). Reports stay exact without it (they roll up what they read first).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "storage/store.h"

namespace sightline::app {

// One pass over the projects with marks; returns how many projects it brought up to date.
std::size_t RefreshMarkedRollups(storage::Store& store);

class RollupRefresher {
 public:
  // Never runs when `interval` is zero. Stops with the object.
  RollupRefresher(storage::Store& store, std::chrono::seconds interval);
  ~RollupRefresher();

 private:
  void Loop();

  storage::Store& store_;
  const std::chrono::seconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace sightline::app
