#include "reports/realtime.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "reports/visit_rules.h"
#include "storage/event_repository.h"

namespace sightline::reports {
namespace {

constexpr std::int64_t kMinuteMs = 60'000;
constexpr std::size_t kPage = 1'000;

std::string_view VisitorOf(const storage::EventRecord& e) {
  if (e.anonymous_id) return *e.anonymous_id;
  if (e.user_id) return *e.user_id;
  return e.daily_visitor.value_or("");
}

std::vector<RealtimeValue> Ranked(const std::map<std::string, std::set<std::string_view>>& sets,
                                  std::size_t top) {
  std::vector<RealtimeValue> out;
  for (const auto& [value, visitors] : sets) {
    out.push_back({value, static_cast<std::int64_t>(visitors.size())});
  }
  std::ranges::sort(out, [](const RealtimeValue& a, const RealtimeValue& b) {
    return a.visitors != b.visitors ? a.visitors > b.visitors : a.value < b.value;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

}  // namespace

Realtime SummarizeRealtime(std::span<const storage::EventRecord> events, std::int64_t now_ms,
                           std::size_t top) {
  Realtime out;
  out.now_ms = now_ms;
  const std::int64_t last_minute = now_ms - now_ms % kMinuteMs;
  const std::int64_t first_minute = last_minute - (kRealtimeMinutes - 1) * kMinuteMs;
  const std::int64_t now_from = now_ms - kVisitorsNowMinutes * kMinuteMs;
  std::vector<std::set<std::string_view>> per_minute(kRealtimeMinutes);
  std::set<std::string_view> all, now;
  std::map<std::string, std::set<std::string_view>> pages, sources;
  // A visit's source is its first event's (in the half hour; by time, then id, as the rollups
  // order a visit): by session, else by visitor. The two kinds of key live in two maps, so a
  // session id can never stand for a visitor id.
  struct Start {
    std::int64_t at = 0;
    std::string_view id, visitor, source;
    bool Before(const Start& other) const { return at != other.at ? at < other.at : id < other.id; }
  };
  std::map<std::string_view, Start> by_session, by_visitor;
  out.minutes.resize(kRealtimeMinutes);
  for (const storage::EventRecord& e : events) {
    if (e.is_bot || e.channel == "__analytics") continue;
    if (e.occurred_at < first_minute || e.occurred_at > now_ms) continue;
    ++out.events_read;
    const std::string_view visitor = VisitorOf(e);
    const auto minute = static_cast<std::size_t>((e.occurred_at - first_minute) / kMinuteMs);
    const bool view = e.event == kPageviewEvent;
    out.minutes[minute].pageviews += view ? 1 : 0;
    out.pageviews += view ? 1 : 0;
    // Events without any visitor id count no visitor, as in the rollups.
    if (visitor.empty()) continue;
    per_minute[minute].insert(visitor);
    all.insert(visitor);
    if (e.occurred_at >= now_from) now.insert(visitor);
    if (view) pages[e.path.value_or("")].insert(visitor);
    const std::string_view source =
        e.traffic_source ? std::string_view(*e.traffic_source) : std::string_view("Direct");
    const Start start{e.occurred_at, e.id, visitor, source};
    auto& visits = e.session_id ? by_session : by_visitor;
    const auto [visit, first] = visits.try_emplace(e.session_id ? *e.session_id : visitor, start);
    if (!first && start.Before(visit->second)) visit->second = start;
  }
  for (const auto* visits : {&by_session, &by_visitor}) {
    for (const auto& [key, start] : *visits) sources[std::string(start.source)].insert(start.visitor);
  }
  for (std::size_t i = 0; i < out.minutes.size(); ++i) {
    out.minutes[i].start_ms = first_minute + static_cast<std::int64_t>(i) * kMinuteMs;
    out.minutes[i].visitors = static_cast<std::int64_t>(per_minute[i].size());
  }
  out.visitors = static_cast<std::int64_t>(all.size());
  out.visitors_now = static_cast<std::int64_t>(now.size());
  out.pages = Ranked(pages, top);
  out.sources = Ranked(sources, top);
  return out;
}

core::Result<Realtime> ReadRealtime(storage::Store& store, const std::string& project_id,
                                    std::int64_t now_ms, std::size_t top) {
  const std::int64_t from = now_ms - now_ms % kMinuteMs - (kRealtimeMinutes - 1) * kMinuteMs;
  std::vector<storage::EventRecord> events;
  bool complete = true;
  storage::EventQuery query;
  query.project_id = project_id;
  query.from = from;
  query.to = now_ms + 1;
  query.limit = kPage;
  // Newest first, a page at a time, until the half hour is read or the cap reached.
  while (true) {
    auto page = store.Read([&](storage::Transaction& tx) { return tx.events().ListEvents(query); });
    if (!page) return page.error();
    for (storage::EventRecord& e : *page) events.push_back(std::move(e));
    if (page->size() < kPage) break;
    if (events.size() >= kRealtimeEventCap) {
      complete = false;
      break;
    }
    query.before = std::pair{events.back().occurred_at, events.back().id};
  }
  Realtime realtime = SummarizeRealtime(events, now_ms, top);
  realtime.complete = complete;
  return realtime;
}

}  // namespace sightline::reports
