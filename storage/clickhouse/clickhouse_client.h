// ClickHouse's HTTP interface, over the product's outbound client (core::HttpClient): the
// event store beyond one machine. The server is the operator's own, so private and loopback
// addresses are allowed. ClickHouse 18.16 (Debian 12) has no query parameters, so values go
// into the SQL text through Quote, the one place that escapes them.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/http_client.h"
#include "core/result.h"

namespace sightline::storage::clickhouse {

// Where the events go, from `--events-url`:
//   http[s]://[user[:password]@]host:port[,host:port…]/?database=NAME[&cluster=NAME]
// `cluster` names a `remote_servers` cluster whose shards are the hosts listed, one replica
// each (ClickHouse 18.16 runs `ON CLUSTER` DDL only with ZooKeeper, so the product creates its
// tables on each shard itself); the events are written and read through `Distributed` tables
// over them, on the first host that answers.
struct Endpoint {
  std::vector<std::string> nodes;  // origins, "http://127.0.0.1:8123"
  std::string database;
  std::string cluster;  // empty: one server
  std::string user;
  std::string password;
};

// VAL_001-style errors name what is wrong; the password is never part of a message.
core::Result<Endpoint> ParseEventsUrl(std::string_view url);

// A string literal for ClickHouse SQL: quoted, with backslash, quote and control bytes escaped.
std::string Quote(std::string_view text);

class Client {
 public:
  Client(core::HttpClient& http, Endpoint endpoint,
         std::chrono::milliseconds timeout = std::chrono::seconds(30));

  using Settings = std::vector<std::pair<std::string, std::string>>;

  // Runs one statement on `node` (an index into endpoint().nodes); the answer's body (empty for
  // DDL and inserts). With `data`, the statement goes in the URL and `data` is the body (an
  // INSERT's rows, in the format it names). SQL errors are SYS_001 with ClickHouse's message; a
  // server that is unreachable, or cannot reach a shard it needs, SYS_003.
  core::Result<std::string> Execute(std::string_view sql, const Settings& settings = {},
                                    std::size_t node = 0, std::string_view data = {}) const;
  // A SELECT's rows (FORMAT JSONEachRow is appended): one object per row.
  core::Result<std::vector<boost::json::object>> Select(std::string_view sql,
                                                        const Settings& settings = {}) const;
  // Inserts `rows`, in `format`, into `target`: a table and optionally its column list, "events
  // (id, project_id)" (the product's own names, never outside input). With `all_shards` (a
  // Distributed table), the answer waits until every shard has stored its rows
  // (insert_distributed_sync), so a success means the rows are on disk on their shards.
  core::Result<void> Insert(std::string_view target, std::string_view rows, bool all_shards,
                            std::string_view format = "JSONEachRow") const;

  const Endpoint& endpoint() const { return endpoint_; }

 private:
  core::HttpClient& http_;
  Endpoint endpoint_;
  std::chrono::milliseconds timeout_;
};

}  // namespace sightline::storage::clickhouse
