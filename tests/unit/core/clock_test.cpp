#include "core/clock.h"

#include <gtest/gtest.h>

#include <chrono>

namespace sightline::core {
namespace {

TEST(FormatRfc3339, Epoch) { EXPECT_EQ(FormatRfc3339(0), "1970-01-01T00:00:00.000Z"); }

TEST(FormatRfc3339, KnownDateWithMillis) {
  EXPECT_EQ(FormatRfc3339(1795341845123), "2026-11-22T10:04:05.123Z");
  EXPECT_EQ(FormatRfc3339(951782400007), "2000-02-29T00:00:00.007Z");
  EXPECT_EQ(FormatRfc3339(253402300799999), "9999-12-31T23:59:59.999Z");
}

TEST(FormatRfc3339, NegativeMillisFloorTowardsThePast) {
  EXPECT_EQ(FormatRfc3339(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatRfc3339(-1000), "1969-12-31T23:59:59.000Z");
  EXPECT_EQ(FormatRfc3339(-1001), "1969-12-31T23:59:58.999Z");
  EXPECT_EQ(FormatRfc3339(-86400000), "1969-12-31T00:00:00.000Z");
  EXPECT_EQ(FormatRfc3339(-2203891200000 + 500), "1900-03-01T00:00:00.500Z");
}

TEST(FormatHttpDate, Rfc9110Example) {
  EXPECT_EQ(FormatHttpDate(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
}

TEST(FormatHttpDate, WeekdaysAroundTheEpoch) {
  EXPECT_EQ(FormatHttpDate(0), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(FormatHttpDate(-1), "Wed, 31 Dec 1969 23:59:59 GMT");
  EXPECT_EQ(FormatHttpDate(1798761600), "Fri, 01 Jan 2027 00:00:00 GMT");
  EXPECT_EQ(FormatHttpDate(951782400), "Tue, 29 Feb 2000 00:00:00 GMT");
}

TEST(DaysFromCivil, EpochAndNeighbours) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1970, 1, 2), 1);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
}

TEST(DaysFromCivil, LeapDays) {
  EXPECT_EQ(DaysFromCivil(2000, 2, 29) * 86400, 951782400);  // divisible by 400: leap
  EXPECT_EQ(DaysFromCivil(2000, 3, 1) - DaysFromCivil(2000, 2, 28), 2);
  EXPECT_EQ(DaysFromCivil(1900, 3, 1) - DaysFromCivil(1900, 2, 28), 1);  // by 100: not leap
  EXPECT_EQ(DaysFromCivil(2024, 3, 1) - DaysFromCivil(2024, 2, 28), 2);
  EXPECT_EQ(DaysFromCivil(2023, 3, 1) - DaysFromCivil(2023, 2, 28), 1);
  EXPECT_EQ(DaysFromCivil(2400, 2, 29) * 86400, 13574563200);
  EXPECT_EQ(DaysFromCivil(1600, 1, 1) * 86400, -11676096000);
  EXPECT_EQ(DaysFromCivil(2025, 1, 1) - DaysFromCivil(2024, 1, 1), 366);
  EXPECT_EQ(DaysFromCivil(2026, 1, 1) - DaysFromCivil(2025, 1, 1), 365);
}

TEST(ManualClock, MovesOnlyWhenTold) {
  ManualClock clock(1000);
  EXPECT_EQ(clock.NowMillis(), 1000);
  clock.Advance(std::chrono::milliseconds(250));
  EXPECT_EQ(clock.NowMillis(), 1250);
  clock.Set(-5);
  EXPECT_EQ(clock.NowMillis(), -5);
}

}  // namespace
}  // namespace sightline::core
