// One paging scheme for every list operation: `limit` and an opaque keyset `cursor` in, the
// page and `nextCursor` (null on the last page) out.
//
// A cursor is the position after the last row of a page: that row's sort key values, ending
// with its id (a "page key"), sealed with the list it belongs to and the codec's version. A
// cursor of another list, another version, or anything this codec did not write is refused
// with the same error (VAL_003, field "cursor"). Cursors are opaque, not secret: the list's query still scopes
// every row to the caller, so a hand-made cursor can only move within what the caller may see.
#pragma once

#include "core/result.h"
#include "storage/keyset.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::tools {

// A row's position in its list: the sort key values in order, the row's id last. Each value is
// a whole number or a string.
using PageKey = boost::json::array;

// What a page key holds, one letter per value: 'i' a whole number, 's' a string. "is" is
// (created_at, id), the shape of most lists.
using PageKeyShape = std::string_view;
inline constexpr PageKeyShape kTimeIdShape = "is";

// `list` names the list and its ordering (e.g. "list_events"); a cursor works in that list only.
std::string EncodeCursor(std::string_view list, const PageKey& key);
// The key a cursor of `list` holds, if this codec wrote it for `list` with keys of `shape`.
std::optional<PageKey> DecodeCursor(std::string_view list, PageKeyShape shape,
                                    std::string_view cursor);

// The error every refused cursor answers (VAL_003, field "cursor").
core::Error InvalidCursor();

struct PageRequest {
  std::size_t limit = 50;
  std::optional<PageKey> after;  // the page starts after this row; none: the first page
};

// Reads `limit` (or `default_limit`; the schema bounds it) and `cursor` of `list`.
core::Result<PageRequest> ReadPageArgs(const boost::json::object& args, std::string_view list,
                                       PageKeyShape shape, std::size_t default_limit);

// Writes `nextCursor` into a list's answer: the cursor after `last`, or null on the last page.
void WriteNextCursor(boost::json::object& answer, std::string_view list,
                     const std::optional<PageKey>& last);

// The (created_at, id) key and back.
PageKey TimeIdKey(std::int64_t at, std::string_view id);
std::pair<std::int64_t, std::string> TimeIdOf(const PageKey& key);

// A list read with one row more than the page holds (limit + 1) tells whether there is a next
// page: trims the extra row and answers the key of the page's last row when there is one.
template <class Row, class KeyOf>
std::optional<PageKey> TrimToPage(std::vector<Row>& rows, std::size_t limit, KeyOf key_of) {
  if (rows.size() <= limit) return std::nullopt;
  rows.resize(limit);
  return key_of(rows.back());
}

// The LIMIT of a keyset query for `request`: one row more than the page, which tells whether
// there is a next page (the whole list, kWholeList, stays whole).
std::int64_t ProbeLimit(const PageRequest& request);

// -1, 0 or 1 as `a` sorts before, with or after `b` (value by value; numbers before strings).
int ComparePageKeys(const PageKey& a, const PageKey& b);

enum class PageOrder { kAscending, kDescending };

// Pages a list read whole (the small lists bounded by the product: a user's passkeys, an
// organization's members…): sorts `rows` by their keys, keeps the page after the request's
// cursor and answers the key for `nextCursor`. Same cursors, same answers as a keyset query.
template <class Row, class KeyOf>
std::optional<PageKey> PageInMemory(std::vector<Row>& rows, const PageRequest& request,
                                    PageOrder order, KeyOf key_of) {
  const auto before = [&](const PageKey& a, const PageKey& b) {
    const int c = ComparePageKeys(a, b);
    return order == PageOrder::kAscending ? c < 0 : c > 0;
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return before(key_of(a), key_of(b)); });
  if (request.after) {
    const auto first = std::find_if(rows.begin(), rows.end(), [&](const Row& row) {
      return before(*request.after, key_of(row));
    });
    rows.erase(rows.begin(), first);
  }
  return TrimToPage(rows, request.limit, key_of);
}

// No `limit`: the whole list, as the lists that answered everything before cursors still do.
inline constexpr std::size_t kWholeList = static_cast<std::size_t>(-1);

// A list as its answer shows it: its name as cursors carry it, the answer's member, the order
// and shape of its keys.
struct ListSpec {
  std::string_view name;
  std::string_view member;
  PageOrder order = PageOrder::kAscending;
  PageKeyShape shape = kTimeIdShape;
};

// The keyset page of a (time, id) list that `request` asks the store for: one row more than
// the page (ProbeLimit), after the cursor's row.
storage::KeysetPage KeysetOf(const PageRequest& request);

// The answer of a page read with one row more than asked (`limit` + 1): the rows as `view_of`
// shows them, and `nextCursor`.
template <class Row, class KeyOf, class ViewOf>
boost::json::value AnswerPage(const ListSpec& list, std::size_t limit, std::vector<Row> rows,
                              KeyOf key_of, ViewOf view_of) {
  const auto last = TrimToPage(rows, limit, key_of);
  boost::json::array out;
  for (const auto& row : rows) out.push_back(view_of(row));
  boost::json::object answer{{list.member, std::move(out)}};
  WriteNextCursor(answer, list.name, last);
  return boost::json::value(std::move(answer));
}

// The answer of a list read whole (a user's own few: passkeys, organizations, connected
// clients): the page of `rows` the arguments ask for, paged here with the same cursors.
template <class Row, class KeyOf, class ViewOf>
core::Result<boost::json::value> AnswerWholeList(const ListSpec& list,
                                                 const boost::json::object& args,
                                                 std::vector<Row> rows, KeyOf key_of,
                                                 ViewOf view_of) {
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  PageRequest through_last = *request;
  through_last.limit = request->limit == kWholeList ? kWholeList : request->limit + 1;
  PageInMemory(rows, through_last, list.order, key_of);
  return AnswerPage(list, request->limit, std::move(rows), key_of, view_of);
}

}  // namespace sightline::tools
