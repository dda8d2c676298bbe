#include "reports/calendar.h"

#include <gtest/gtest.h>

#include <set>

// Expected instants are written out by hand from the zones' published rules.
namespace sightline::reports {
namespace {

constexpr std::int64_t kHour = 3'600'000;

LocalDay Day(std::string_view text) { return *ParseDate(text, "from"); }

ReportingZone Zone(std::string_view name) { return *ReportingZone::Find(name); }

TEST(Calendar, ParsesAndFormatsDates) {
  EXPECT_EQ(Day("1970-01-01"), 0);
  EXPECT_EQ(Day("2024-02-29"), 19782);
  EXPECT_EQ(FormatDate(19782), "2024-02-29");
  for (std::string_view bad : {"2023-02-29", "2024-13-01", "2024-1-01", "20240101", "2024-01-01x",
                               "", "1969-12-31", "2024-00-10", "2024-01-32"}) {
    auto parsed = ParseDate(bad, "from");
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code(), core::ErrorCode::kValInvalidParameter);
  }
}

TEST(Calendar, AddsMonthsClampingTheMonthEnd) {
  EXPECT_EQ(FormatDate(AddMonths(Day("2024-03-31"), -1)), "2024-02-29");
  EXPECT_EQ(FormatDate(AddMonths(Day("2023-03-31"), -1)), "2023-02-28");
  EXPECT_EQ(FormatDate(AddMonths(Day("2024-02-29"), -12)), "2023-02-28");
  EXPECT_EQ(FormatDate(AddMonths(Day("2024-01-15"), -3)), "2023-10-15");
  EXPECT_EQ(FormatDate(LastOfMonth(Day("2024-02-10"))), "2024-02-29");
  EXPECT_TRUE(IsFirstOfMonth(Day("2024-02-01")));
  EXPECT_TRUE(IsLastOfMonth(Day("2023-02-28")));
  EXPECT_FALSE(IsLastOfMonth(Day("2024-02-28")));
}

TEST(Calendar, RefusesUnknownZones) {
  for (std::string_view bad : {"Mars/Olympus", "../etc/passwd", "", "utc", "Europe/"}) {
    EXPECT_FALSE(ReportingZone::Find(bad)) << bad;
  }
}

TEST(Calendar, DaysStartAtLocalMidnight) {
  // 2026-01-09 00:00 in UTC is 1767916800000 ms.
  const std::int64_t utc_midnight = 1'767'916'800'000;
  EXPECT_EQ(Zone("UTC").StartOfDay(Day("2026-01-09")), utc_midnight);
  EXPECT_EQ(Zone("Europe/Berlin").StartOfDay(Day("2026-01-09")), utc_midnight - kHour);
  EXPECT_EQ(Zone("America/New_York").StartOfDay(Day("2026-01-09")), utc_midnight + 5 * kHour);
  EXPECT_EQ(Zone("Asia/Kolkata").StartOfDay(Day("2026-01-09")),
            utc_midnight - 5 * kHour - kHour / 2);
  EXPECT_EQ(Zone("Asia/Kathmandu").StartOfDay(Day("2026-01-09")),
            utc_midnight - 5 * kHour - 45 * 60'000);
}

TEST(Calendar, DstDaysHave23And25Hours) {
  const ReportingZone berlin = Zone("Europe/Berlin");
  const auto length = [&](std::string_view day) {
    const UtcWindow window = berlin.Window({Day(day), Day(day)});
    return (window.end_ms - window.start_ms) / kHour;
  };
  EXPECT_EQ(length("2026-03-29"), 23);
  EXPECT_EQ(length("2026-10-25"), 25);
  EXPECT_EQ(length("2026-06-01"), 24);
  EXPECT_EQ(berlin.Buckets({Day("2026-03-29"), Day("2026-03-29")}, Interval::kHour).size(), 23u);
  EXPECT_EQ(berlin.Buckets({Day("2026-10-25"), Day("2026-10-25")}, Interval::kHour).size(), 25u);
}

TEST(Calendar, MidnightSkippedByDstStartsTheDayWhenClocksJump) {
  // America/Santiago springs forward at 24:00 on 2026-09-05: 2026-09-06 begins at 01:00 local,
  // 04:00 UTC (−04 then −03).
  const ReportingZone santiago = Zone("America/Santiago");
  const std::int64_t start = santiago.StartOfDay(Day("2026-09-06"));
  EXPECT_EQ(santiago.FormatLocal(start), "2026-09-06T01:00:00-03:00");
  EXPECT_EQ(santiago.DayOf(start), Day("2026-09-06"));
  EXPECT_EQ(santiago.DayOf(start - 1), Day("2026-09-05"));
}

TEST(Calendar, FormatsLocalTimesWithTheirOffset) {
  const std::int64_t instant = 1'767'916'800'000;  // 2026-01-09T00:00:00Z
  EXPECT_EQ(Zone("Asia/Kathmandu").FormatLocal(instant), "2026-01-09T05:45:00+05:45");
  EXPECT_EQ(Zone("America/New_York").FormatLocal(instant), "2026-01-08T19:00:00-05:00");
  EXPECT_EQ(Zone("UTC").FormatLocal(instant), "2026-01-09T00:00:00+00:00");
}

TEST(Calendar, WeeksAreIsoWeeksClippedToTheRange) {
  // 2026-11-04 is a Wednesday; 2026-11-22 a Sunday.
  const auto buckets =
      Zone("UTC").Buckets({Day("2026-11-04"), Day("2026-11-22")}, Interval::kWeek);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets[0].start_ms, Zone("UTC").StartOfDay(Day("2026-11-04")));
  EXPECT_EQ(buckets[0].end_ms, Zone("UTC").StartOfDay(Day("2026-11-09")));  // Monday
  EXPECT_EQ(buckets[2].end_ms, Zone("UTC").StartOfDay(Day("2026-11-23")));
}

TEST(Calendar, MonthsAreCalendarMonthsClippedToTheRange) {
  const ReportingZone zone = Zone("Asia/Kolkata");
  const auto buckets = zone.Buckets({Day("2024-01-15"), Day("2024-03-10")}, Interval::kMonth);
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets[1].start_ms, zone.StartOfDay(Day("2024-02-01")));
  EXPECT_EQ(buckets[1].end_ms, zone.StartOfDay(Day("2024-03-01")));
  EXPECT_EQ(buckets[2].end_ms, zone.StartOfDay(Day("2024-03-11")));
}

TEST(Calendar, BucketsTileTheWindowExactly) {
  for (std::string_view name : {"UTC", "Europe/Berlin", "Asia/Kathmandu", "Australia/Lord_Howe",
                                "America/Santiago"}) {
    const ReportingZone zone = Zone(name);
    const DayRange range{Day("2026-01-01"), Day("2026-12-31")};
    for (Interval interval : {Interval::kHour, Interval::kDay, Interval::kWeek, Interval::kMonth}) {
      const auto buckets = zone.Buckets(range, interval);
      ASSERT_FALSE(buckets.empty());
      EXPECT_EQ(buckets.front().start_ms, zone.Window(range).start_ms) << name;
      EXPECT_EQ(buckets.back().end_ms, zone.Window(range).end_ms) << name;
      for (std::size_t i = 1; i < buckets.size(); ++i) {
        ASSERT_EQ(buckets[i].start_ms, buckets[i - 1].end_ms) << name;
        ASSERT_LT(buckets[i].start_ms, buckets[i].end_ms) << name;
      }
    }
  }
}

}  // namespace
}  // namespace sightline::reports
