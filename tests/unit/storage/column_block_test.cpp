#include "storage/blocks/column_block.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

namespace sightline::storage::blocks {
namespace {

// Flipping any one byte of `bytes` either is refused somewhere or still reads every row of
// text column 1 and integer column 2, every code within its dictionary.
void ExpectEachFlippedByteRefusedOrRead(const std::string& bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    auto reader = BlockReader::Open(damaged);
    if (!reader) continue;
    if (auto text = reader->Text(1)) {
      ASSERT_EQ(text->codes.size(), reader->rows());
      for (auto code : text->codes) ASSERT_LT(code, text->values.size());
    }
    if (auto integers = reader->Integers(2)) {
      ASSERT_EQ(integers->size(), reader->rows());
    }
  }
}

TEST(ColumnBlock, TextAndIntegerColumnsComeBackAsWritten) {
  BlockWriter writer;
  const std::vector<std::optional<std::string>> texts = {"/pricing", std::nullopt, "", "/pricing",
                                                         "/blog/ä"};
  const std::vector<std::int64_t> numbers = {1'790'000'000'000, -5, 0,
                                             std::numeric_limits<std::int64_t>::max(),
                                             std::numeric_limits<std::int64_t>::min()};
  for (std::size_t r = 0; r < texts.size(); ++r) {
    writer.AddText(7, texts[r]);
    writer.AddInteger(2, numbers[r]);
    writer.EndRow();
  }
  const std::string bytes = writer.Finish();
  auto reader = BlockReader::Open(bytes);
  ASSERT_TRUE(reader) << reader.error().internal();
  ASSERT_EQ(reader->rows(), texts.size());
  auto text = reader->Text(7);
  auto integers = reader->Integers(2);
  ASSERT_TRUE(text);
  ASSERT_TRUE(integers);
  for (std::size_t r = 0; r < texts.size(); ++r) {
    const auto value = text->At(r);
    EXPECT_EQ(value.has_value(), texts[r].has_value()) << r;
    if (value) {
      EXPECT_EQ(*value, *texts[r]);
    }
    EXPECT_EQ((*integers)[r], numbers[r]);
  }
  // "/pricing" twice, "" and "/blog/ä": the dictionary holds each value once.
  EXPECT_EQ(text->values.size(), 4u);
}

TEST(ColumnBlock, AColumnStartedLateOrSkippedInARowReadsNullOrZeroThere) {
  BlockWriter writer;
  writer.AddInteger(1, 10);
  writer.EndRow();
  writer.AddText(3, "late");  // the column first appears in the second row
  writer.EndRow();
  writer.AddInteger(1, 12);
  writer.EndRow();
  const std::string bytes = writer.Finish();
  auto reader = BlockReader::Open(bytes);
  ASSERT_TRUE(reader);
  auto text = reader->Text(3);
  auto integers = reader->Integers(1);
  ASSERT_TRUE(text) << text.error().internal();
  ASSERT_TRUE(integers) << integers.error().internal();
  EXPECT_EQ(text->At(0), std::nullopt);
  EXPECT_EQ(text->At(1), "late");
  EXPECT_EQ(text->At(2), std::nullopt);
  EXPECT_EQ(*integers, (std::vector<std::int64_t>{10, 0, 12}));
  // A column the block lacks reads as all null or all zero; the wrong kind is an error.
  EXPECT_EQ(reader->Text(9)->codes, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_EQ(*reader->Integers(9), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_FALSE(reader->Integers(3));
  EXPECT_FALSE(reader->Text(1));
}

TEST(ColumnBlock, UuidsTakeSixteenBytesAndOtherTextStaysExact) {
  std::mt19937_64 random(7);
  const auto uuid = [&] {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    for (int i = 0; i < 32; ++i) {
      if (i == 8 || i == 12 || i == 16 || i == 20) text.push_back('-');
      text.push_back(kHex[random() % 16]);
    }
    return text;
  };
  BlockWriter ids, mixed;
  std::vector<std::string> written;
  for (int r = 0; r < 2000; ++r) {
    written.push_back(uuid());
    ids.AddText(1, written.back());
    ids.EndRow();
    // Upper case would not come back as written from 16 bytes: kept as text.
    mixed.AddText(1, r == 5 ? std::string("0190A3B4-0000-7000-8000-000000000000") : written.back());
    mixed.EndRow();
  }
  const std::string packed = ids.Finish();
  // 16 random bytes per UUID do not compress: about 16 bytes a row, not 36.
  EXPECT_LT(packed.size(), 2000u * 17);
  for (const std::string* bytes : {&packed}) {
    auto reader = BlockReader::Open(*bytes);
    ASSERT_TRUE(reader);
    auto text = reader->Text(1);
    ASSERT_TRUE(text);
    for (int r = 0; r < 2000; ++r) EXPECT_EQ(text->At(r), written[r]);
  }
  const std::string mixed_bytes = mixed.Finish();
  auto reader = BlockReader::Open(mixed_bytes);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->Text(1)->At(5), "0190A3B4-0000-7000-8000-000000000000");
  EXPECT_EQ(reader->Text(1)->At(6), written[6]);
}

// Visitor and session ids: a UUID a few rows each, some rows without one. Kept as a dictionary
// of 16-byte values with a code per row; a flipped byte is refused or reads in range.
TEST(ColumnBlock, RepeatedUuidsAreADictionaryOfSixteenBytesEach) {
  std::mt19937_64 random(11);
  std::vector<std::string> uuids;
  for (int i = 0; i < 300; ++i) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text;
    for (int d = 0; d < 32; ++d) {
      if (d == 8 || d == 12 || d == 16 || d == 20) text.push_back('-');
      text.push_back(kHex[random() % 16]);
    }
    uuids.push_back(std::move(text));
  }
  BlockWriter writer, as_text;
  std::vector<std::optional<std::string>> written;
  for (int r = 0; r < 1000; ++r) {
    written.push_back(r % 9 == 0 ? std::nullopt
                                 : std::optional<std::string>(uuids[random() % uuids.size()]));
    writer.AddText(1, written.back());
    writer.EndRow();
    // One value that is no UUID keeps the whole column as text.
    as_text.AddText(1, r == 500 ? std::optional<std::string>("not-a-uuid") : written.back());
    as_text.EndRow();
  }
  const std::string bytes = writer.Finish();
  EXPECT_LT(bytes.size(), as_text.Finish().size());
  auto reader = BlockReader::Open(bytes);
  ASSERT_TRUE(reader);
  auto text = reader->Text(1);
  ASSERT_TRUE(text);
  EXPECT_LE(text->values.size(), uuids.size() + 1);
  for (int r = 0; r < 1000; ++r) {
    EXPECT_EQ(text->At(r), written[r]) << r;
  }
  ExpectEachFlippedByteRefusedOrRead(bytes);
}

// A reader that only tells ids apart takes them as their bytes: the same rows, 16 bytes each
// (the text's hex digits), for a dictionary and for a column of distinct ids; a column that is
// not kept as UUIDs comes as text whatever the reader asks.
TEST(ColumnBlock, UuidsComeAsTheirBytesWhenAskedSo) {
  const auto bytes_of = [](std::string_view text) {
    std::string bytes;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '-') continue;
      bytes.push_back(static_cast<char>(std::stoi(std::string(text.substr(i, 2)), nullptr, 16)));
      ++i;
    }
    return bytes;
  };
  const std::vector<std::string> ids = {"0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b",
                                        "ffffffff-0000-4000-8000-00000000abcd",
                                        "00000000-0000-0000-0000-000000000000"};
  BlockWriter writer;
  for (int r = 0; r < 9; ++r) {
    writer.AddText(1, r % 4 == 3 ? std::nullopt : std::optional<std::string>(ids[r % 3]));
    writer.AddText(2, ids[r % 3].substr(0, 35) + std::to_string(r));  // distinct UUIDs
    writer.AddText(3, "not-a-uuid-" + std::to_string(r % 2));
    writer.EndRow();
  }
  const std::string block = writer.Finish();
  auto reader = BlockReader::Open(block);
  ASSERT_TRUE(reader);
  auto text = reader->Text(1);
  auto packed = reader->Text(1, UuidForm::kPacked);
  auto distinct = reader->Text(2);
  auto distinct_packed = reader->Text(2, UuidForm::kPacked);
  auto other = reader->Text(3, UuidForm::kPacked);
  ASSERT_TRUE(text && packed && distinct && distinct_packed && other);
  EXPECT_FALSE(text->packed_uuids);
  EXPECT_TRUE(packed->packed_uuids);
  EXPECT_TRUE(distinct_packed->packed_uuids);
  EXPECT_FALSE(other->packed_uuids);
  for (int r = 0; r < 9; ++r) {
    ASSERT_EQ(packed->At(r).has_value(), text->At(r).has_value()) << r;
    if (text->At(r)) {
      EXPECT_EQ(*packed->At(r), bytes_of(*text->At(r))) << r;
    }
    EXPECT_EQ(*distinct_packed->At(r), bytes_of(*distinct->At(r))) << r;
    EXPECT_EQ(*other->At(r), "not-a-uuid-" + std::to_string(r % 2));
  }
}

// A store fetching some columns of a block: the plan from its first bytes names the byte
// ranges of the wanted payloads (adjacent ones as one range), and the parts make a block that
// reads those columns as the whole block does, and lacks the others.
TEST(ColumnBlock, SomeColumnsReadFromTheirPartsAlone) {
  BlockWriter writer;
  for (int r = 0; r < 500; ++r) {
    for (ColumnId id = 1; id <= 6; ++id) {
      if (id % 2) {
        writer.AddText(id, "value-" + std::to_string(r % (id * 7)));
      } else {
        writer.AddInteger(id, r * id);
      }
    }
    writer.EndRow();
  }
  const std::string block = writer.Finish();
  const std::vector<ColumnId> wanted = {2, 3, 5, 9};  // 9: not in the block
  auto planned = PartialBlock::Plan(block.substr(0, PartialBlock::kHeadBytes), wanted);
  ASSERT_TRUE(planned);
  ASSERT_TRUE(planned->has_value());
  const PartialBlock& plan = **planned;
  ASSERT_EQ(plan.ranges().size(), 2u) << "2 and 3 adjacent, then 5";
  std::vector<std::string> parts;
  std::size_t fetched = 0;
  for (const auto& [offset, size] : plan.ranges()) {
    parts.push_back(block.substr(offset, size));
    fetched += size;
  }
  EXPECT_LT(fetched, block.size() - 40);  // columns 1, 4 and 6 and the directory not fetched
  auto assembled = plan.Assemble(parts);
  ASSERT_TRUE(assembled);
  auto whole = BlockReader::Open(block);
  auto part = BlockReader::Open(*assembled);
  ASSERT_TRUE(whole && part);
  EXPECT_EQ(part->rows(), 500u);
  EXPECT_EQ(*part->Integers(2), *whole->Integers(2));
  for (ColumnId id : {3, 5}) {
    auto from_part = part->Text(id);
    auto from_whole = whole->Text(id);
    ASSERT_TRUE(from_part && from_whole);
    for (std::size_t r = 0; r < 500; ++r) EXPECT_EQ(from_part->At(r), from_whole->At(r));
  }
  EXPECT_FALSE(part->Has(1));
  EXPECT_FALSE(part->Has(4));
  // A head that ends inside the directory: no plan (the block is fetched whole); parts of
  // another size than planned: refused.
  auto short_head = PartialBlock::Plan(block.substr(0, 12), wanted);
  ASSERT_TRUE(short_head);
  EXPECT_FALSE(short_head->has_value());
  parts.back().pop_back();
  EXPECT_FALSE(plan.Assemble(parts));
  EXPECT_FALSE(PartialBlock::Plan("not a block at all", wanted));
}

TEST(ColumnBlock, ManyDistinctValuesWidenTheCodes) {
  BlockWriter writer;
  for (int r = 0; r < 70'000; ++r) {
    writer.AddText(1, "value-" + std::to_string(r % 66'000));
    writer.EndRow();
  }
  const std::string bytes = writer.Finish();
  auto reader = BlockReader::Open(bytes);
  ASSERT_TRUE(reader);
  auto text = reader->Text(1);
  ASSERT_TRUE(text) << text.error().internal();
  EXPECT_EQ(text->values.size(), 66'001u);
  EXPECT_EQ(text->At(69'999), "value-3999");
}

TEST(ColumnBlock, DamagedBytesAreRefusedNeverTrusted) {
  BlockWriter writer;
  for (int r = 0; r < 100; ++r) {
    writer.AddText(1, "page-" + std::to_string(r % 7));
    writer.AddInteger(2, r);
    writer.EndRow();
  }
  const std::string bytes = writer.Finish();
  const std::string longer = bytes + "x";
  EXPECT_FALSE(BlockReader::Open(std::string_view()));
  EXPECT_FALSE(BlockReader::Open(std::string_view("SLB1")));
  EXPECT_FALSE(BlockReader::Open(std::string_view(bytes).substr(0, bytes.size() - 1)));
  EXPECT_FALSE(BlockReader::Open(longer));
  ExpectEachFlippedByteRefusedOrRead(bytes);
}

TEST(ColumnBlock, AnEmptyBlockHasNoRows) {
  BlockWriter writer;
  const std::string bytes = writer.Finish();
  auto reader = BlockReader::Open(bytes);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->rows(), 0u);
  EXPECT_TRUE(reader->Text(1)->codes.empty());
}

}  // namespace
}  // namespace sightline::storage::blocks
