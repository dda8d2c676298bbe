#include "app/periodic_task.h"

namespace sightline::app {

PeriodicTask::PeriodicTask(std::chrono::milliseconds interval, bool first_at_start, Round round)
    : interval_(interval), round_(std::move(round)) {
  if (interval_.count() > 0) thread_ = std::thread([this, first_at_start] { Loop(first_at_start); });
}

PeriodicTask::~PeriodicTask() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeriodicTask::Loop(bool first_at_start) {
  bool run_now = first_at_start;
  while (true) {
    if (run_now) {
      round_(stopping_);
      if (stopping_) return;
    }
    run_now = true;
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, interval_, [this] { return stopping_.load(); })) return;
  }
}

}  // namespace sightline::app
