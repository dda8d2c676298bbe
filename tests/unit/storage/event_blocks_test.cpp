#include "storage/event_blocks.h"

#include <gtest/gtest.h>

#include <vector>

namespace sightline::storage {
namespace {

EventRecord FullEvent(int i) {
  EventRecord e;
  e.id = "0190a3b4-5c6d-7e8f-9a0b-" + std::string(i % 2 ? "1c2d3e4f5a6b" : "ffffffffffff");
  e.project_id = "p1";
  e.occurred_at = 1'790'000'000'000 + i * 1'000;
  e.received_at = e.occurred_at + 250;
  e.event = i % 3 ? "screen_view" : "signup";
  e.channel = "web";
  e.user_id = i % 2 ? std::optional<std::string>("user-1") : std::nullopt;
  e.anonymous_id = "anon-" + std::to_string(i % 4);
  e.session_id = "sess-" + std::to_string(i / 3);
  e.icon = "🎉";
  e.description = i == 1 ? std::optional<std::string>("") : std::nullopt;
  e.notify = i % 2;
  e.tags_json = R"({"plan":"pro","$lib":"web"})";
  e.ip = "203.0.113.9";
  e.user_agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0";
  e.browser = "Chrome";
  e.browser_version = "131.0";
  e.os = "Linux";
  e.os_version = std::nullopt;
  e.device = "Desktop";
  e.brand = std::nullopt;
  e.model = "";
  e.device_confidence = i % 2 ? std::optional<double>(0.1 + i) : std::nullopt;
  e.signal_source = "user_agent";
  e.in_app = i % 3 == 0;
  e.country = "DE";
  e.region = "Bavaria";
  e.city = "Munich";
  e.path = "/p/" + std::to_string(i % 5);
  e.referrer = "https://www.google.com/";
  e.utm_source = "news";
  e.utm_medium = "email";
  e.utm_campaign = "nov";
  e.utm_term = std::nullopt;
  e.utm_content = "a";
  e.is_bot = i == 4;
  e.actor_type = "human";
  e.bot_name = std::nullopt;
  e.bot_vendor = std::nullopt;
  e.actor_category = std::nullopt;
  e.actor_verified = i == 4;
  e.verification_method = "none";
  e.actor_confidence = 0.875;
  e.is_ai = i == 4;
  e.traffic_source = "Google";
  e.traffic_channel = "Organic Search";
  e.daily_visitor = std::nullopt;
  return e;
}

TEST(EventBlocks, EveryFieldOfAnEventComesBack) {
  std::vector<EventRecord> events;
  for (int i = 0; i < 9; ++i) events.push_back(FullEvent(i));
  // An id that is not a UUID and a value with a NUL byte are kept exactly too.
  events[3].id = "client-chosen-id";
  events[5].tags_json = std::string("{\"k\":\"a\0b\"}", 12);
  auto decoded = DecodeEvents(EncodeEvents(events), "p1");
  ASSERT_TRUE(decoded) << decoded.error().internal();
  ASSERT_EQ(decoded->size(), events.size());
  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ((*decoded)[i], events[i]) << i;
}

// The events feed's way in: the keys it filters and orders on, then only the rows it chose, each
// whole and in the order chosen.
TEST(EventBlocks, OnlyTheChosenRowsAreAssembledInTheirOrder) {
  std::vector<EventRecord> events;
  for (int i = 0; i < 9; ++i) events.push_back(FullEvent(i));
  const std::string block = EncodeEvents(events);
  std::size_t keys_seen = 0;
  auto chosen = DecodeEvents(block, "p1", [&](std::span<const EventKey> keys) {
    // The keys' views live as long as the decoding: checked here.
    keys_seen = keys.size();
    for (std::size_t i = 0; i < keys.size() && i < events.size(); ++i) {
      EXPECT_EQ(keys[i].occurred_at, events[i].occurred_at);
      EXPECT_EQ(keys[i].id, events[i].id);
      EXPECT_EQ(keys[i].event, events[i].event);
      EXPECT_EQ(keys[i].channel, events[i].channel);
      EXPECT_EQ(keys[i].user_id, events[i].user_id);
    }
    std::vector<std::size_t> rows;
    for (std::size_t r = keys.size(); r-- > 0;) {
      if (keys[r].event == "signup" && keys[r].user_id) rows.push_back(r);
    }
    return rows;
  });
  ASSERT_TRUE(chosen) << chosen.error().internal();
  EXPECT_EQ(keys_seen, events.size());
  // Signups (i % 3 == 0) by a user (odd i): rows 3 and 9 would be; 9 is beyond, so row 3 alone.
  ASSERT_EQ(chosen->size(), 1u);
  EXPECT_EQ((*chosen)[0], events[3]);

  auto ordered = DecodeEvents(block, "p1", [](std::span<const EventKey>) {
    return std::vector<std::size_t>{8, 0, 4};
  });
  ASSERT_TRUE(ordered);
  ASSERT_EQ(ordered->size(), 3u);
  EXPECT_EQ((*ordered)[0], events[8]);
  EXPECT_EQ((*ordered)[1], events[0]);
  EXPECT_EQ((*ordered)[2], events[4]);

  auto none = DecodeEvents(block, "p1", [](std::span<const EventKey>) {
    return std::vector<std::size_t>();
  });
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  auto beyond = DecodeEvents(block, "p1", [](std::span<const EventKey> keys) {
    return std::vector<std::size_t>{keys.size()};
  });
  EXPECT_FALSE(beyond);
}

TEST(EventBlocks, EveryFieldOfACrawlerRequestComesBack) {
  std::vector<BotRequestRecord> requests(3);
  for (int i = 0; i < 3; ++i) {
    BotRequestRecord& b = requests[i];
    b.id = "0190a3b4-5c6d-7e8f-9a0b-00000000000" + std::to_string(i);
    b.project_id = "p1";
    b.occurred_at = 1'790'000'000'000 - i;
    b.received_at = 1'790'000'000'000;
    b.event = "server_request";
    b.source = i ? "vercel" : "server";
    b.ip = i == 1 ? std::nullopt : std::optional<std::string>("66.249.66.1");
    b.user_agent = "Googlebot/2.1";
    b.method = "GET";
    b.host = "example.com";
    b.path = "/robots.txt";
    b.referrer = std::nullopt;
    b.actor_type = "verified_bot";
    b.bot_name = "Googlebot";
    b.bot_vendor = "Google";
    b.actor_category = "search";
    b.actor_verified = i != 2;
    b.verification_method = "ip_range";
    b.actor_confidence = 0.3 * i;
    b.is_ai = i == 2;
    b.country = "US";
    b.counts_toward_usage = i != 1;
  }
  auto decoded = DecodeBotRequests(EncodeBotRequests(requests), "p1");
  ASSERT_TRUE(decoded) << decoded.error().internal();
  EXPECT_EQ(*decoded, requests);
}

TEST(EventBlocks, ABlockOfEventsIsNotReadAsCrawlerRequestsByMistake) {
  std::vector<EventRecord> events = {FullEvent(0)};
  // The same column numbers mean other fields; the kinds differ where it matters (kFlags is an
  // integer column in one and kActorType text in the other), so a mix-up is an error.
  EXPECT_FALSE(DecodeBotRequests(EncodeEvents(events), "p1"));
}

}  // namespace
}  // namespace sightline::storage
