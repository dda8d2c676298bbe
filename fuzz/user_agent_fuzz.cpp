// User-Agent and client hints (Sec-CH-UA-*), as every tracked request and log drain row
// carries them.
#include "detection/user_agent.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using sightline::fuzz::MaybeHeader;
  FuzzedDataProvider input(data, size);
  sightline::detection::ClientHints hints;
  if (input.ConsumeBool()) {
    hints.brands = MaybeHeader(input);
    hints.mobile = MaybeHeader(input, 8);
    hints.platform = MaybeHeader(input, 32);
    hints.platform_version = MaybeHeader(input, 32);
    hints.model = MaybeHeader(input, 64);
    hints.form_factors = MaybeHeader(input, 64);
    hints.full_version_list = MaybeHeader(input);
  }
  const std::string user_agent = input.ConsumeRemainingBytesAsString();
  sightline::detection::ParseUserAgent(user_agent, hints);
  return 0;
}
