#include "visibility/statistics.h"

#include <algorithm>
#include <cmath>

namespace sightline::visibility {

std::optional<double> Rate(std::int64_t successes, std::int64_t trials) {
  if (trials <= 0) return std::nullopt;
  return static_cast<double>(successes) / static_cast<double>(trials);
}

std::optional<Interval> WilsonInterval(std::int64_t successes, std::int64_t trials, double z) {
  if (trials <= 0) return std::nullopt;
  const double n = static_cast<double>(trials);
  const double p = *Rate(successes, trials);
  const double z2 = z * z;
  const double denominator = 1 + z2 / n;
  const double center = (p + z2 / (2 * n)) / denominator;
  const double half = z / denominator * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return Interval{std::max(0.0, center - half), std::min(1.0, center + half)};
}

RateChange CompareRates(std::int64_t current_successes, std::int64_t current_trials,
                        std::int64_t previous_successes, std::int64_t previous_trials) {
  RateChange change;
  if (current_trials <= 0 || previous_trials <= 0) {
    change.interval = {-1, 1};
    return change;
  }
  const double p1 = *Rate(current_successes, current_trials);
  const double p2 = *Rate(previous_successes, previous_trials);
  change.difference = p1 - p2;
  const Interval a = *WilsonInterval(current_successes, current_trials);
  const Interval b = *WilsonInterval(previous_successes, previous_trials);
  change.interval.low =
      change.difference - std::sqrt((p1 - a.low) * (p1 - a.low) + (b.high - p2) * (b.high - p2));
  change.interval.high =
      change.difference + std::sqrt((a.high - p1) * (a.high - p1) + (p2 - b.low) * (p2 - b.low));
  change.significant = change.interval.low > 0 || change.interval.high < 0;
  return change;
}

}  // namespace sightline::visibility
