#include "reports/realtime.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::reports {
namespace {

constexpr std::int64_t kMinute = 60'000;
// 2026-11-29T10:15:30Z: the current minute starts at 10:15:00.
constexpr std::int64_t kNow = 1'795'947'330'000;

storage::EventRecord Event(std::string visitor, std::int64_t ago_ms, std::string name = "screen_view",
                           std::string path = "/", std::string source = "") {
  storage::EventRecord e;
  e.id = visitor + std::to_string(ago_ms);
  e.occurred_at = kNow - ago_ms;
  e.event = std::move(name);
  e.channel = "web";
  if (!visitor.empty()) e.anonymous_id = std::move(visitor);
  e.path = std::move(path);
  if (!source.empty()) e.traffic_source = std::move(source);
  return e;
}

TEST(Realtime, VisitorsNowMinutesPagesAndSources) {
  std::vector<storage::EventRecord> events = {
      Event("a", 10'000, "screen_view", "/", "Google"),        // now
      Event("a", 20'000, "signup", "/pricing", "Google"),      // now, not a pageview
      Event("b", 4 * kMinute, "screen_view", "/pricing"),      // now (4 minutes ago)
      Event("c", 6 * kMinute, "screen_view", "/pricing"),      // the half hour, not now
      Event("c", 29 * kMinute, "screen_view", "/docs"),        // the first minute of the series
      Event("d", 31 * kMinute, "screen_view", "/old"),         // before the half hour
      Event("", 30'000, "screen_view", "/"),                   // no visitor: a pageview only
  };
  storage::EventRecord bot = Event("e", 1'000);
  bot.is_bot = true;
  storage::EventRecord billing = Event("f", 1'000);
  billing.channel = "__analytics";
  events.push_back(bot);
  events.push_back(billing);

  const Realtime r = SummarizeRealtime(events, kNow);
  EXPECT_EQ(r.visitors_now, 2);
  EXPECT_EQ(r.visitors, 3);
  EXPECT_EQ(r.pageviews, 5);
  EXPECT_EQ(r.events_read, 6u);
  ASSERT_EQ(r.minutes.size(), 30u);
  EXPECT_EQ(r.minutes.back().start_ms, kNow - 30'000);
  EXPECT_EQ(r.minutes.back().visitors, 1);  // a, in 10:15 (the visitor-less view counts no one)
  EXPECT_EQ(r.minutes.back().pageviews, 2);
  EXPECT_EQ(r.minutes.front().start_ms, kNow - 30'000 - 29 * kMinute);
  EXPECT_EQ(r.minutes.front().visitors, 1);  // c at 09:46:30
  std::vector<std::string> pages;
  for (const RealtimeValue& v : r.pages) pages.push_back(v.value + "=" + std::to_string(v.visitors));
  EXPECT_EQ(pages, (std::vector<std::string>{"/pricing=2", "/=1", "/docs=1"}));
  ASSERT_EQ(r.sources.size(), 2u);
  EXPECT_EQ(r.sources[0].value, "Direct");
  EXPECT_EQ(r.sources[0].visitors, 2);
  EXPECT_EQ(r.sources[1].value, "Google");
}

TEST(Realtime, AQuietHalfHourIsThirtyEmptyMinutes) {
  const Realtime r = SummarizeRealtime({}, kNow, 10);
  EXPECT_EQ(r.visitors_now, 0);
  ASSERT_EQ(r.minutes.size(), 30u);
  for (const RealtimeMinute& m : r.minutes) EXPECT_EQ(m.visitors + m.pageviews, 0);
  EXPECT_TRUE(r.pages.empty());
  EXPECT_TRUE(r.complete);
}

}  // namespace
}  // namespace sightline::reports
