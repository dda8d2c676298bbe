// The fixture of the ClickHouse suites: a client of the two-shard test cluster script/test
// starts (script/clickhouse-test-cluster; SIGHTLINE_TEST_CLICKHOUSE_URL), on a database of the
// test's own, created on every shard and dropped afterwards.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include "net/http_client.h"
#include "storage/clickhouse/clickhouse_client.h"

namespace sightline::storage::clickhouse {

inline constexpr const char* kClickHouseUrlVariable = "SIGHTLINE_TEST_CLICKHOUSE_URL";

class ClickHouseCluster : public testing::Test {
 protected:
  void SetUp() override {
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
    client_.emplace(http_, *endpoint);
    for (std::size_t node = 0; node < endpoint->nodes.size(); ++node) {
      // The URL names the new database, which does not exist yet: create it from `default`.
      Endpoint bare = *endpoint;
      bare.database = "default";
      auto made = Client(http_, bare).Execute("CREATE DATABASE " + endpoint->database, {}, node);
      ASSERT_TRUE(made) << made.error().message();
    }
  }

  void TearDown() override {
    if (!client_) return;
    Endpoint bare = client_->endpoint();
    const std::string database = bare.database;
    bare.database = "default";
    for (std::size_t node = 0; node < bare.nodes.size(); ++node) {
      (void)Client(http_, bare).Execute("DROP DATABASE IF EXISTS " + database, {}, node);
    }
  }

  std::size_t Count(const std::string& table, std::size_t node) {
    auto rows = client_->Execute("SELECT count() FROM " + table, {}, node);
    EXPECT_TRUE(rows) << rows.error().message();
    return rows ? std::stoul(*rows) : 0;
  }

  net::BeastHttpClient http_{net::HttpClientOptions{}};
  std::optional<Client> client_;
};

}  // namespace sightline::storage::clickhouse
