// A crawler operator's published IP ranges in Google's JSON format, fetched from its site.
#include "core/ip_address.h"
#include "detection/ip_ranges.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto ranges = sightline::detection::ParseGoogleFormatRanges(json);
  if (!ranges) return 0;
  for (const char* address : {"66.249.66.1", "2001:4860:4801:10::1", "0.0.0.0", "::"}) {
    (void)ranges->Contains(*sightline::core::IpAddress::Parse(address));
  }
  return 0;
}
