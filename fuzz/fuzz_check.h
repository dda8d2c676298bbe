// What the fuzz targets share: a check that aborts (so libFuzzer reports the input) when a
// property of a parser does not hold, and optional header values drawn from the input.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace sightline::fuzz {

// Not assert(): the fuzz build is not a debug build, and the property must hold in every build.
inline void Check(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", property);
  std::abort();
}

// A header that is absent about one time in four.
inline std::optional<std::string> MaybeHeader(FuzzedDataProvider& input, std::size_t max = 256) {
  if (input.ConsumeIntegralInRange<int>(0, 3) == 0) return std::nullopt;
  return input.ConsumeRandomLengthString(max);
}

}  // namespace sightline::fuzz
