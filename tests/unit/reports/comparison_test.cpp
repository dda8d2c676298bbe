#include "reports/comparison.h"

#include <gtest/gtest.h>

// Every rule of "Period comparison parameters" and "Comparison reach", one by one.
namespace sightline::reports {
namespace {

LocalDay Day(std::string_view text) { return *ParseDate(text, "from"); }
const LocalDay kToday = Day("2026-11-22");

PeriodArguments Args(std::string from, std::string to) {
  PeriodArguments args;
  args.from = std::move(from);
  args.to = std::move(to);
  return args;
}

std::string Show(const std::optional<DayRange>& range) {
  if (!range) return "none";
  return FormatDate(range->first) + ".." + FormatDate(range->last);
}

std::string Compare(PeriodArguments args) {
  auto period = ResolvePeriod(args, kToday);
  if (!period) return std::string(period.error().info().id);
  return Show(period->comparison);
}

std::string WithPreset(std::string from, std::string to, std::string preset) {
  PeriodArguments args = Args(std::move(from), std::move(to));
  args.compare_preset = std::move(preset);
  return Compare(args);
}

TEST(Comparison, DefaultSelectionIsTheLast30DaysWithThePreviousPeriod) {
  auto period = ResolvePeriod({}, kToday);
  ASSERT_TRUE(period);
  EXPECT_EQ(Show(period->selection), "2026-10-24..2026-11-22");
  EXPECT_EQ(Show(period->comparison), "2026-09-24..2026-10-23");
}

TEST(Comparison, PreviousPeriodIsAsManyDaysImmediatelyBefore) {
  EXPECT_EQ(Compare(Args("2026-11-16", "2026-11-22")), "2026-11-09..2026-11-15");
  EXPECT_EQ(WithPreset("2026-03-01", "2026-03-01", "previous_period"), "2026-02-28..2026-02-28");
  EXPECT_EQ(WithPreset("2024-03-01", "2024-03-31", "previous_period"), "2024-01-30..2024-02-29");
}

TEST(Comparison, PreviousWeekShiftsBySevenDays) {
  EXPECT_EQ(WithPreset("2026-11-18", "2026-11-22", "previous_week"), "2026-11-11..2026-11-15");
}

TEST(Comparison, PreviousMonthMapsWholeMonthsAndClampsOtherDays) {
  EXPECT_EQ(WithPreset("2024-03-01", "2024-03-31", "previous_month"), "2024-02-01..2024-02-29");
  EXPECT_EQ(WithPreset("2023-03-01", "2023-03-31", "previous_month"), "2023-02-01..2023-02-28");
  EXPECT_EQ(WithPreset("2024-02-01", "2024-02-29", "previous_month"), "2024-01-01..2024-01-31");
  EXPECT_EQ(WithPreset("2024-03-31", "2024-03-31", "previous_month"), "2024-02-29..2024-02-29");
  // Month to date compares with the same days of the previous month.
  EXPECT_EQ(WithPreset("2026-11-01", "2026-11-22", "previous_month"), "2026-10-01..2026-10-22");
}

TEST(Comparison, PreviousQuarterAndYear) {
  EXPECT_EQ(WithPreset("2026-04-01", "2026-06-30", "previous_quarter"), "2026-01-01..2026-03-31");
  EXPECT_EQ(WithPreset("2026-05-10", "2026-05-20", "previous_quarter"), "2026-02-10..2026-02-20");
  EXPECT_EQ(WithPreset("2024-02-29", "2024-02-29", "previous_year"), "2023-02-28..2023-02-28");
  EXPECT_EQ(WithPreset("2025-02-01", "2025-02-28", "previous_year"), "2024-02-01..2024-02-29");
}

TEST(Comparison, PresetWinsOverACustomPair) {
  PeriodArguments args = Args("2026-11-16", "2026-11-22");
  args.compare_preset = "previous_week";
  args.compare_from = "2026-01-01";  // even a lone or reversed pair is ignored
  EXPECT_EQ(Compare(args), "2026-11-09..2026-11-15");
}

TEST(Comparison, CustomPairIsUsedAsGiven) {
  PeriodArguments args = Args("2026-11-16", "2026-11-22");
  args.compare_from = "2026-06-01";
  args.compare_to = "2026-06-30";
  EXPECT_EQ(Compare(args), "2026-06-01..2026-06-30");
}

TEST(Comparison, LoneOrReversedCustomPairIsVal001) {
  PeriodArguments lone_from = Args("2026-11-16", "2026-11-22");
  lone_from.compare_from = "2026-11-01";
  EXPECT_EQ(Compare(lone_from), "VAL_001");
  PeriodArguments lone_to = Args("2026-11-16", "2026-11-22");
  lone_to.compare_to = "2026-11-01";
  EXPECT_EQ(Compare(lone_to), "VAL_001");
  PeriodArguments reversed = Args("2026-11-16", "2026-11-22");
  reversed.compare_from = "2026-11-08";
  reversed.compare_to = "2026-11-02";
  EXPECT_EQ(Compare(reversed), "VAL_001");
  PeriodArguments malformed = Args("2026-11-16", "2026-11-22");
  malformed.compare_from = "2026-11-02";
  malformed.compare_to = "yesterday";
  EXPECT_EQ(Compare(malformed), "VAL_001");
  EXPECT_EQ(WithPreset("2026-11-16", "2026-11-22", "last_tuesday"), "VAL_001");
}

TEST(Comparison, RequestedWindowMoreThanAYearBackIsVal001) {
  PeriodArguments args = Args("2026-11-16", "2026-11-22");
  args.compare_from = "2025-11-16";  // exactly one year: allowed
  args.compare_to = "2025-11-22";
  EXPECT_EQ(Compare(args), "2025-11-16..2025-11-22");
  args.compare_from = "2025-11-15";
  EXPECT_EQ(Compare(args), "VAL_001");
  // An explicit preset is a request too: 400 days back from a 400-day selection.
  EXPECT_EQ(WithPreset("2025-01-01", "2026-02-04", "previous_period"), "VAL_001");
  EXPECT_EQ(WithPreset("2025-01-01", "2026-02-04", "previous_year"), "2024-01-01..2025-02-04");
}

TEST(Comparison, DefaultReachingMoreThanAYearBackIsDroppedWithoutError) {
  auto period = ResolvePeriod(Args("2025-01-01", "2026-02-04"), kToday);
  ASSERT_TRUE(period);
  EXPECT_FALSE(period->comparison);
  // A selection of a whole year still has its comparison: the 365 days before it.
  EXPECT_EQ(Compare(Args("2025-01-01", "2025-12-31")), "2024-01-02..2024-12-31");
}

TEST(Comparison, BadSelectionsAreVal003) {
  PeriodArguments lone;
  lone.from = "2026-11-01";
  EXPECT_EQ(Compare(lone), "VAL_003");
  EXPECT_EQ(Compare(Args("2026-11-22", "2026-11-01")), "VAL_003");
  EXPECT_EQ(Compare(Args("2026-11-31", "2026-12-01")), "VAL_003");
  EXPECT_EQ(Compare(Args("2020-01-01", "2026-01-01")), "VAL_003");  // longer than allowed
}

}  // namespace
}  // namespace sightline::reports
