#include "storage/blocks/column_block.h"

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <new>
#include <stdexcept>

namespace sightline::storage::blocks {
namespace {

using core::Error;
using core::Result;

constexpr std::string_view kMagic = "SLB1";
// Level 3 is zstd's default: compaction writes ~100 MB/s of columns with it on one core.
constexpr int kCompressionLevel = 3;

enum Kind : std::uint8_t { kText = 1, kInteger = 2, kUuid = 3, kUuidDictionary = 4 };

Error Damaged(std::string_view what) {
  return Error::Internal("stored block is damaged: " + std::string(what));
}

void PutVarint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Reads bytes from the front of a view; every read is bounds-checked.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  std::optional<std::uint64_t> Varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (bytes_.empty()) return std::nullopt;
      const auto byte = static_cast<std::uint8_t>(bytes_.front());
      bytes_.remove_prefix(1);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return std::nullopt;
  }
  std::optional<std::string_view> Take(std::uint64_t size) {
    if (size > bytes_.size()) return std::nullopt;
    const auto taken = bytes_.substr(0, size);
    bytes_.remove_prefix(size);
    return taken;
  }
  std::size_t left() const { return bytes_.size(); }

 private:
  std::string_view bytes_;
};

std::uint64_t ZigZag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t UnZigZag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case would not come back as written
}

// A UUID in its canonical lowercase form, as 16 bytes; none for anything else.
std::optional<std::string> PackUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::string packed;
  packed.reserve(16);
  int high = -1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      continue;
    }
    const int digit = HexDigit(text[i]);
    if (digit < 0) return std::nullopt;
    if (high < 0) {
      high = digit;
    } else {
      packed.push_back(static_cast<char>(high << 4 | digit));
      high = -1;
    }
  }
  return packed;
}

// Appends the canonical text of a packed UUID (16 bytes) to `text`.
void AppendUuid(std::string& text, std::string_view packed) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Where each byte's two digits go: the dashes sit at 8, 13, 18 and 23.
  static constexpr std::uint8_t kAt[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
  char out[36];
  out[8] = out[13] = out[18] = out[23] = '-';
  for (std::size_t i = 0; i < 16; ++i) {
    const auto byte = static_cast<std::uint8_t>(packed[i]);
    out[kAt[i]] = kHex[byte >> 4];
    out[kAt[i] + 1] = kHex[byte & 0xf];
  }
  text.append(out, sizeof out);
}

// A text column with only non-null canonical UUIDs, each used once, as 16 bytes per row.
std::optional<std::string> UuidPayload(const std::vector<std::string_view>& values,
                                       const std::vector<std::uint32_t>& rows) {
  if (values.size() != rows.size()) return std::nullopt;
  std::string raw;
  raw.reserve(rows.size() * 16);
  for (const std::uint32_t code : rows) {
    if (code == 0) return std::nullopt;
    auto packed = PackUuid(values[code - 1]);
    if (!packed) return std::nullopt;
    raw += *packed;
  }
  return raw;
}

void PutCodes(std::string& raw, std::size_t distinct, const std::vector<std::uint32_t>& rows) {
  const std::size_t width = distinct < 0xff ? 1 : distinct < 0xffff ? 2 : 4;
  raw.push_back(static_cast<char>(width));
  for (const std::uint32_t code : rows) {
    for (std::size_t b = 0; b < width; ++b) raw.push_back(static_cast<char>(code >> (8 * b)));
  }
}

// A dictionary of canonical UUIDs only (visitor and session ids: a block holds each a few
// times), as 16 bytes each: less than half their text, and bytes zstd stores as they are,
// which it unpacks several times faster than the text it would have to decode.
std::optional<std::string> UuidDictionaryPayload(const std::vector<std::string_view>& values,
                                                 const std::vector<std::uint32_t>& rows) {
  if (values.empty()) return std::nullopt;
  std::string raw;
  PutVarint(raw, values.size());
  for (const std::string_view value : values) {
    auto packed = PackUuid(value);
    if (!packed) return std::nullopt;
    raw += *packed;
  }
  PutCodes(raw, values.size(), rows);
  return raw;
}

std::string TextPayload(const std::vector<std::string_view>& values,
                        const std::vector<std::uint32_t>& rows) {
  std::string raw;
  PutVarint(raw, values.size());
  for (const std::string_view value : values) {
    PutVarint(raw, value.size());
    raw += value;
  }
  PutCodes(raw, values.size(), rows);
  return raw;
}

std::string IntegerPayload(const std::vector<std::int64_t>& rows) {
  std::string raw;
  std::int64_t previous = 0;
  for (const std::int64_t value : rows) {
    // Wrapping difference: any two 64-bit values round-trip.
    const auto delta = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) -
                                                 static_cast<std::uint64_t>(previous));
    PutVarint(raw, ZigZag(delta));
    previous = value;
  }
  return raw;
}

std::string Compress(std::string_view raw) {
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size =
      ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), kCompressionLevel);
  if (ZSTD_isError(size)) throw std::runtime_error(ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

// The codes of `rows` rows, `Width` bytes each (little-endian); false when one is beyond the
// dictionary. One loop per width, without an early exit, so that the compiler widens it.
template <std::size_t Width>
bool DecodeCodes(std::string_view bytes, std::uint64_t count, std::vector<std::uint32_t>& codes) {
  const auto* in = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::uint32_t largest = 0;
  for (std::size_t r = 0; r < codes.size(); ++r) {
    std::uint32_t code = 0;
    for (std::size_t b = 0; b < Width; ++b) {
      code |= static_cast<std::uint32_t>(in[r * Width + b]) << (8 * b);
    }
    codes[r] = code;
    largest = std::max(largest, code);
  }
  return largest <= count;
}

// The codes after a dictionary of `count` values: the width byte, then a code per row.
Result<void> DecodeCodesAfter(Cursor& cursor, std::uint64_t count, std::size_t rows,
                              TextValues& text) {
  const auto width_byte = cursor.Take(1);
  const std::size_t width = width_byte ? static_cast<std::uint8_t>((*width_byte)[0]) : 0;
  if (width != 1 && width != 2 && width != 4) return Damaged("code width");
  const auto codes = cursor.Take(static_cast<std::uint64_t>(rows) * width);
  if (!codes || cursor.left() != 0) return Damaged("codes");
  text.codes.resize(rows);
  const bool known = width == 1   ? DecodeCodes<1>(*codes, count, text.codes)
                     : width == 2 ? DecodeCodes<2>(*codes, count, text.codes)
                                  : DecodeCodes<4>(*codes, count, text.codes);
  if (!known) return Damaged("code beyond the dictionary");
  return {};
}

Result<TextValues> DecodeText(std::string_view raw, std::size_t rows) {
  TextValues text;
  Cursor cursor(raw);
  const auto count = cursor.Varint();
  if (!count || *count > cursor.left()) return Damaged("dictionary size");
  // The dictionary's bytes are fewer than the column's, so the arena never moves and the views
  // taken as it fills stay valid.
  text.arena->reserve(raw.size());
  text.values.reserve(*count + 1);
  text.values.emplace_back();
  for (std::uint64_t i = 0; i < *count; ++i) {
    const auto size = cursor.Varint();
    const auto bytes = size ? cursor.Take(*size) : std::nullopt;
    if (!bytes) return Damaged("dictionary value");
    const std::size_t offset = text.arena->size();
    *text.arena += *bytes;
    text.values.push_back(std::string_view(*text.arena).substr(offset, bytes->size()));
  }
  if (auto codes = DecodeCodesAfter(cursor, *count, rows, text); !codes) return codes.error();
  return text;
}

// Puts `count` packed UUIDs into the values: their text, or (packed) their bytes as they are.
void AddUuids(std::string_view packed, std::uint64_t count, UuidForm form, TextValues& text) {
  text.values.reserve(count + 1);
  text.values.emplace_back();
  if (form == UuidForm::kPacked) {
    text.packed_uuids = true;
    text.arena->assign(packed);
    for (std::uint64_t i = 0; i < count; ++i) {
      text.values.push_back(std::string_view(*text.arena).substr(i * 16, 16));
    }
    return;
  }
  text.arena->reserve(count * 36);  // never moves: the views stay valid
  for (std::uint64_t i = 0; i < count; ++i) {
    AppendUuid(*text.arena, packed.substr(i * 16, 16));
    text.values.push_back(std::string_view(*text.arena).substr(i * 36, 36));
  }
}

Result<TextValues> DecodeUuidDictionary(std::string_view raw, std::size_t rows, UuidForm form) {
  TextValues text;
  Cursor cursor(raw);
  const auto count = cursor.Varint();
  // No more values than rows (every value is some row's): the text stays within 36 bytes a row.
  if (!count || *count > rows || *count > cursor.left() / 16) return Damaged("dictionary size");
  AddUuids(*cursor.Take(*count * 16), *count, form, text);
  if (auto codes = DecodeCodesAfter(cursor, *count, rows, text); !codes) return codes.error();
  return text;
}

Result<TextValues> DecodeUuids(std::string_view raw, std::size_t rows, UuidForm form) {
  if (raw.size() != rows * 16) return Damaged("UUID column size");
  TextValues text;
  AddUuids(raw, rows, form, text);
  text.codes.resize(rows);
  for (std::size_t r = 0; r < rows; ++r) text.codes[r] = static_cast<std::uint32_t>(r + 1);
  return text;
}

}  // namespace

std::string UuidText(std::string_view packed) {
  std::string text;
  AppendUuid(text, packed);
  return text;
}

// ---- Writing -----------------------------------------------------------------------------------

BlockWriter::TextColumn& BlockWriter::Text(ColumnId id) {
  auto [it, added] = texts_.try_emplace(id);
  if (added) it->second.rows.assign(rows_, 0);
  if (it->second.rows.size() != rows_) throw std::logic_error("two values in one column and row");
  return it->second;
}

BlockWriter::IntegerColumn& BlockWriter::Integer(ColumnId id) {
  auto [it, added] = integers_.try_emplace(id);
  if (added) it->second.rows.assign(rows_, 0);
  if (it->second.rows.size() != rows_) throw std::logic_error("two values in one column and row");
  return it->second;
}

void BlockWriter::AddText(ColumnId id, std::optional<std::string_view> value) {
  TextColumn& column = Text(id);
  if (!value) {
    column.rows.push_back(0);
    return;
  }
  auto [it, added] = column.codes.try_emplace(std::string(*value), 0);
  if (added) {
    column.values.push_back(it->first);
    it->second = static_cast<std::uint32_t>(column.values.size());
  }
  column.rows.push_back(it->second);
}

void BlockWriter::AddInteger(ColumnId id, std::int64_t value) {
  Integer(id).rows.push_back(value);
}

void BlockWriter::EndRow() {
  for (auto& [id, column] : texts_) {
    if (column.rows.size() == rows_) column.rows.push_back(0);
  }
  for (auto& [id, column] : integers_) {
    if (column.rows.size() == rows_) column.rows.push_back(0);
  }
  ++rows_;
}

std::string BlockWriter::Finish() {
  struct Part {
    ColumnId id;
    Kind kind;
    std::size_t raw_size;
    std::string compressed;
  };
  std::vector<Part> parts;
  for (const auto& [id, column] : texts_) {
    Kind kind = kUuid;
    auto raw = UuidPayload(column.values, column.rows);
    if (!raw) {
      kind = kUuidDictionary;
      raw = UuidDictionaryPayload(column.values, column.rows);
    }
    if (!raw) {
      kind = kText;
      raw = TextPayload(column.values, column.rows);
    }
    parts.push_back({id, kind, raw->size(), Compress(*raw)});
  }
  for (const auto& [id, column] : integers_) {
    const std::string raw = IntegerPayload(column.rows);
    parts.push_back({id, kInteger, raw.size(), Compress(raw)});
  }
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.id < b.id; });
  std::string out(kMagic);
  PutVarint(out, rows_);
  PutVarint(out, parts.size());
  for (const Part& part : parts) {
    PutVarint(out, part.id);
    out.push_back(static_cast<char>(part.kind));
    PutVarint(out, part.raw_size);
    PutVarint(out, part.compressed.size());
  }
  for (const Part& part : parts) out += part.compressed;
  texts_.clear();
  integers_.clear();
  return out;
}

// ---- Reading -----------------------------------------------------------------------------------

Result<BlockReader> BlockReader::Open(std::string_view bytes) {
  if (!bytes.starts_with(kMagic)) return Damaged("no block header");
  Cursor cursor(bytes.substr(kMagic.size()));
  BlockReader reader;
  const auto rows = cursor.Varint();
  const auto count = cursor.Varint();
  if (!rows || *rows > kMaxBlockRows || !count || *count > 0xffff) return Damaged("header");
  reader.rows_ = static_cast<std::size_t>(*rows);
  std::vector<std::uint64_t> compressed_sizes;
  for (std::uint64_t i = 0; i < *count; ++i) {
    const auto id = cursor.Varint();
    const auto kind = cursor.Take(1);
    const auto raw_size = cursor.Varint();
    const auto compressed_size = cursor.Varint();
    if (!id || *id > 0xffff || !kind || !raw_size || *raw_size > kMaxColumnBytes ||
        !compressed_size) {
      return Damaged("column directory");
    }
    Entry entry;
    entry.id = static_cast<ColumnId>(*id);
    entry.kind = static_cast<std::uint8_t>((*kind)[0]);
    entry.raw_size = static_cast<std::size_t>(*raw_size);
    if (entry.kind != kText && entry.kind != kInteger && entry.kind != kUuid &&
        entry.kind != kUuidDictionary) {
      return Damaged("column kind");
    }
    if (reader.Find(entry.id)) return Damaged("column twice");
    reader.entries_.push_back(entry);
    compressed_sizes.push_back(*compressed_size);
  }
  for (std::size_t i = 0; i < reader.entries_.size(); ++i) {
    const auto payload = cursor.Take(compressed_sizes[i]);
    if (!payload) return Damaged("column payload");
    reader.entries_[i].payload = *payload;
  }
  if (cursor.left() != 0) return Damaged("bytes after the last column");
  return reader;
}

// ---- Reading a part ----------------------------------------------------------------------------

Result<std::optional<PartialBlock>> PartialBlock::Plan(std::string_view head,
                                                       const std::vector<ColumnId>& columns) {
  if (head.size() < kMagic.size()) return std::optional<PartialBlock>();
  if (!head.starts_with(kMagic)) return Damaged("no block header");
  Cursor cursor(head.substr(kMagic.size()));
  const auto rows = cursor.Varint();
  const auto count = cursor.Varint();
  if (!rows || !count) return std::optional<PartialBlock>();
  if (*rows > kMaxBlockRows || *count > 0xffff) return Damaged("header");
  struct Part {
    std::uint64_t id, raw_size, compressed_size;
    std::uint8_t kind;
  };
  std::vector<Part> parts;
  for (std::uint64_t i = 0; i < *count; ++i) {
    const auto id = cursor.Varint();
    const auto kind = cursor.Take(1);
    const auto raw_size = cursor.Varint();
    const auto compressed_size = cursor.Varint();
    if (!compressed_size) return std::optional<PartialBlock>();  // the head ends here
    parts.push_back({*id, *raw_size, *compressed_size, static_cast<std::uint8_t>((*kind)[0])});
  }
  PartialBlock plan;
  std::string directory;
  std::uint64_t kept = 0;
  std::size_t offset = head.size() - cursor.left();  // where the first payload starts
  bool in_run = false;
  for (const Part& part : parts) {
    const bool wanted =
        std::find(columns.begin(), columns.end(), static_cast<ColumnId>(part.id)) != columns.end();
    if (wanted) {
      ++kept;
      PutVarint(directory, part.id);
      directory.push_back(static_cast<char>(part.kind));
      PutVarint(directory, part.raw_size);
      PutVarint(directory, part.compressed_size);
      if (in_run) {
        plan.ranges_.back().second += part.compressed_size;
      } else {
        plan.ranges_.emplace_back(offset, part.compressed_size);
      }
    }
    in_run = wanted;
    offset += part.compressed_size;
  }
  plan.header_ = std::string(kMagic);
  PutVarint(plan.header_, *rows);
  PutVarint(plan.header_, kept);
  plan.header_ += directory;
  return std::optional<PartialBlock>(std::move(plan));
}

Result<std::string> PartialBlock::Assemble(const std::vector<std::string>& parts) const {
  if (parts.size() != ranges_.size()) return Damaged("parts of a block");
  std::string block = header_;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].size() != ranges_[i].second) return Damaged("part of a block");
    block += parts[i];
  }
  return block;
}

const BlockReader::Entry* BlockReader::Find(ColumnId id) const {
  for (const Entry& entry : entries_) {
    if (entry.id == id) return &entry;
  }
  return nullptr;
}

bool BlockReader::Has(ColumnId id) const { return Find(id) != nullptr; }

Result<std::string> BlockReader::Inflate(const Entry& entry) const {
  const auto declared =
      ZSTD_getFrameContentSize(entry.payload.data(), entry.payload.size());
  if (declared != entry.raw_size) return Damaged("column size");
  std::string raw(entry.raw_size, '\0');
  // One decompression context per thread, kept: ZSTD_decompress would make (allocate and
  // initialise) one for every column of every block a query reads.
  thread_local const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(
      ZSTD_createDCtx(), &ZSTD_freeDCtx);
  if (!context) throw std::bad_alloc();
  const std::size_t size = ZSTD_decompressDCtx(context.get(), raw.data(), raw.size(),
                                               entry.payload.data(), entry.payload.size());
  if (ZSTD_isError(size) || size != entry.raw_size) return Damaged("column compression");
  return raw;
}

Result<TextValues> BlockReader::Text(ColumnId id, UuidForm form) const {
  const Entry* entry = Find(id);
  if (!entry) {
    TextValues nulls;
    nulls.values.emplace_back();
    nulls.codes.assign(rows_, 0);
    return nulls;
  }
  if (entry->kind == kInteger) return Damaged("integer column read as text");
  auto raw = Inflate(*entry);
  if (!raw) return raw.error();
  switch (entry->kind) {
    case kUuid: return DecodeUuids(*raw, rows_, form);
    case kUuidDictionary: return DecodeUuidDictionary(*raw, rows_, form);
    default: return DecodeText(*raw, rows_);
  }
}

Result<std::vector<std::int64_t>> BlockReader::Integers(ColumnId id) const {
  const Entry* entry = Find(id);
  if (!entry) return std::vector<std::int64_t>(rows_, 0);
  if (entry->kind != kInteger) return Damaged("text column read as integers");
  auto raw = Inflate(*entry);
  if (!raw) return raw.error();
  // The hottest loop of a query's decoding: bytes read straight, each checked against the end.
  const auto* in = reinterpret_cast<const std::uint8_t*>(raw->data());
  const auto* const end = in + raw->size();
  std::vector<std::int64_t> values(rows_);
  std::uint64_t previous = 0;
  for (std::size_t r = 0; r < rows_; ++r) {
    std::uint64_t delta = 0;
    for (int shift = 0;; shift += 7) {
      if (in == end || shift >= 64) return Damaged("integer");
      const std::uint8_t byte = *in++;
      delta |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    previous += static_cast<std::uint64_t>(UnZigZag(delta));
    values[r] = static_cast<std::int64_t>(previous);
  }
  if (in != end) return Damaged("bytes after the last integer");
  return values;
}

}  // namespace sightline::storage::blocks
