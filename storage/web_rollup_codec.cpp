#include "storage/web_rollup_codec.h"

#include <algorithm>
#include <optional>

#include "storage/blocks/column_block.h"

namespace sightline::storage {
namespace {

using blocks::BlockReader;
using blocks::BlockWriter;
using blocks::ColumnId;
using core::Error;
using core::Result;

enum class RollupColumn : ColumnId {
  kValue = 1, kEvents, kPageviews, kVisits, kBounces, kDurationMs, kTimedViews, kViewMs,
  kSketchKind, kMembers, kSketch,
};

constexpr ColumnId Col(RollupColumn c) { return static_cast<ColumnId>(c); }

// kSketchKind: how a row's visitors are kept.
constexpr std::int64_t kSerialized = 0;  // kSketch: the serialized sketch ("" when empty)
constexpr std::int64_t kExact = 1;       // kMembers: its hashes' positions in the table

// core::DistinctSketch's exact format (core/distinct_sketch.h): 0x01, u32 count, the sorted
// hashes as u64, all little-endian.
constexpr char kExactTag = 0x01;
constexpr std::size_t kExactHeader = 5;

std::uint64_t ReadLittle(const char* bytes, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return value;
}

void AppendLittle(std::string& out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

bool IsExact(std::string_view sketch) { return !sketch.empty() && sketch[0] == kExactTag; }

// The hashes of an exact sketch's bytes.
Result<std::span<const char>> ExactHashes(std::string_view sketch) {
  if (sketch.size() < kExactHeader) return Error::Internal("web rollup sketch is damaged");
  const std::uint64_t count = ReadLittle(sketch.data() + 1, 4);
  if (sketch.size() != kExactHeader + count * 8) {
    return Error::Internal("web rollup sketch is damaged");
  }
  return std::span<const char>(sketch.data() + kExactHeader, count * 8);
}

void AppendVarint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Positions as varints of their gaps (the first from 0): a row's hashes are sorted, so are
// their positions.
Result<std::string> MembersOf(std::string_view sketch, std::span<const std::uint64_t> table) {
  auto hashes = ExactHashes(sketch);
  if (!hashes) return hashes.error();
  // An empty sketch needs no table; repeated hashes cannot be positions that increase.
  if (hashes->empty()) return Error::Internal("an empty sketch is kept as it is");
  std::string members;
  std::uint64_t previous = 0;
  auto from = table.begin();
  for (std::size_t i = 0; i < hashes->size(); i += 8) {
    const std::uint64_t hash = ReadLittle(hashes->data() + i, 8);
    from = std::lower_bound(from, table.end(), hash);
    if (from == table.end() || *from != hash) {
      return Error::Internal("web rollup visitor table lacks a hash of its rows");
    }
    const auto position = static_cast<std::uint64_t>(from - table.begin());
    if (i > 0 && position == previous) return Error::Internal("a sketch repeats a hash");
    AppendVarint(members, position - previous);
    previous = position;
  }
  return members;
}

// The exact sketch's bytes back from its positions. Written in place: a report decodes
// thousands of these per request (one per value and day), so no vector and no byte-wise appends.
Result<std::string> SketchOf(std::string_view members, const std::vector<std::uint64_t>& table) {
  // Each position takes at least one byte, so the members' size bounds the count.
  std::string sketch(kExactHeader + members.size() * 8, '\0');
  char* out = sketch.data() + kExactHeader;
  std::size_t count = 0;
  std::uint64_t position = 0;
  for (std::size_t i = 0; i < members.size();) {
    std::uint64_t gap = 0;
    int shift = 0;
    for (;; ++i, shift += 7) {
      if (i == members.size() || shift > 63) return Error::Internal("web rollup is damaged");
      const auto byte = static_cast<unsigned char>(members[i]);
      gap |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    ++i;
    // Positions strictly increase after the first: a gap of 0 only leads.
    if ((count > 0 && gap == 0) || gap > table.size() - position) {
      return Error::Internal("web rollup is damaged");
    }
    position += gap;
    if (position >= table.size()) return Error::Internal("web rollup is damaged");
    const std::uint64_t hash = table[position];
    for (std::size_t b = 0; b < 8; ++b) out[b] = static_cast<char>(hash >> (8 * b));
    out += 8;
    ++count;
  }
  sketch.resize(kExactHeader + count * 8);
  sketch[0] = kExactTag;
  for (std::size_t b = 0; b < 4; ++b) sketch[1 + b] = static_cast<char>(count >> (8 * b));
  return sketch;
}

using Figure = std::int64_t WebRollupRow::*;
constexpr std::pair<RollupColumn, Figure> kFigures[] = {
    {RollupColumn::kEvents, &WebRollupRow::events},
    {RollupColumn::kPageviews, &WebRollupRow::pageviews},
    {RollupColumn::kVisits, &WebRollupRow::visits},
    {RollupColumn::kBounces, &WebRollupRow::bounces},
    {RollupColumn::kDurationMs, &WebRollupRow::duration_ms},
    {RollupColumn::kTimedViews, &WebRollupRow::timed_views},
    {RollupColumn::kViewMs, &WebRollupRow::view_ms}};

Result<void> DecodeSketches(const BlockReader& reader, const VisitorTableSource& visitors,
                            const std::vector<std::size_t>& kept,
                            std::vector<WebRollupRow>& rows) {
  auto kinds = reader.Integers(Col(RollupColumn::kSketchKind));
  auto members = reader.Text(Col(RollupColumn::kMembers));
  auto sketches = reader.Text(Col(RollupColumn::kSketch));
  if (!kinds) return kinds.error();
  if (!members) return members.error();
  if (!sketches) return sketches.error();
  const std::vector<std::uint64_t>* table = nullptr;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const std::size_t r = kept[i];
    if ((*kinds)[r] == kSerialized) {
      rows[i].visitors = sketches->At(r).value_or("");
      continue;
    }
    if ((*kinds)[r] != kExact || !members->At(r)) {
      return Error::Internal("web rollup is damaged: sketch kind");
    }
    if (table == nullptr) {
      auto found = visitors();
      if (!found) return found.error();
      table = *found;
    }
    auto sketch = SketchOf(*members->At(r), *table);
    if (!sketch) return sketch.error();
    rows[i].visitors = std::move(*sketch);
  }
  return {};
}

}  // namespace

Result<std::vector<std::uint64_t>> VisitorTableOf(std::span<const WebRollupRow* const> rows) {
  std::vector<std::uint64_t> table;
  for (const WebRollupRow* row : rows) {
    if (!IsExact(row->visitors)) continue;
    auto hashes = ExactHashes(row->visitors);
    if (!hashes) return hashes.error();
    for (std::size_t i = 0; i < hashes->size(); i += 8) {
      table.push_back(ReadLittle(hashes->data() + i, 8));
    }
  }
  std::ranges::sort(table);
  table.erase(std::unique(table.begin(), table.end()), table.end());
  return table;
}

std::string EncodeVisitorTable(std::span<const std::uint64_t> table) {
  std::string bytes;
  bytes.reserve(table.size() * 8);
  for (std::uint64_t hash : table) AppendLittle(bytes, hash, 8);
  return bytes;
}

Result<std::vector<std::uint64_t>> DecodeVisitorTable(std::string_view bytes) {
  if (bytes.size() % 8 != 0) return Error::Internal("web rollup visitor table is damaged");
  std::vector<std::uint64_t> table(bytes.size() / 8);
  for (std::size_t i = 0; i < table.size(); ++i) {
    table[i] = ReadLittle(bytes.data() + i * 8, 8);
    if (i > 0 && table[i] <= table[i - 1]) {
      return Error::Internal("web rollup visitor table is damaged");
    }
  }
  return table;
}

std::string EncodeWebRollups(std::span<const WebRollupRow* const> rows,
                             std::span<const std::uint64_t> table) {
  BlockWriter writer;
  for (const WebRollupRow* row : rows) {
    writer.AddText(Col(RollupColumn::kValue), row->value);
    for (const auto& [column, figure] : kFigures) writer.AddInteger(Col(column), row->*figure);
    std::optional<std::string> members;
    if (IsExact(row->visitors)) {
      if (auto positions = MembersOf(row->visitors, table)) members = std::move(*positions);
    }
    if (members) {
      writer.AddInteger(Col(RollupColumn::kSketchKind), kExact);
      writer.AddText(Col(RollupColumn::kMembers), *members);
    } else {
      // Dense, or an exact sketch the table cannot hold: kept as it is.
      writer.AddInteger(Col(RollupColumn::kSketchKind), kSerialized);
      writer.AddText(Col(RollupColumn::kSketch), row->visitors);
    }
    writer.EndRow();
  }
  return writer.Finish();
}

Result<std::vector<WebRollupRow>> DecodeWebRollups(std::string_view block,
                                                   const VisitorTableSource* visitors,
                                                   const std::vector<std::string>* values) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  // Rows without their columns would read as defaults: refused before anything is allocated.
  if (reader->rows() > 0 && !reader->Has(Col(RollupColumn::kValue))) {
    return Error::Internal("web rollup is damaged: no values");
  }
  auto texts = reader->Text(Col(RollupColumn::kValue));
  if (!texts) return texts.error();
  std::vector<std::size_t> kept;  // the block's rows asked for
  for (std::size_t r = 0; r < reader->rows(); ++r) {
    const std::string_view value = texts->At(r).value_or("");
    if (values == nullptr || std::ranges::binary_search(*values, value)) kept.push_back(r);
  }
  std::vector<WebRollupRow> rows(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) rows[i].value = texts->At(kept[i]).value_or("");
  for (const auto& [column, figure] : kFigures) {
    auto numbers = reader->Integers(Col(column));
    if (!numbers) return numbers.error();
    for (std::size_t i = 0; i < kept.size(); ++i) rows[i].*figure = (*numbers)[kept[i]];
  }
  if (visitors == nullptr) return rows;
  if (auto sketches = DecodeSketches(*reader, *visitors, kept, rows); !sketches) {
    return sketches.error();
  }
  return rows;
}

}  // namespace sightline::storage
