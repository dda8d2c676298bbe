// The intervals against published values: Newcombe (1998), "Two-sided confidence intervals for
// the single proportion" (Statistics in Medicine 17:857-872), Table I (Wilson score method,
// 81/263 and the boundary cases), and "Interval estimation for the difference between
// independent proportions" (17:873-890), Table II method 10 (56/70 vs 48/80, 5/10 vs 4/10 …).
#include "visibility/statistics.h"

#include <gtest/gtest.h>

namespace sightline::visibility {
namespace {

TEST(Wilson, MatchesPublishedIntervals) {
  const Interval a = *WilsonInterval(81, 263);
  EXPECT_NEAR(a.low, 0.2553, 5e-5);
  EXPECT_NEAR(a.high, 0.3662, 5e-5);
  const Interval b = *WilsonInterval(15, 148);
  EXPECT_NEAR(b.low, 0.0624, 5e-5);
  EXPECT_NEAR(b.high, 0.1605, 5e-5);
  const Interval none = *WilsonInterval(0, 20);  // no success: the interval still has width
  EXPECT_DOUBLE_EQ(none.low, 0);
  EXPECT_NEAR(none.high, 0.1611, 5e-5);
  const Interval all = *WilsonInterval(29, 29);
  EXPECT_NEAR(all.low, 0.8830, 5e-5);
  EXPECT_NEAR(all.high, 1.0, 1e-12);
}

TEST(Wilson, NoTrialsSaysNothing) {
  EXPECT_FALSE(WilsonInterval(0, 0).has_value());
  EXPECT_FALSE(Rate(0, 0).has_value()) << "an empty sample has no rate, not a rate of 0";
  EXPECT_EQ(Rate(0, 4), 0.0);
  EXPECT_EQ(Rate(3, 4), 0.75);
}

TEST(Newcombe, MatchesPublishedDifferenceIntervals) {
  const RateChange a = CompareRates(56, 70, 48, 80);
  EXPECT_NEAR(a.difference, 0.2, 1e-12);
  EXPECT_NEAR(a.interval.low, 0.0524, 5e-5);
  EXPECT_NEAR(a.interval.high, 0.3339, 5e-5);
  EXPECT_TRUE(a.significant);
  const RateChange b = CompareRates(9, 10, 3, 10);
  EXPECT_NEAR(b.interval.low, 0.1705, 5e-5);
  EXPECT_NEAR(b.interval.high, 0.8090, 5e-5);
  EXPECT_TRUE(b.significant);
  const RateChange c = CompareRates(5, 56, 0, 29);
  EXPECT_NEAR(c.interval.low, -0.0381, 5e-5);
  EXPECT_NEAR(c.interval.high, 0.1926, 5e-5);
  EXPECT_FALSE(c.significant) << "the interval holds zero: within the noise";
}

TEST(Newcombe, SmallSamplesAreNoiseEvenForLargeSwings) {
  // 3 of 5 answers named the brand last week and 1 of 5 this week: a drop of 40 points that five
  // samples cannot tell from chance. The same rates over 200 answers each are a real change.
  EXPECT_FALSE(CompareRates(1, 5, 3, 5).significant);
  EXPECT_TRUE(CompareRates(40, 200, 120, 200).significant);
  EXPECT_FALSE(CompareRates(3, 5, 0, 0).significant) << "no previous sample";
}

}  // namespace
}  // namespace sightline::visibility
