#include "app/range_refresh.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "net/https_fetcher.h"
#include "core/ip_address.h"
#include "tests/unit/testing/loopback_https_server.h"
#include "tests/unit/testing/temp_store.h"

namespace sightline::app {
namespace {

// List `index`'s own network and an address in it (2001:db8:<index>::/48, documentation space).
std::string ListNetwork(std::size_t index) {
  char text[32];
  std::snprintf(text, sizeof text, "2001:db8:%zx::", index);
  return text;
}

std::string RangeFile(std::size_t index) {
  return R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv6Prefix":")" +
         ListNetwork(index) + R"(/48"}]})";
}

// The defect this guards against: serve asked for every catalog list at once, and the fetcher
// refused all beyond its 8 connections, so 9 vendors' lists were never loaded.
TEST(RangeRefresh, EveryCatalogListRefreshesThroughAMirrorAndIsLoaded) {
  testutil::LoopbackHttpsServer mirror;
  ASSERT_TRUE(mirror.ok());
  testutil::TempStore store;
  ASSERT_TRUE(store.ok());
  const auto sources = CatalogRangeSources(detection::BotCatalog::Builtin(), mirror.url() + "/");
  const net::HttpsFetcherOptions options{.allow_private_addresses = true,
                                         .ca_file = mirror.ca_file()};
  ASSERT_GT(sources.size(), static_cast<std::size_t>(options.max_in_flight))
      << "more lists than connections, so some wait in the fetcher's queue";
  std::vector<std::string> list_ids;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    mirror.Put("/" + sources[i].list_id + ".json", RangeFile(i));
    list_ids.push_back(sources[i].list_id);
  }
  net::HttpsFetcher fetcher(options);
  core::ManualClock clock(1'790'000'000'000);
  const auto outcomes = RefreshRanges(fetcher, store.store(), clock, sources);

  ASSERT_EQ(outcomes.size(), sources.size());
  for (const RangeRefreshOutcome& outcome : outcomes) {
    EXPECT_TRUE(outcome.ok) << outcome.list_id << ": " << outcome.message;
    EXPECT_EQ(outcome.intervals, 1u) << outcome.list_id;
  }
  const auto loaded = LoadRanges(store.store(), "", list_ids);
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ((*loaded)->loaded(), sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto inside = core::IpAddress::Parse(ListNetwork(i) + "1");
    const auto elsewhere = core::IpAddress::Parse(ListNetwork(i + 1) + "1");
    EXPECT_EQ((*loaded)->Contains(sources[i].list_id, *inside), true) << sources[i].list_id;
    EXPECT_EQ((*loaded)->Contains(sources[i].list_id, *elsewhere), false) << sources[i].list_id;
  }
}

TEST(RangeRefresh, AListThatFailsSaysWhyAndKeepsItsStoredCopy) {
  testutil::LoopbackHttpsServer mirror;
  ASSERT_TRUE(mirror.ok());
  testutil::TempStore store;
  ASSERT_TRUE(store.ok());
  const std::vector<RangeSource> sources = {{"gptbot", mirror.url() + "/gptbot.json"}};
  net::HttpsFetcher fetcher({.allow_private_addresses = true, .ca_file = mirror.ca_file()});
  core::ManualClock clock(1'790'000'000'000);
  mirror.Put("/gptbot.json", RangeFile(1));
  ASSERT_TRUE(RefreshRanges(fetcher, store.store(), clock, sources).at(0).ok);

  mirror.Put("/gptbot.json", "<html>not a range list</html>");
  const RangeRefreshOutcome broken = RefreshRanges(fetcher, store.store(), clock, sources).at(0);
  EXPECT_FALSE(broken.ok);
  EXPECT_EQ(broken.intervals, 0u);
  EXPECT_TRUE(broken.message.starts_with("not a range list")) << broken.message;
  const RangeRefreshOutcome missing =
      RefreshRanges(fetcher, store.store(), clock, {{"gptbot", mirror.url() + "/nothing.json"}})
          .at(0);
  EXPECT_EQ(missing.message, "The directory answered 404.");
  const auto loaded = LoadRanges(store.store(), "", {"gptbot"});
  ASSERT_TRUE(loaded);
  EXPECT_EQ((*loaded)->Contains("gptbot", *core::IpAddress::Parse(ListNetwork(1) + "1")), true);
}

}  // namespace
}  // namespace sightline::app
