// Reading stored column blocks (event_blocks, visit_blocks), whole or only some of their
// columns. PostgreSQL fetches only the parts a reader names: it reads the blocks' first bytes
// (their directories) and then the wanted payloads with `substring`, which on an uncompressed
// TOASTed bytea (the blocks' storage is EXTERNAL) reads only the chunks they are in; a block
// rewritten between the two statements (a sealing adding to it) sends the read back to whole
// blocks in one statement. SQLite reads whole values either way, so it reads blocks whole.
// Internal to storage/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/blocks/column_block.h"
#include "storage/sql.h"

namespace sightline::storage::internal {

struct BlockSelection {
  std::string_view table;     // event_blocks or visit_blocks: a `data` and an `id` column
  std::string_view where;     // the rows, with $1…$n of `params`
  std::vector<SqlValue> params;
  std::string_view order_by;  // the blocks' order
};

// The selected blocks in order: with `columns`, blocks holding only those of them (the reader
// decodes no other), else whole.
core::Result<std::vector<std::string>> ReadBlocks(
    SqlSession& session, const BlockSelection& selection,
    const std::vector<blocks::ColumnId>* columns = nullptr);

}  // namespace sightline::storage::internal
