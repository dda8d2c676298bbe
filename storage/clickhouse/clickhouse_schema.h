// The event store's tables on ClickHouse, as data: numbered steps, each a list of statements
// that are safe to run twice (IF NOT EXISTS), applied on every shard in order and recorded in
// that shard's `sightline_schema` table. ClickHouse has no transactions and 18.16 runs `ON
// CLUSTER` DDL only with ZooKeeper, so each shard is migrated on its own and a step that stopped
// halfway is simply run again.
//
// With a cluster, each table is `<name>_local` (MergeTree) on every shard plus `<name>`, a
// `Distributed` table over them sharded by visitor, so a visit never spans shards; without one,
// `<name>` is the MergeTree itself. docs/clickhouse.md has the tables and why.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/clickhouse/clickhouse_client.h"

namespace sightline::storage::clickhouse {

struct SchemaStatement {
  // With the placeholders {local} ("_local" with a cluster, "" without), {cluster} and
  // {database}.
  std::string_view sql;
  bool cluster_only = false;  // the Distributed tables
};

struct SchemaStep {
  int version = 0;
  std::string_view name;
  std::vector<SchemaStatement> statements;
};

const std::vector<SchemaStep>& EventSchemaSteps();
int LatestEventSchemaVersion();

// The statement as run against `endpoint`: its placeholders filled in.
std::string RenderStatement(const SchemaStatement& statement, const Endpoint& endpoint);

// Applies the steps a shard has not recorded, on every shard; the number of steps applied on
// all of them together. Refuses (SYS_001) a shard whose schema is newer than this binary's.
core::Result<int> MigrateEventSchema(const Client& client);

}  // namespace sightline::storage::clickhouse
