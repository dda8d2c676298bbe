// The demo project's traffic: two months of visits to the sample site (sources, countries,
// devices, pages, the shop's own events) and of crawler requests (verified, spoofed and
// suspected), generated from a seed and written through the ingestion path's own pieces: each
// visit's events are enriched by ingest::Enrich from a real User-Agent, page URL and referrer,
// and committed by ingest::EventWriter, which gives them their sessions as it does live traffic.
// Crawler requests are named from the bot catalog by their User-Agent; their verification is
// what the classifier would have said of the vendor's own or a stranger's address (the demo
// owns no vendor's IP addresses, so that verdict is the one part that is stated, not computed).
#pragma once

#include <cstdint>

#include "core/result.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::demo {

struct TrafficPlan {
  std::int64_t end_ms = 0;     // traffic stops here (now)
  int days = 60;
  double visits_per_day = 260;  // a weekday's at the start; weekends are quieter, growth +40%
  std::uint64_t seed = 20261127;
};

struct TrafficCounts {
  std::int64_t visits = 0, events = 0, bot_requests = 0;
};

core::Result<TrafficCounts> GenerateTraffic(storage::Store& store,
                                            const storage::ProjectRecord& project,
                                            const TrafficPlan& plan);

}  // namespace sightline::demo
