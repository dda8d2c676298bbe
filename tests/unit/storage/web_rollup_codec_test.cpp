#include "storage/web_rollup_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/distinct_sketch.h"

namespace sightline::storage {
namespace {

std::string SketchOf(int first, int count) {
  core::DistinctSketch sketch;
  for (int i = first; i < first + count; ++i) {
    sketch.Add(core::StableHash64("visitor-" + std::to_string(i)));
  }
  return sketch.Serialize();
}

WebRollupRow Row(std::string value, std::string visitors, std::int64_t n) {
  WebRollupRow row;
  row.value = std::move(value);
  row.events = n;
  row.pageviews = n - 1;
  row.visits = n * 2;
  row.bounces = 1;
  row.duration_ms = n * 1'000;
  row.timed_views = 3;
  row.view_ms = -7;  // nothing assumes a sign
  row.visitors = std::move(visitors);
  return row;
}

// A table source that counts how often it is asked.
struct Table {
  std::vector<std::uint64_t> hashes;
  int reads = 0;
  VisitorTableSource Source() {
    return [this]() -> core::Result<const std::vector<std::uint64_t>*> {
      ++reads;
      return &hashes;
    };
  }
};

std::vector<const WebRollupRow*> Pointers(const std::vector<WebRollupRow>& rows) {
  std::vector<const WebRollupRow*> out;
  for (const WebRollupRow& row : rows) out.push_back(&row);
  return out;
}

// Rows of every kind of sketch: exact and overlapping, dense (past the exact limit), empty.
std::vector<WebRollupRow> MixedRows() {
  return {Row("/", SketchOf(0, 40), 40), Row("/pricing", SketchOf(30, 5), 5),
          Row("/docs", SketchOf(0, 9'000), 9'000), Row("", "", 0),
          Row("/one", SketchOf(7, 1), 1)};
}

TEST(WebRollupCodec, EveryRowComesBackAsWritten) {
  const std::vector<WebRollupRow> rows = MixedRows();
  const auto pointers = Pointers(rows);
  auto table = VisitorTableOf(pointers);
  ASSERT_TRUE(table);
  EXPECT_EQ(table->size(), 40u);  // visitors 0-39 (the others among them); the dense one adds none
  auto stored = DecodeVisitorTable(EncodeVisitorTable(*table));
  ASSERT_TRUE(stored);
  EXPECT_EQ(*stored, *table);
  Table source{*stored};
  const VisitorTableSource visitors = source.Source();
  auto decoded = DecodeWebRollups(EncodeWebRollups(pointers, *table), &visitors);
  ASSERT_TRUE(decoded) << decoded.error().message();
  ASSERT_EQ(decoded->size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const WebRollupRow& a = (*decoded)[i];
    const WebRollupRow& b = rows[i];
    EXPECT_EQ(a.value, b.value);
    EXPECT_EQ(std::tie(a.events, a.pageviews, a.visits, a.bounces, a.duration_ms, a.timed_views,
                       a.view_ms),
              std::tie(b.events, b.pageviews, b.visits, b.bounces, b.duration_ms, b.timed_views,
                       b.view_ms));
    EXPECT_EQ(a.visitors, b.visitors) << b.value;
  }
}

TEST(WebRollupCodec, ExactSketchesTakeAFewBytesAVisitorBesideTheirTable) {
  // Twenty dimensions' rows over the same 5,000 visitors: the table once, then small positions.
  std::vector<WebRollupRow> rows;
  for (int value = 0; value < 20; ++value) rows.push_back(Row(std::to_string(value), SketchOf(0, 5'000), 1));
  const auto pointers = Pointers(rows);
  auto table = VisitorTableOf(pointers);
  ASSERT_TRUE(table);
  const std::size_t stored =
      EncodeVisitorTable(*table).size() + EncodeWebRollups(pointers, *table).size();
  std::size_t serialized = 0;
  for (const WebRollupRow& row : rows) serialized += row.visitors.size();
  EXPECT_LT(stored * 4, serialized) << stored << " bytes against " << serialized;
}

TEST(WebRollupCodec, ReadsOnlyTheValuesAskedAndTheTableOnlyForExactSketches) {
  const std::vector<WebRollupRow> rows = MixedRows();
  const auto pointers = Pointers(rows);
  auto table = VisitorTableOf(pointers);
  ASSERT_TRUE(table);
  const std::string block = EncodeWebRollups(pointers, *table);
  const std::vector<std::string> values = {"/one", "/pricing"};
  Table source{*table};
  const VisitorTableSource visitors = source.Source();
  auto some = DecodeWebRollups(block, &visitors, &values);
  ASSERT_TRUE(some);
  ASSERT_EQ(some->size(), 2u);
  EXPECT_EQ((*some)[0].value, "/pricing");  // in the block's order
  EXPECT_EQ((*some)[0].visitors, rows[1].visitors);
  EXPECT_EQ((*some)[1].value, "/one");
  EXPECT_EQ(source.reads, 1);  // once for the block
  const std::vector<std::string> dense = {"", "/docs"};  // sorted, as the values must be
  auto large = DecodeWebRollups(block, &visitors, &dense);
  ASSERT_TRUE(large);
  ASSERT_EQ(large->size(), 2u);
  EXPECT_EQ((*large)[0].visitors, rows[2].visitors);  // /docs, dense
  EXPECT_EQ((*large)[1].visitors, "");
  EXPECT_EQ(source.reads, 1) << "no exact sketch asked for: the table is not read";
  auto figures = DecodeWebRollups(block, nullptr);
  ASSERT_TRUE(figures);
  ASSERT_EQ(figures->size(), rows.size());
  EXPECT_EQ((*figures)[2].events, 9'000);
  EXPECT_EQ((*figures)[0].visitors, "");
}

TEST(WebRollupCodec, EmptyAndRepeatingSketchesAreKeptAsTheyAre) {
  // An empty exact sketch needs no table; one repeating a hash (no writer makes one) cannot be
  // increasing positions: both are kept as bytes and come back unchanged.
  std::string repeating("\x01\x02\x00\x00\x00", 5);
  for (int i = 0; i < 2; ++i) repeating.append("\x07\x00\x00\x00\x00\x00\x00\x00", 8);
  std::vector<WebRollupRow> rows = {Row("empty", std::string("\x01\x00\x00\x00\x00", 5), 0),
                                    Row("repeating", repeating, 2)};
  const auto pointers = Pointers(rows);
  auto table = VisitorTableOf(pointers);
  ASSERT_TRUE(table);
  Table source{*table};
  const VisitorTableSource visitors = source.Source();
  auto decoded = DecodeWebRollups(EncodeWebRollups(pointers, *table), &visitors);
  ASSERT_TRUE(decoded);
  EXPECT_EQ((*decoded)[0].visitors, rows[0].visitors);
  EXPECT_EQ((*decoded)[1].visitors, rows[1].visitors);
  EXPECT_EQ(source.reads, 0);
}

TEST(WebRollupCodec, DamagedBytesAreErrorsNeverCrashes) {
  const std::vector<WebRollupRow> rows = MixedRows();
  const auto pointers = Pointers(rows);
  auto table = VisitorTableOf(pointers);
  ASSERT_TRUE(table);
  const std::string block = EncodeWebRollups(pointers, *table);
  // A table shorter than the positions point into.
  Table short_table{{table->begin(), table->begin() + 3}};
  const VisitorTableSource short_source = short_table.Source();
  EXPECT_FALSE(DecodeWebRollups(block, &short_source));
  Table whole{*table};
  const VisitorTableSource whole_source = whole.Source();
  EXPECT_FALSE(DecodeWebRollups(block.substr(0, block.size() - 3), &whole_source));
  EXPECT_FALSE(DecodeVisitorTable("1234567"));                   // not whole hashes
  EXPECT_FALSE(DecodeVisitorTable(std::string(16, '\0')));       // not increasing
  WebRollupRow broken = Row("x", std::string("\x01\x05\x00\x00\x00", 5), 1);  // 5 hashes, none
  const std::vector<const WebRollupRow*> one = {&broken};
  EXPECT_FALSE(VisitorTableOf(one));
}

}  // namespace
}  // namespace sightline::storage
