#include "ingest/daily_visitor_ids.h"

#include "core/crypto.h"
#include "storage/event_repository.h"

namespace sightline::ingest {
namespace {

constexpr std::int64_t kDayMs = 86'400'000;

std::int64_t UtcDayOf(std::int64_t unix_ms) {
  return unix_ms >= 0 ? unix_ms / kDayMs : -((-unix_ms + kDayMs - 1) / kDayMs);
}

}  // namespace

core::Result<std::string> DailyVisitorIds::SaltOf(std::int64_t day) {
  std::lock_guard lock(mutex_);
  if (day == cached_day_) return cached_salt_;
  // 43 base-62 characters carry 256 bits.
  const std::string candidate = core::RandomBase62(43);
  auto salt = store_.Write([&](storage::Transaction& tx) {
    return tx.events().DailyVisitorSalt(day, candidate);
  });
  if (!salt) return salt.error();
  // A clock that goes back keeps the newest day cached; an older day is read each time.
  if (day > cached_day_) {
    cached_day_ = day;
    cached_salt_ = *salt;
  }
  return std::move(*salt);
}

core::Result<std::string> DailyVisitorIds::IdFor(std::string_view project_id,
                                                 std::string_view client_ip,
                                                 std::string_view user_agent,
                                                 std::int64_t now_ms) {
  auto salt = SaltOf(UtcDayOf(now_ms));
  if (!salt) return salt.error();
  // Length-prefixed fields, so no IP and User-Agent pair can pose as another.
  std::string message;
  for (std::string_view field : {project_id, client_ip, user_agent}) {
    message += std::to_string(field.size());
    message += ':';
    message += field;
  }
  return core::HexEncode(core::HmacSha256(*salt, message).substr(0, 16));
}

}  // namespace sightline::ingest
