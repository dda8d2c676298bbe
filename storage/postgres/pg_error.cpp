#include "storage/postgres/pg_error.h"

#include <pqxx/pqxx>
#include <string>

namespace sightline::storage {

using core::Error;
using core::ErrorCode;

namespace {

// libpq reports a dead connection through whatever is asked of it next; pqxx asks for the client
// encoding before reading a result, and throws broken_connection ("…: not connected.") or, when
// its own state still says open, a plain failure with the same words.
bool IsLostConnection(const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) return true;
  return dynamic_cast<const pqxx::failure*>(&e) != nullptr &&
         std::string_view(e.what()).starts_with("Could not obtain client encoding");
}

}  // namespace

Error PgError(const std::exception& e, std::string_view what) {
  std::string detail = std::string(what) + ": " + e.what();
  if (dynamic_cast<const pqxx::unique_violation*>(&e) != nullptr) {
    return Error(ErrorCode::kConflict, "A record with the same unique key already exists.")
        .WithInternal(std::move(detail));
  }
  if (IsLostConnection(e)) {
    return Error(ErrorCode::kStorageUnavailable, "The database is unavailable.")
        .WithInternal(
            "The connection to the database was lost (the server closed it or cannot "
            "be reached); " +
            detail);
  }
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return Error(ErrorCode::kStorageUnavailable, "The database is unavailable.")
        .WithInternal(
            "The connection to the database was lost during COMMIT; whether the "
            "transaction committed is unknown; " +
            detail);
  }
  if (dynamic_cast<const pqxx::insufficient_resources*>(&e) != nullptr) {
    return Error(ErrorCode::kStorageUnavailable, "The database is unavailable.")
        .WithInternal("The database server is out of resources; " + detail);
  }
  return Error::Internal(std::move(detail));
}

Error PgConnectError(const std::exception& e) {
  return Error(ErrorCode::kStorageUnavailable, "The database could not be reached.")
      .WithInternal(std::string("The database server cannot be reached (connect): ") + e.what());
}

}  // namespace sightline::storage
