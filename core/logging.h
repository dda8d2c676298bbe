// Structured JSON logs on stdout, one object per line:
//   {"ts":"2026-11-22T10:04:05.123Z","level":"info","msg":"access","method":"GET",...}
// Never pass secrets or whole credentials as fields. Thread-safe (spdlog's default logger).
#pragma once

#include <boost/json/object.hpp>

#include <string_view>

namespace sightline::core {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

// Installs the JSON logger. `level` is "debug", "info", "warn" or "error". Servers log to
// stdout; commands whose stdout is their result (admin bootstrap) log to stderr.
enum class LogTarget { kStdout, kStderr };
void SetupLogging(std::string_view level, LogTarget target = LogTarget::kStdout);
bool ParseLogLevel(std::string_view text, LogLevel* out);
void Log(LogLevel level, std::string_view message, const boost::json::object& fields = {});
// Whether Log at `level` writes anything: lets a hot path skip building the fields.
bool LogEnabled(LogLevel level);
void FlushLogs();

}  // namespace sightline::core
