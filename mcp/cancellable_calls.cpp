#include "mcp/cancellable_calls.h"

#include "core/json_util.h"

namespace sightline::mcp {

std::string CancellableCalls::Key(std::string_view session_hash, const boost::json::value& id) {
  return std::string(session_hash) + "|" + core::ToJson(id);
}

void CancellableCalls::Add(const std::string& key, const std::shared_ptr<CallState>& state) {
  std::lock_guard lock(mutex_);
  calls_[key] = state;
}

void CancellableCalls::Remove(const std::string& key) {
  std::lock_guard lock(mutex_);
  calls_.erase(key);
}

void CancellableCalls::Cancel(const std::string& key) {
  std::shared_ptr<CallState> state;
  {
    std::lock_guard lock(mutex_);
    auto found = calls_.find(key);
    if (found == calls_.end()) return;
    state = found->second.lock();
  }
  if (!state) return;
  std::lock_guard lock(state->mutex);
  state->cancelled = true;
}

}  // namespace sightline::mcp
