// A background round run on its own thread: first at start (or after one interval), then every
// interval, until the object is destroyed. Destruction wakes the thread, tells a running round to
// stop through `stopping`, and joins it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace sightline::app {

class PeriodicTask {
 public:
  using Round = std::function<void(const std::atomic<bool>& stopping)>;
  // Never runs when `interval` is zero.
  PeriodicTask(std::chrono::milliseconds interval, bool first_at_start, Round round);
  ~PeriodicTask();
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

 private:
  void Loop(bool first_at_start);

  const std::chrono::milliseconds interval_;
  const Round round_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace sightline::app
