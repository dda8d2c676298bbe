// The fixture of the ClickHouse suites: a client of the two-shard test cluster script/test
// starts (script/clickhouse-test-cluster; SIGHTLINE_TEST_CLICKHOUSE_URL), on a database of the
// test's own, created on every shard and dropped afterwards.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "net/http_client.h"
#include "storage/clickhouse/clickhouse_client.h"
#include "storage/clickhouse/clickhouse_schema.h"

namespace sightline::storage::clickhouse {

inline constexpr const char* kClickHouseUrlVariable = "SIGHTLINE_TEST_CLICKHOUSE_URL";

// Opens `client` on a database of the test's own, created on every shard; skips the test (or,
// under SIGHTLINE_REQUIRE_CLICKHOUSE, fails it) without a cluster. Callers check IsSkipped() and
// HasFatalFailure() after it.
inline void OpenTestDatabase(net::BeastHttpClient& http, std::optional<Client>& client) {
  const char* url = std::getenv(kClickHouseUrlVariable);
  if (url == nullptr) {
    // script/test sets SIGHTLINE_REQUIRE_CLICKHOUSE so that CI can never pass by skipping.
    if (std::getenv("SIGHTLINE_REQUIRE_CLICKHOUSE") != nullptr) {
      FAIL() << kClickHouseUrlVariable << " is unset but SIGHTLINE_REQUIRE_CLICKHOUSE is set.";
    }
    GTEST_SKIP() << kClickHouseUrlVariable << " is unset; start a cluster with "
                 << "script/clickhouse-test-cluster start DIR";
  }
  auto endpoint = ParseEventsUrl(url);
  ASSERT_TRUE(endpoint) << endpoint.error().message();
  std::random_device random;
  endpoint->database = "test_" + std::to_string(random()) + std::to_string(random());
  client.emplace(http, *endpoint);
  for (std::size_t node = 0; node < endpoint->nodes.size(); ++node) {
    // The URL names the new database, which does not exist yet: create it from `default`.
    Endpoint bare = *endpoint;
    bare.database = "default";
    auto made = Client(http, bare).Execute("CREATE DATABASE " + endpoint->database, {}, node);
    ASSERT_TRUE(made) << made.error().message();
  }
}

// Drops the database OpenTestDatabase made, on every shard.
inline void DropTestDatabase(net::BeastHttpClient& http, const std::optional<Client>& client) {
  if (!client) return;
  Endpoint bare = client->endpoint();
  const std::string database = bare.database;
  bare.database = "default";
  for (std::size_t node = 0; node < bare.nodes.size(); ++node) {
    (void)Client(http, bare).Execute("DROP DATABASE IF EXISTS " + database, {}, node);
  }
}

class ClickHouseCluster : public testing::Test {
 protected:
  void SetUp() override { OpenTestDatabase(http_, client_); }
  void TearDown() override { DropTestDatabase(http_, client_); }

  std::size_t Count(const std::string& table, std::size_t node) {
    auto rows = client_->Execute("SELECT count() FROM " + table, {}, node);
    EXPECT_TRUE(rows) << rows.error().message();
    return rows ? std::stoul(*rows) : 0;
  }

  // The distinct lines of a query's TabSeparated answer on one node (one value per row).
  std::set<std::string> Lines(const std::string& sql, std::size_t node) {
    std::set<std::string> lines;
    auto body = client_->Execute(sql, {}, node);
    if (!body) {
      ADD_FAILURE() << body.error().message();
      return lines;
    }
    std::size_t start = 0;
    for (std::size_t end; (end = body->find('\n', start)) != std::string::npos; start = end + 1) {
      lines.insert(body->substr(start, end - start));
    }
    return lines;
  }

  net::BeastHttpClient http_{net::HttpClientOptions{}};
  std::optional<Client> client_;
};

// The cluster with the product's tables made.
class ClickHouseTables : public ClickHouseCluster {
 protected:
  void SetUp() override {
    ClickHouseCluster::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto migrated = MigrateEventSchema(*client_);
    ASSERT_TRUE(migrated) << migrated.error().message();
  }
};

}  // namespace sightline::storage::clickhouse
