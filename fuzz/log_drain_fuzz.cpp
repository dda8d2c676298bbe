// Hosting-platform log drains (/ingest/v1/{source}): a batch in each platform's format, with
// CloudFront's configured field list (as a drain's `fields` parameter gives it) or without.
#include "fuzz/fuzz_check.h"
#include "ingest/log_drain.h"

using namespace sightline::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const auto names = DrainSourceNames();
  const auto source =
      ParseDrainSource(names[input.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]);
  DrainOptions options;
  if (input.ConsumeBool()) {
    auto fields = ParseCloudFrontFields(input.ConsumeRandomLengthString(256));
    if (fields) options.cloudfront_fields = std::move(*fields);
  }
  const std::string body = input.ConsumeRemainingBytesAsString();
  (void)ParseRfc3339Millis(body.substr(0, 40));
  auto batch = ParseDrain(*source, body, 1'795'000'000'000, options);
  if (batch) {
    sightline::fuzz::Check(batch->requests.size() <= static_cast<std::size_t>(batch->received),
                           "no more requests than rows received");
  }
  return 0;
}
