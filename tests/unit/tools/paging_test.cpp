#include "tools/paging.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/crypto.h"
#include "features/all_operations.h"
#include "tools/registry.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;

TEST(PagingCodec, ACursorGivesBackItsKey) {
  const PageKey key = TimeIdKey(1767225600000, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
  const std::string cursor = EncodeCursor("list_events", key);
  const auto decoded = DecodeCursor("list_events", kTimeIdShape, cursor);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, key);
  EXPECT_EQ(TimeIdOf(*decoded).first, 1767225600000);
  EXPECT_EQ(TimeIdOf(*decoded).second, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
}

// Found by fuzz/paging_cursor: a key string that is not UTF-8 encoded to a cursor that the
// codec then refused, so a list holding such a row could not page past it.
TEST(PagingCodec, AKeyThatIsNotUtf8GivesBackItsKey) {
  const PageKey key{std::int64_t{506097522914230528}, std::string("\xf3\x9a" "bc\\x\xff\xff")};
  const auto decoded = DecodeCursor("list_events", "is", EncodeCursor("list_events", key));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, key);
}

TEST(PagingCodec, CursorsAreUrlSafe) {
  const std::string cursor =
      EncodeCursor("list_organizations", PageKey{"Ünïcode / name?&=+", "id with spaces"});
  EXPECT_EQ(cursor.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                     "0123456789-_"),
            std::string::npos);
  const auto decoded = DecodeCursor("list_organizations", "ss", cursor);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->at(0).as_string(), "Ünïcode / name?&=+");
}

TEST(PagingCodec, ACursorWorksInItsOwnListOnly) {
  const std::string cursor = EncodeCursor("list_audit_log", TimeIdKey(5, "a"));
  EXPECT_FALSE(DecodeCursor("list_events", kTimeIdShape, cursor));
  EXPECT_FALSE(DecodeCursor("list_audit", kTimeIdShape, cursor));
  EXPECT_TRUE(DecodeCursor("list_audit_log", kTimeIdShape, cursor));
}

TEST(PagingCodec, RefusesAKeyOfAnotherShape) {
  const std::string cursor = EncodeCursor("list_crawl_issues", PageKey{1, "rule", "url"});
  EXPECT_TRUE(DecodeCursor("list_crawl_issues", "iss", cursor));
  EXPECT_FALSE(DecodeCursor("list_crawl_issues", "is", cursor));
  EXPECT_FALSE(DecodeCursor("list_crawl_issues", "sss", cursor));
}

TEST(PagingCodec, RefusesWhatItDidNotWrite) {
  const std::string good = EncodeCursor("list_events", TimeIdKey(5, "a"));
  std::vector<std::string> forged = {
      "",
      "not a cursor",
      "!!!!",
      // The previous codecs' format: base64url of "<time>:<id>".
      core::Base64UrlEncode("1767225600000:abc"),
      // Well-formed payloads without the check bytes, or with wrong ones.
      core::Base64UrlEncode("1\nlist_events\n[5,\"a\"]"),
      core::Base64UrlEncode("xxxxxx1\nlist_events\n[5,\"a\"]"),
      good.substr(0, good.size() - 2),
      good + "A",
  };
  // Every single character changed.
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string edited = good;
    edited[i] = edited[i] == 'A' ? 'B' : 'A';
    forged.push_back(edited);
  }
  for (const std::string& cursor : forged) {
    EXPECT_FALSE(DecodeCursor("list_events", kTimeIdShape, cursor)) << cursor;
  }
}

TEST(PagingArgs, ReadsLimitAndCursor) {
  json::object args{{"limit", 7},
                    {"cursor", EncodeCursor("list_events", TimeIdKey(9, "z"))}};
  auto request = ReadPageArgs(args, "list_events", kTimeIdShape, 50);
  ASSERT_TRUE(request);
  EXPECT_EQ(request->limit, 7u);
  ASSERT_TRUE(request->after);
  EXPECT_EQ(TimeIdOf(*request->after).second, "z");

  auto defaults = ReadPageArgs(json::object{}, "list_events", kTimeIdShape, 50);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->limit, 50u);
  EXPECT_FALSE(defaults->after);
}

TEST(PagingArgs, AForeignCursorIsAValidationError) {
  json::object args{{"cursor", EncodeCursor("list_members", TimeIdKey(9, "z"))}};
  auto request = ReadPageArgs(args, "list_events", kTimeIdShape, 50);
  ASSERT_FALSE(request);
  EXPECT_EQ(request.error().code(), core::ErrorCode::kValInvalidParameter);
  EXPECT_EQ(request.error().message(), "'cursor' is not a cursor this API gave out.");
}

TEST(PagingAnswer, NextCursorIsNullOnTheLastPage) {
  json::object answer;
  WriteNextCursor(answer, "list_events", std::nullopt);
  EXPECT_TRUE(answer.at("nextCursor").is_null());
  WriteNextCursor(answer, "list_events", TimeIdKey(1, "a"));
  ASSERT_TRUE(answer.at("nextCursor").is_string());
  EXPECT_TRUE(DecodeCursor("list_events", kTimeIdShape, answer.at("nextCursor").as_string()));
}

struct Row {
  std::int64_t at;
  std::string id;
};

PageKey KeyOf(const Row& row) { return TimeIdKey(row.at, row.id); }

// Walks the whole list page by page, as a client following nextCursor does.
std::vector<std::string> WalkInMemory(const std::vector<Row>& all, std::size_t limit,
                                      PageOrder order) {
  std::vector<std::string> seen;
  PageRequest request{limit, std::nullopt};
  for (int pages = 0; pages < 100; ++pages) {
    std::vector<Row> rows = all;
    const auto last = PageInMemory(rows, request, order, KeyOf);
    EXPECT_LE(rows.size(), limit);
    for (const Row& row : rows) seen.push_back(row.id);
    if (!last) return seen;
    // Through the codec, as over the wire.
    request.after = DecodeCursor("list_test", kTimeIdShape, EncodeCursor("list_test", *last));
  }
  ADD_FAILURE() << "the walk never ended";
  return seen;
}

TEST(PagingInMemory, EveryRowOnceInOrder) {
  // Ties on the time are broken by the id.
  const std::vector<Row> all = {{3, "c"}, {1, "a"}, {2, "b2"}, {2, "b1"}, {5, "e"},
                                {4, "d"}, {2, "b3"}};
  for (std::size_t limit : {1u, 2u, 3u, 7u, 10u}) {
    EXPECT_EQ(WalkInMemory(all, limit, PageOrder::kAscending),
              (std::vector<std::string>{"a", "b1", "b2", "b3", "c", "d", "e"}))
        << "limit " << limit;
    EXPECT_EQ(WalkInMemory(all, limit, PageOrder::kDescending),
              (std::vector<std::string>{"e", "d", "c", "b3", "b2", "b1", "a"}))
        << "limit " << limit;
  }
}

TEST(PagingInMemory, ARemovedRowDoesNotLoseThePlace) {
  std::vector<Row> rows = {{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}};
  PageRequest request{2, std::nullopt};
  auto first = rows;
  const auto last = PageInMemory(first, request, PageOrder::kAscending, KeyOf);
  ASSERT_TRUE(last);
  // "b", the last row of the first page, is deleted before the next page is asked for.
  std::vector<Row> next = {{1, "a"}, {3, "c"}, {4, "d"}};
  request.after = *last;
  EXPECT_FALSE(PageInMemory(next, request, PageOrder::kAscending, KeyOf));
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[0].id, "c");
  EXPECT_EQ(next[1].id, "d");
}

// Every list operation takes `cursor` and answers `nextCursor` (the shared schema fragments).
TEST(PagingRegistry, EveryListOperationPages) {
  auto registry = Registry::Build(AllOperations(), AllSchemaDocuments());
  ASSERT_TRUE(registry);
  int lists = 0;
  for (const RegisteredOperation& operation : registry->operations()) {
    const OperationSpec& spec = *operation.spec;
    if (!spec.name.starts_with("list_")) continue;
    ++lists;
    const json::object& output = operation.output_schema;
    EXPECT_TRUE(output.at("properties").as_object().contains("nextCursor")) << spec.name;
    // The two fixed catalogs are always whole; every other list pages.
    if (spec.name == "list_roles" || spec.name == "list_audit_rules") continue;
    const json::object& input = operation.input_schema;
    EXPECT_TRUE(input.at("properties").as_object().contains("cursor")) << spec.name;
    EXPECT_TRUE(input.at("properties").as_object().contains("limit")) << spec.name;
  }
  EXPECT_GE(lists, 24);
}

}  // namespace
}  // namespace sightline::tools
