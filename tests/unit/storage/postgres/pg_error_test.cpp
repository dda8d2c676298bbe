#include "storage/postgres/pg_error.h"

#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <stdexcept>

namespace sightline::storage {
namespace {

using core::ErrorCode;

// The log line must say what happened before pqxx's words for it.
void ExpectLostConnection(const core::Error& error, const std::string& pqxx_text) {
  EXPECT_EQ(error.code(), ErrorCode::kStorageUnavailable);
  EXPECT_TRUE(error.internal().starts_with("The connection to the database was lost"))
      << error.internal();
  EXPECT_TRUE(error.internal().ends_with("transaction: " + pqxx_text)) << error.internal();
}

TEST(PgError, ADroppedConnectionIsSaidInWordsWithPqxxsTextAfter) {
  const std::string not_connected = "Could not obtain client encoding: not connected.";
  ExpectLostConnection(PgError(pqxx::broken_connection(not_connected), "transaction"),
                       not_connected);
  // pqxx throws a plain failure with these words when its own state still says open.
  const std::string plain = "Could not obtain client encoding.";
  ExpectLostConnection(PgError(pqxx::failure(plain), "transaction"), plain);
}

TEST(PgError, OtherFailuresKeepTheirCodes) {
  const core::Error doubt = PgError(pqxx::in_doubt_error("lost during commit"), "transaction");
  EXPECT_EQ(doubt.code(), ErrorCode::kStorageUnavailable);
  EXPECT_NE(doubt.internal().find("unknown"), std::string::npos) << doubt.internal();
  const core::Error syntax = PgError(pqxx::failure("syntax error at or near"), "statement q1");
  EXPECT_EQ(syntax.code(), ErrorCode::kInternal);
  EXPECT_EQ(syntax.internal(), "statement q1: syntax error at or near");
}

TEST(PgConnectError, SaysTheServerCannotBeReached) {
  const core::Error error =
      PgConnectError(pqxx::broken_connection("could not connect to server: Connection refused"));
  EXPECT_EQ(error.code(), ErrorCode::kStorageUnavailable);
  EXPECT_EQ(error.internal(),
            "The database server cannot be reached (connect): could not connect to server: "
            "Connection refused");
}

}  // namespace
}  // namespace sightline::storage
