#include "core/logging.h"

#include <boost/json/string.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "core/json_util.h"

namespace sightline::core {
namespace {

spdlog::level::level_enum ToSpdlog(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return spdlog::level::debug;
    case LogLevel::kInfo: return spdlog::level::info;
    case LogLevel::kWarn: return spdlog::level::warn;
    case LogLevel::kError: return spdlog::level::err;
  }
  return spdlog::level::info;
}

}  // namespace

bool ParseLogLevel(std::string_view text, LogLevel* out) {
  if (text == "debug") *out = LogLevel::kDebug;
  else if (text == "info") *out = LogLevel::kInfo;
  else if (text == "warn") *out = LogLevel::kWarn;
  else if (text == "error") *out = LogLevel::kError;
  else return false;
  return true;
}

void SetupLogging(std::string_view level, LogTarget target) {
  spdlog::drop("sightline");
  auto logger = target == LogTarget::kStdout ? spdlog::stdout_logger_mt("sightline")
                                             : spdlog::stderr_logger_mt("sightline");
  // The message part is a pre-serialized run of JSON members; see Log().
  logger->set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})",
                      spdlog::pattern_time_type::utc);
  LogLevel parsed = LogLevel::kInfo;
  ParseLogLevel(level, &parsed);
  logger->set_level(ToSpdlog(parsed));
  logger->flush_on(spdlog::level::info);  // logs are few and tests read them as they come
  spdlog::set_default_logger(std::move(logger));
}

bool LogEnabled(LogLevel level) {
  return spdlog::default_logger_raw()->should_log(ToSpdlog(level));
}

void Log(LogLevel level, std::string_view message, const boost::json::object& fields) {
  auto logger = spdlog::default_logger_raw();
  if (!logger->should_log(ToSpdlog(level))) return;
  std::string line = "\"msg\":" + ToJson(boost::json::string(message));
  for (const auto& field : fields) {
    line += ",";
    line += ToJson(boost::json::string(field.key()));
    line += ":";
    line += ToJson(field.value());
  }
  logger->log(ToSpdlog(level), "{}", line);
}

void FlushLogs() { spdlog::default_logger_raw()->flush(); }

}  // namespace sightline::core
