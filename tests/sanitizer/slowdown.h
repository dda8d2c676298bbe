// How much slower a sanitizer build (script/test: ASan+UBSan; script/test --tsan: TSan) runs the
// same code on the same machine. Tests that bound a running time measure the plain build;
// they multiply the bound by this so the sanitizer builds check the same thing, not the
// instrumentation's cost.
#pragma once

namespace sightline::testing {

#if defined(__SANITIZE_THREAD__)
inline constexpr int kSanitizerSlowdown = 10;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr int kSanitizerSlowdown = 4;
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif

}  // namespace sightline::testing
