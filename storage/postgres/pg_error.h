// How a libpqxx failure becomes an Error. pqxx's own words name a symptom, not the cause: a
// connection the server dropped surfaces as "Could not obtain client encoding" (libpq has no
// encoding for a dead connection), so the log would not say the database went away. The
// internal message says what happened first and keeps pqxx's text after it.
// Thread-safe: pure functions.
#pragma once

#include <exception>
#include <string_view>

#include "core/error.h"

namespace sightline::storage {

// A unique violation: kConflict. A broken or doubtful connection or a server out of resources:
// kStorageUnavailable. Anything else: kInternal. `what` names the step ("transaction",
// "statement name").
core::Error PgError(const std::exception& e, std::string_view what);

// A connection that could not be opened (libpq's reason in `e`): kStorageUnavailable.
core::Error PgConnectError(const std::exception& e);

}  // namespace sightline::storage
