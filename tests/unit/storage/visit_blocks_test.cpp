#include "storage/visit_blocks.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "storage/visit_lists.h"

namespace sightline::storage {
namespace {

WebVisitRow Visit(int i) {
  WebVisitRow v;
  v.started_at = 1'790'000'000'000 + i * 7'000 - (i % 3) * 5'000;  // not monotonic
  v.in_visit = i % 4 != 0;
  v.session_id = "0190a3b4-5c6d-7e8f-9a0b-00000000000" + std::to_string(i % 10);
  v.visitor = i % 5 ? "visitor-" + std::to_string(i % 7) : "";
  v.events = i % 6 + 1;
  v.pageviews = i % 3;
  v.bounce = i % 2;
  v.duration_ms = i * 1'234;
  v.entry_page = "/in/" + std::to_string(i % 3);
  v.exit_page = i % 2 ? "" : "/out";
  v.referrer = "https://example.org/" + std::to_string(i);
  v.utm_source = "news";
  v.utm_medium = "email";
  v.utm_campaign = "spring";
  v.utm_term = "";
  v.utm_content = "b";
  v.country = i % 2 ? "DE" : "FR";
  v.region = "Bavaria";
  v.city = "Munich";
  v.browser = "Firefox";
  v.os = "Linux";
  v.device = "Desktop";
  v.source = "Google";
  v.channel = "Organic Search";
  v.pages = EncodeVisitList({{"/a", {2, 1, 3'000}}, {"/b" + std::to_string(i), {1, 0, 0}}});
  v.event_names = EncodeVisitList({{"screen_view", {2}}, {"signup", {1}}});
  v.channels = EncodeVisitList({{"web", {3}}});
  return v;
}

void ExpectSame(const WebVisitRow& a, const WebVisitRow& b) {
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.in_visit, b.in_visit);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.pageviews, b.pageviews);
  EXPECT_EQ(a.bounce, b.bounce);
  EXPECT_EQ(a.duration_ms, b.duration_ms);
  for (VisitColumn column : kVisitTexts) {
    EXPECT_EQ(TextOf(a, column), TextOf(b, column)) << static_cast<int>(column);
  }
}

// Every row of the block, decoded with `texts`.
core::Result<std::vector<WebVisitRow>> Decoded(std::string_view block,
                                               std::span<const VisitColumn> texts,
                                               VisitSelection selection = {
                                                   INT64_MIN, INT64_MAX, {}}) {
  std::vector<WebVisitRow> rows;
  auto read = DecodeVisits(block, texts, selection,
                           [&](const WebVisitRow& row) { rows.push_back(row); });
  if (!read) return read.error();
  return rows;
}

TEST(VisitBlocks, EveryFieldComesBack) {
  std::vector<WebVisitRow> rows;
  for (int i = 0; i < 300; ++i) rows.push_back(Visit(i));
  const std::string block = EncodeVisits(rows);
  auto decoded = Decoded(block, kVisitTexts);
  ASSERT_TRUE(decoded) << decoded.error().message();
  ASSERT_EQ(decoded->size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) ExpectSame((*decoded)[i], rows[i]);
}

TEST(VisitBlocks, DecodesOnlyTheTextsAskedAndAlwaysTheFigures) {
  const std::vector<WebVisitRow> rows = {Visit(1), Visit(2)};
  constexpr VisitColumn kCountry[] = {VisitColumn::kCountry};
  auto decoded = Decoded(EncodeVisits(rows), kCountry);
  ASSERT_TRUE(decoded);
  EXPECT_EQ((*decoded)[0].country, "DE");
  EXPECT_EQ((*decoded)[1].country, "FR");
  EXPECT_EQ((*decoded)[0].visitor, "visitor-1");  // a figure: counted as visitors
  EXPECT_EQ((*decoded)[1].duration_ms, 2 * 1'234);
  EXPECT_EQ((*decoded)[0].referrer, "");
  EXPECT_EQ((*decoded)[0].pages, "");
}

TEST(VisitBlocks, TheSelectionKeepsTheWindowAndTheValuesItAccepts) {
  std::vector<WebVisitRow> rows;
  for (int i = 0; i < 40; ++i) rows.push_back(Visit(i));
  const std::string block = EncodeVisits(rows);
  const std::int64_t start = rows[10].started_at, end = rows[30].started_at;
  int asked = 0;
  const VisitSelection german{start, end,
                              {{VisitColumn::kCountry, [&](std::string_view country) {
                                  ++asked;
                                  return country == "DE";
                                }}}};
  auto decoded = Decoded(block, {}, german);
  ASSERT_TRUE(decoded);
  std::vector<std::int64_t> expected;
  for (const WebVisitRow& row : rows) {
    if (row.started_at >= start && row.started_at < end && row.country == "DE") {
      expected.push_back(row.started_at);
    }
  }
  std::vector<std::int64_t> got;
  for (const WebVisitRow& row : *decoded) got.push_back(row.started_at);
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(asked, 2) << "once per distinct value, not per row";
}

TEST(VisitBlocks, RowsMeetEveryCondition) {
  std::vector<WebVisitRow> rows;
  for (int i = 0; i < 40; ++i) rows.push_back(Visit(i));
  const std::string block = EncodeVisits(rows);
  const VisitSelection selection{
      INT64_MIN, INT64_MAX,
      {{VisitColumn::kCountry, [](std::string_view country) { return country == "DE"; }},
       {VisitColumn::kEntryPage, [](std::string_view page) { return page != "/in/1"; }}}};
  auto decoded = Decoded(block, kVisitTexts, selection);
  ASSERT_TRUE(decoded);
  std::size_t expected = 0;
  for (const WebVisitRow& row : rows) expected += row.country == "DE" && row.entry_page != "/in/1";
  EXPECT_EQ(decoded->size(), expected);
  EXPECT_GT(expected, 0u);
  for (const WebVisitRow& row : *decoded) {
    EXPECT_EQ(row.country, "DE");
    EXPECT_NE(row.entry_page, "/in/1");
  }
}

// A reader of many lists takes views into each, its vector reused; a count that is missing or
// unreadable reads 0, and DecodeVisitList gives the same items as owned strings.
TEST(VisitBlocks, ListsReadAsViews) {
  const std::string pages = EncodeVisitList({{"/a", {2, 1, 3'000}}, {"/b", {1, 0, 0}}});
  std::vector<VisitListView> items;
  ReadVisitList(pages, items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].value, "/a");
  EXPECT_EQ(items[0].count_size, 3u);
  EXPECT_EQ(items[0].counts, (std::array<std::int64_t, 3>{2, 1, 3'000}));
  EXPECT_EQ(items[1].value, "/b");
  ReadVisitList("\x1e/c\x1f" "7\x1e/d\x1f" "x\x1e/e", items);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].counts[0], 7);
  EXPECT_EQ(items[1].count_size, 1u);
  EXPECT_EQ(items[1].counts[0], 0);
  EXPECT_EQ(items[2].value, "/e");
  EXPECT_EQ(items[2].count_size, 0u);
  const std::vector<VisitListItem> decoded = DecodeVisitList(pages);
  ASSERT_EQ(decoded.size(), 2u);
  EXPECT_EQ(decoded[0].value, "/a");
  EXPECT_EQ(decoded[0].counts, (std::vector<std::int64_t>{2, 1, 3'000}));
  EXPECT_EQ(decoded[1].counts, (std::vector<std::int64_t>{1, 0, 0}));
}

TEST(VisitBlocks, DamagedBytesAreAnError) {
  std::string block = EncodeVisits(std::vector<WebVisitRow>{Visit(3)});
  EXPECT_FALSE(Decoded(block.substr(0, block.size() / 2), kVisitTexts));
  EXPECT_FALSE(Decoded("not a block", kVisitTexts));
}

TEST(VisitBlocks, EveryDimensionHasItsColumn) {
  WebVisitRow row = Visit(5);
  for (int d = static_cast<int>(WebDimension::kPage); d <= static_cast<int>(WebDimension::kChannel);
       ++d) {
    const VisitColumn column = ColumnOf(static_cast<WebDimension>(d));
    TextOf(row, column) = "marked-" + std::to_string(d);
    EXPECT_EQ(TextOf(static_cast<const WebVisitRow&>(row), column), "marked-" + std::to_string(d));
  }
  EXPECT_EQ(ColumnOf(WebDimension::kPage), VisitColumn::kPages);
  EXPECT_EQ(ColumnOf(WebDimension::kEvent), VisitColumn::kEventNames);
  EXPECT_EQ(ColumnOf(WebDimension::kEventChannel), VisitColumn::kChannels);
  EXPECT_EQ(ColumnOf(WebDimension::kSource), VisitColumn::kSource);
}

}  // namespace
}  // namespace sightline::storage
