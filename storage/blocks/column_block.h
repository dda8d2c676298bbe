// A column block: many rows of one table kept as columns, each column compressed on its own
// (zstd), so a reader decompresses only the columns it needs. The compact event store keeps
// the events of one project and hour as one block (docs/storage.md, "Event blocks").
//
// Columns are numbered by the table's own schema (storage/blocks/event_block.h); a block may
// lack a column, which then reads as all null (text) or all zero (integers), so a schema can
// grow without rewriting old blocks. Two kinds of column:
//   text      nullable strings, dictionary-encoded: the distinct values once, then a code per
//             row (1, 2 or 4 bytes wide as the dictionary needs; 0 is null). Values that are all
//             canonical UUIDs are kept as 16 bytes each instead: without codes when each row
//             has its own (event ids), else as a dictionary of them (visitor and session ids).
//   integer   64-bit integers as zigzag varints of the difference from the previous row.
//
// Layout: "SLB1", varint rows, varint columns, then per column: varint id, kind byte, varint
// raw size, varint compressed size; then the compressed payloads in the same order. Every
// size is checked before anything is allocated, so a damaged block is an error, never a crash
// (fuzzed: fuzz/column_block_fuzz.cpp). Values are immutable once written; thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace sightline::storage::blocks {

using ColumnId = std::uint16_t;

// Builds one block a row at a time: each column receives exactly one value per row.
class BlockWriter {
 public:
  // Appends a value to a text column (created on first use, after `rows_before` nulls).
  void AddText(ColumnId id, std::optional<std::string_view> value);
  void AddInteger(ColumnId id, std::int64_t value);
  // Ends a row: columns that received no value for it get null (text) or 0 (integer).
  void EndRow();

  std::size_t rows() const { return rows_; }
  // The block's bytes. The writer is spent.
  std::string Finish();

 private:
  struct TextColumn {
    std::unordered_map<std::string, std::uint32_t> codes;  // value → code (1-based)
    std::vector<std::string_view> values;                  // by code - 1 (keys of `codes`)
    std::vector<std::uint32_t> rows;                       // per row, 0 for null
  };
  struct IntegerColumn {
    std::vector<std::int64_t> rows;
  };
  TextColumn& Text(ColumnId id);
  IntegerColumn& Integer(ColumnId id);

  std::size_t rows_ = 0;
  std::unordered_map<ColumnId, TextColumn> texts_;
  std::unordered_map<ColumnId, IntegerColumn> integers_;
};

// How a reader wants a column of canonical UUIDs: as their text, or as their 16 bytes each
// (which saves formatting them when the reader only tells them apart).
enum class UuidForm { kText, kPacked };

// The canonical text (lowercase, with dashes) of a UUID's 16 bytes.
std::string UuidText(std::string_view packed);

// One text column decoded: the dictionary and a code per row (0: null).
struct TextValues {
  // The dictionary's bytes, on the heap so that moving keeps the views valid (a short
  // std::string moved would take its bytes along).
  std::unique_ptr<std::string> arena = std::make_unique<std::string>();
  std::vector<std::string_view> values;   // [0] is unused (null); views into `arena`
  std::vector<std::uint32_t> codes;       // per row
  // The values are UUIDs' 16 bytes each, not their text (asked with UuidForm::kPacked, of a
  // column kept as UUIDs).
  bool packed_uuids = false;

  std::optional<std::string_view> At(std::size_t row) const {
    const std::uint32_t code = codes[row];
    if (code == 0) return std::nullopt;
    return values[code];
  }
};

// Reads a block. The bytes must outlive the reader. Open checks the whole directory; each
// column is checked again as it is decoded.
class BlockReader {
 public:
  // VAL_007 ("stored block is damaged") for bytes that are not a well-formed block.
  static core::Result<BlockReader> Open(std::string_view bytes);
  // A temporary string would be gone before the first column is read.
  static core::Result<BlockReader> Open(std::string&& bytes) = delete;

  std::size_t rows() const { return rows_; }
  bool Has(ColumnId id) const;
  // A text column (all null when the block lacks it); an error for an integer column. With
  // UuidForm::kPacked, a column kept as UUIDs comes as their bytes (TextValues::packed_uuids).
  core::Result<TextValues> Text(ColumnId id, UuidForm form = UuidForm::kText) const;
  // An integer column (all 0 when the block lacks it); an error for a text column.
  core::Result<std::vector<std::int64_t>> Integers(ColumnId id) const;

 private:
  struct Entry {
    ColumnId id = 0;
    std::uint8_t kind = 0;
    std::size_t raw_size = 0;
    std::string_view payload;
  };
  const Entry* Find(ColumnId id) const;
  core::Result<std::string> Inflate(const Entry& entry) const;

  std::size_t rows_ = 0;
  std::vector<Entry> entries_;
};

// Some columns of a stored block, fetched without its other bytes by a store that can read a
// part of a value (PostgreSQL: `substring` of an uncompressed TOASTed bytea reads only the
// chunks it covers). Planned from the block's first bytes, which hold its directory; the parts
// fetched make a block of those columns alone, which reads as the whole block does for them.
class PartialBlock {
 public:
  // The bytes to fetch first: enough for the directory of a block of about 100 columns.
  static constexpr std::size_t kHeadBytes = 1024;

  // The plan for `columns` (those the block has) from the block's first bytes; nullopt when
  // they end inside its directory (fetch it whole); VAL_007 when they are no block's.
  static core::Result<std::optional<PartialBlock>> Plan(std::string_view head,
                                                        const std::vector<ColumnId>& columns);

  // The byte ranges to fetch, as {offset from the block's start, size}, in order: one per run
  // of adjacent wanted payloads.
  const std::vector<std::pair<std::size_t, std::size_t>>& ranges() const { return ranges_; }
  // The block of the wanted columns, from the ranges' bytes in order; VAL_007 when a part is
  // not the size planned.
  core::Result<std::string> Assemble(const std::vector<std::string>& parts) const;

 private:
  std::string header_;  // the smaller block's header and directory
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
};

// The most rows one block holds, and the most bytes one decoded column may take: both bound
// what a damaged or hostile block can make a reader allocate.
inline constexpr std::size_t kMaxBlockRows = 4'000'000;
inline constexpr std::size_t kMaxColumnBytes = 512u << 20;

}  // namespace sightline::storage::blocks
