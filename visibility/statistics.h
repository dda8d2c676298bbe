// The statistics of rates measured on samples of answers. One answer to one prompt says little:
// answers vary from run to run, so a rate comes with its 95% Wilson score interval, and a change
// between two periods is called significant only when the 95% interval of the difference
// (Newcombe's hybrid score method, from the two Wilson intervals) leaves out zero.
#pragma once

#include <cstdint>
#include <optional>

namespace sightline::visibility {

struct Interval {
  double low = 0;
  double high = 0;
};

inline constexpr double kZ95 = 1.959963984540054;

// The rate successes / trials; none without trials (an empty sample has no rate, and reporting 0
// would read as "never").
std::optional<double> Rate(std::int64_t successes, std::int64_t trials);
// Wilson's score interval for a proportion; none without trials.
std::optional<Interval> WilsonInterval(std::int64_t successes, std::int64_t trials,
                                       double z = kZ95);

struct RateChange {
  double difference = 0;  // current rate − previous rate
  Interval interval;      // of the difference
  bool significant = false;
};

// Newcombe (1998) method 10. When either sample is empty: no difference, the interval [-1, 1],
// not significant.
RateChange CompareRates(std::int64_t current_successes, std::int64_t current_trials,
                        std::int64_t previous_successes, std::int64_t previous_trials);

}  // namespace sightline::visibility
