// The ingestion endpoints' items, as a tracking script or a server sends them: a JSON body read
// as a tracked event, an identify call and a server-side request item.
#include "ingest/server_item.h"
#include "ingest/tracked_event.h"

#include <boost/json/parse.hpp>

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  boost::system::error_code error;
  const boost::json::value value = boost::json::parse(body, error);
  if (error || !value.is_object()) return 0;
  const auto& object = value.as_object();
  constexpr std::int64_t kNow = 1'795'000'000'000;
  (void)sightline::ingest::ParseTrackedEvent(object, "events[0].", kNow);
  (void)sightline::ingest::ParseIdentify(object);
  (void)sightline::ingest::ParseServerItem(object, "", kNow);
  return 0;
}
