#include "storage/block_reads.h"

#include <optional>
#include <utility>

namespace sightline::storage::internal {
namespace {

using blocks::PartialBlock;
using core::Result;

Result<std::vector<std::string>> ReadWhole(SqlSession& session, const BlockSelection& s) {
  auto rows = session.Query("SELECT data FROM " + std::string(s.table) + " WHERE " +
                                std::string(s.where) + " ORDER BY " + std::string(s.order_by),
                            s.params);
  if (!rows) return rows.error();
  std::vector<std::string> blocks;
  blocks.reserve(rows->size());
  for (SqlRow& row : *rows) blocks.push_back(row.TakeText(0));
  return blocks;
}

// One block being read in parts: its row version, and its plan (none: fetched whole).
struct Planned {
  std::int64_t id = 0;
  std::string version;
  std::int64_t size = 0;
  std::string head;
  std::optional<PartialBlock> plan;
};

// Every part of every block in one statement; nullopt when a block changed since its head was
// read (its row version is another, or it is gone).
Result<std::optional<std::vector<std::string>>> ReadParts(SqlSession& session,
                                                          std::string_view table,
                                                          const std::vector<Planned>& blocks) {
  std::string values;
  std::vector<SqlValue> params;
  std::size_t expected = 0;
  const auto add = [&](std::int64_t id, const std::string& version, std::size_t offset,
                       std::size_t size) {
    const std::size_t n = params.size();
    values += values.empty() ? "" : ", ";
    // (substring of a bytea takes integers: a block is far below 2 GB.)
    values += "($" + std::to_string(n + 1) + "::bigint, $" + std::to_string(n + 2) +
              "::bigint, $" + std::to_string(n + 3) + ", $" + std::to_string(n + 4) +
              "::integer, $" + std::to_string(n + 5) + "::integer)";
    params.insert(params.end(), {static_cast<std::int64_t>(expected), id, version,
                                 static_cast<std::int64_t>(offset) + 1,
                                 static_cast<std::int64_t>(size)});
    ++expected;
  };
  for (const Planned& block : blocks) {
    if (block.size <= static_cast<std::int64_t>(block.head.size())) continue;  // head is all
    if (!block.plan) {
      add(block.id, block.version, 0, static_cast<std::size_t>(block.size));
      continue;
    }
    for (const auto& [offset, size] : block.plan->ranges()) add(block.id, block.version, offset, size);
  }
  std::vector<std::string> parts;
  if (expected == 0) return std::optional(std::move(parts));
  auto rows = session.Query(
      "SELECT r.n, substring(b.data from r.o for r.l) FROM " + std::string(table) +
          " AS b JOIN (VALUES " + values + ") AS r(n, id, v, o, l) ON b.id = r.id AND "
          "b.xmin::text = r.v ORDER BY r.n",
      params);
  if (!rows) return rows.error();
  if (rows->size() != expected) return std::optional<std::vector<std::string>>();
  parts.reserve(expected);
  for (SqlRow& row : *rows) parts.push_back(row.TakeText(1));
  return std::optional(std::move(parts));
}

}  // namespace

Result<std::vector<std::string>> ReadBlocks(SqlSession& session, const BlockSelection& s,
                                            const std::vector<blocks::ColumnId>* columns) {
  if (columns == nullptr || session.dialect() != Dialect::kPostgres) return ReadWhole(session, s);
  auto heads = session.Query(
      "SELECT id, xmin::text, octet_length(data), substring(data from 1 for " +
          std::to_string(PartialBlock::kHeadBytes) + ") FROM " + std::string(s.table) +
          " WHERE " + std::string(s.where) + " ORDER BY " + std::string(s.order_by),
      s.params);
  if (!heads) return heads.error();
  std::vector<Planned> blocks;
  blocks.reserve(heads->size());
  for (SqlRow& row : *heads) {
    Planned block{row.Int(0), row.Text(1), row.Int(2), row.TakeText(3), std::nullopt};
    if (block.size > static_cast<std::int64_t>(block.head.size())) {
      auto plan = PartialBlock::Plan(block.head, *columns);
      if (!plan) return plan.error();
      block.plan = std::move(*plan);
    }
    blocks.push_back(std::move(block));
  }
  auto parts = ReadParts(session, s.table, blocks);
  if (!parts) return parts.error();
  if (!*parts) return ReadWhole(session, s);  // a block changed in between
  std::vector<std::string> out;
  out.reserve(blocks.size());
  std::size_t next = 0;
  for (Planned& block : blocks) {
    if (block.size <= static_cast<std::int64_t>(block.head.size())) {
      out.push_back(std::move(block.head));
    } else if (!block.plan) {
      out.push_back(std::move((**parts)[next++]));
    } else {
      std::vector<std::string> pieces;
      for (std::size_t i = 0; i < block.plan->ranges().size(); ++i) {
        pieces.push_back(std::move((**parts)[next++]));
      }
      auto assembled = block.plan->Assemble(pieces);
      if (!assembled) return assembled.error();
      out.push_back(std::move(*assembled));
    }
  }
  return out;
}

}  // namespace sightline::storage::internal
