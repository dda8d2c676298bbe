// Time source, injected everywhere time matters so tests can control it.
// Thread-safety: implementations are safe to call from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::core {

using TimePoint = std::chrono::system_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint Now() const = 0;
  std::int64_t NowMillis() const;
};

class SystemClock final : public Clock {
 public:
  TimePoint Now() const override { return std::chrono::system_clock::now(); }
};

// A clock that only moves when told to; for tests.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t unix_millis) : millis_(unix_millis) {}
  TimePoint Now() const override;
  void Advance(std::chrono::milliseconds by) { millis_ += by.count(); }
  void Set(std::int64_t unix_millis) { millis_ = unix_millis; }

 private:
  std::atomic<std::int64_t> millis_;
};

// RFC 3339 / ISO 8601 UTC with milliseconds: "2026-11-22T10:04:05.123Z".
std::string FormatRfc3339(std::int64_t unix_millis);
// RFC 9110 IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
std::string FormatHttpDate(std::int64_t unix_seconds);
// Parses an RFC 3339 date-time ("2026-11-22T10:04:05Z", "…T10:04:05.123+05:30") to Unix
// milliseconds; nullopt when malformed.
std::optional<std::int64_t> ParseRfc3339(std::string_view text);
// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t DaysFromCivil(int year, unsigned month, unsigned day);

}  // namespace sightline::core
