// Hand-written User-Agents shared by the detection tests, written from each product's published
// format; none comes from the labelled corpus (that one only measures, in bench/ua_bench.cpp).
#pragma once

#include <string_view>

namespace sightline::detection::samples {

inline constexpr std::string_view kChromeWindows =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Safari/537.36";
inline constexpr std::string_view kSafariMac =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.4 Safari/605.1.15";
inline constexpr std::string_view kSafariIphone =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
inline constexpr std::string_view kChromeAndroidPhone =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.6367.82 Mobile Safari/537.36";
// User-Agent reduction: Android version and model frozen to "10; K".
inline constexpr std::string_view kReducedAndroidPhone =
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36";
inline constexpr std::string_view kReducedAndroidTablet =
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Safari/537.36";

}  // namespace sightline::detection::samples
