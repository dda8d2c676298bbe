#include "core/clock.h"

#include <array>
#include <cstdio>

namespace sightline::core {
namespace {

struct CivilDate {
  int year;
  unsigned month;
  unsigned day;
};

CivilDate CivilFromDays(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const auto y = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2));
  return {y, m, d};
}

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

std::int64_t Clock::NowMillis() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Now().time_since_epoch()).count();
}

TimePoint ManualClock::Now() const {
  return TimePoint(std::chrono::milliseconds(millis_.load()));
}

std::int64_t DaysFromCivil(int year, unsigned month, unsigned day) {
  year -= month <= 2;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::string FormatRfc3339(std::int64_t unix_millis) {
  const std::int64_t secs = FloorDiv(unix_millis, 1000);
  const auto millis = static_cast<int>(unix_millis - secs * 1000);
  const std::int64_t days = FloorDiv(secs, 86400);
  const auto sod = static_cast<int>(secs - days * 86400);
  const CivilDate date = CivilFromDays(days);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", date.year, date.month,
                date.day, sod / 3600, sod / 60 % 60, sod % 60, millis);
  return buf;
}

std::optional<std::int64_t> ParseRfc3339(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  char sep = 0;
  int consumed = 0;
  const std::string text(s);
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &year, &month, &day, &sep, &hour,
                  &minute, &second, &consumed) != 7 ||
      consumed != 19 || (sep != 'T' && sep != 't') || month < 1 || month > 12 || day < 1 ||
      day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::string_view rest = s.substr(19);
  std::int64_t millis = 0;
  if (!rest.empty() && rest.front() == '.') {
    std::size_t digits = 1;
    int scale = 100;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      millis += (rest[digits] - '0') * scale;
      scale /= 10;
      ++digits;
    }
    if (digits == 1) return std::nullopt;
    rest.remove_prefix(digits);
  }
  std::int64_t offset_minutes = 0;
  if (rest == "Z" || rest == "z") {
  } else if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':') {
    int oh = 0, om = 0;
    if (std::sscanf(std::string(rest.substr(1)).c_str(), "%2d:%2d", &oh, &om) != 2) {
      return std::nullopt;
    }
    offset_minutes = (rest[0] == '+' ? 1 : -1) * (oh * 60 + om);
  } else {
    return std::nullopt;
  }
  const std::int64_t days = DaysFromCivil(year, static_cast<unsigned>(month),
                                          static_cast<unsigned>(day));
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second -
                               offset_minutes * 60;
  return seconds * 1000 + millis;
}

std::string FormatHttpDate(std::int64_t unix_seconds) {
  static constexpr std::array<const char*, 7> kWeekdays = {"Thu", "Fri", "Sat", "Sun",
                                                           "Mon", "Tue", "Wed"};
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::int64_t days = FloorDiv(unix_seconds, 86400);
  const auto sod = static_cast<int>(unix_seconds - days * 86400);
  const CivilDate date = CivilFromDays(days);
  const auto weekday = static_cast<std::size_t>(((days % 7) + 7) % 7);  // 1970-01-01 was Thu
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s, %02u %s %04d %02d:%02d:%02d GMT", kWeekdays[weekday],
                date.day, kMonths[date.month - 1], date.year, sod / 3600, sod / 60 % 60, sod % 60);
  return buf;
}

}  // namespace sightline::core
