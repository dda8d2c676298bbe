// The lists a visit row keeps of the values that vary within a visit (visit blocks: pages,
// event_names, channels): each item is its value and a few counts. An item of a value is found
// in an encoded list by its marker (ItemMarker), without decoding the list.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::storage {

struct VisitListItem {
  std::string value;
  std::vector<std::int64_t> counts;
};

// "\x1e" value ("\x1f" count)* per item. The two separators never occur in stored values: a
// value holding one has it replaced by a space (the value is then found under that spelling).
std::string EncodeVisitList(const std::vector<VisitListItem>& items);
std::vector<VisitListItem> DecodeVisitList(std::string_view list);

// An item of an encoded list as a view into it: its value, and its first kMaxCounts counts (a
// page's views, timed views and view ms; a name's or channel's events); a count that is
// missing or unreadable reads 0.
struct VisitListView {
  static constexpr std::size_t kMaxCounts = 3;
  std::string_view value;
  std::array<std::int64_t, kMaxCounts> counts{};
  std::size_t count_size = 0;  // how many counts the item has (up to kMaxCounts)
};
// Reads `list` into `items`, cleared first, so that a reader of many lists reuses its memory.
void ReadVisitList(std::string_view list, std::vector<VisitListView>& items);

// What an encoded list contains exactly when it holds an item of `value`.
std::string ItemMarker(std::string_view value);

}  // namespace sightline::storage
