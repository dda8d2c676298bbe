// The privacy-preserving daily visitor id of events sent without an anonymous or a user id, as
// Plausible counts visitors: HMAC-SHA-256, keyed by a random salt of the current UTC day, of the
// project id, the client IP and the User-Agent. The salt is created by the first event of the
// day (by whichever node stores it first; the others read it), kept 48 hours and then deleted,
// so an id cannot be recomputed from an IP and User-Agent afterwards, and ids of two days
// cannot be linked. Neither the IP nor the User-Agent is stored for this. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "core/result.h"
#include "storage/store.h"

namespace sightline::ingest {

class DailyVisitorIds {
 public:
  explicit DailyVisitorIds(storage::Store& store) : store_(store) {}

  // The visitor id at `now_ms` (its UTC day's salt), 32 hex characters. Reads or creates the
  // day's salt in the store on the first call of a day (kStorageUnavailable if that fails).
  core::Result<std::string> IdFor(std::string_view project_id, std::string_view client_ip,
                                  std::string_view user_agent, std::int64_t now_ms);

 private:
  core::Result<std::string> SaltOf(std::int64_t day);

  storage::Store& store_;
  std::mutex mutex_;
  std::int64_t cached_day_ = INT64_MIN;  // the day of cached_salt_
  std::string cached_salt_;
};

}  // namespace sightline::ingest
