#include "storage/visit_lists.h"

#include <charconv>
#include <system_error>

namespace sightline::storage {
namespace {

constexpr char kItem = '\x1e';
constexpr char kCount = '\x1f';

void AppendValue(std::string& out, std::string_view value) {
  for (char c : value) out.push_back(c == kItem || c == kCount ? ' ' : c);
}

}  // namespace

std::string EncodeVisitList(const std::vector<VisitListItem>& items) {
  std::string out;
  for (const VisitListItem& item : items) {
    out.push_back(kItem);
    AppendValue(out, item.value);
    for (std::int64_t count : item.counts) {
      out.push_back(kCount);
      out += std::to_string(count);
    }
  }
  return out;
}

std::vector<VisitListItem> DecodeVisitList(std::string_view list) {
  std::vector<VisitListView> views;
  ReadVisitList(list, views);
  std::vector<VisitListItem> items;
  items.reserve(views.size());
  for (const VisitListView& view : views) {
    items.push_back({std::string(view.value),
                     {view.counts.begin(), view.counts.begin() + view.count_size}});
  }
  return items;
}

void ReadVisitList(std::string_view list, std::vector<VisitListView>& items) {
  items.clear();
  while (!list.empty() && list.front() == kItem) {
    list.remove_prefix(1);
    const std::size_t end = list.find(kItem);
    const std::string_view item = list.substr(0, end);
    list = end == std::string_view::npos ? std::string_view{} : list.substr(end);
    VisitListView& view = items.emplace_back();
    std::size_t at = item.find(kCount);
    view.value = item.substr(0, at);
    for (; at != std::string_view::npos && view.count_size < VisitListView::kMaxCounts;
         at = item.find(kCount, at + 1)) {
      std::int64_t& count = view.counts[view.count_size++];
      if (std::from_chars(item.data() + at + 1, item.data() + item.size(), count).ec !=
          std::errc{}) {
        count = 0;
      }
    }
  }
}

std::string ItemMarker(std::string_view value) {
  std::string out(1, kItem);
  AppendValue(out, value);
  out.push_back(kCount);
  return out;
}

}  // namespace sightline::storage
