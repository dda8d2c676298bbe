#include "features/notifications/notification_stream.h"

#include "core/json_util.h"
#include "features/notifications/notification_views.h"
#include "storage/event_repository.h"
#include "tools/paging.h"

#include <algorithm>

namespace sightline::tools {

namespace {
constexpr int kKeepAliveEvery = 15;  // polls, i.e. seconds
constexpr std::size_t kMaxPerPoll = 100;
constexpr std::int64_t kOverlapMs = 5000;
}  // namespace

NotificationStream::NotificationStream(storage::Store& store, std::string project_id,
                                       std::pair<std::int64_t, std::string> after)
    : store_(store), project_id_(std::move(project_id)), start_(after), after_(std::move(after)) {}

std::optional<std::string> NotificationStream::Poll() {
  const std::pair<std::int64_t, std::string> window{after_.first - kOverlapMs, ""};
  auto rows = store_.Read([&](storage::Transaction& tx) {
    return tx.events().ListNotificationsAfter(project_id_, window, kMaxPerPoll + sent_.size());
  });
  if (!rows) return std::string(": the store is unavailable; retrying\n\n");
  std::string out;
  for (const auto& n : *rows) {
    const bool seen = std::any_of(sent_.begin(), sent_.end(),
                                  [&](const auto& s) { return s.second == n.id; });
    if (seen || std::make_pair(n.created_at, n.id) <= start_) continue;
    if (std::make_pair(n.created_at, n.id) > after_) after_ = {n.created_at, n.id};
    sent_.emplace_back(n.created_at, n.id);
    out += "id: " + EncodeCursor(kCursorList, TimeIdKey(n.created_at, n.id)) + "\nevent: notification\ndata: " +
           core::ToJson(NotificationView(n)) + "\n\n";
  }
  while (!sent_.empty() && sent_.front().first < after_.first - kOverlapMs) sent_.pop_front();
  if (!out.empty()) {
    quiet_polls_ = 0;
  } else if (++quiet_polls_ >= kKeepAliveEvery) {
    quiet_polls_ = 0;
    out = ": keep-alive\n\n";
  }
  return out;
}

}  // namespace sightline::tools
