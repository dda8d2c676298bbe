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
  std::vector<VisitListItem> items;
  while (!list.empty() && list.front() == kItem) {
    list.remove_prefix(1);
    const std::size_t end = list.find(kItem);
    std::string_view item = list.substr(0, end);
    list = end == std::string_view::npos ? std::string_view{} : list.substr(end);
    VisitListItem decoded;
    const std::size_t first_count = item.find(kCount);
    decoded.value = std::string(item.substr(0, first_count));
    item = first_count == std::string_view::npos ? std::string_view{} : item.substr(first_count);
    while (!item.empty()) {
      item.remove_prefix(1);  // the separator
      std::int64_t count = 0;
      const auto [next, error] = std::from_chars(item.data(), item.data() + item.size(), count);
      decoded.counts.push_back(error == std::errc{} ? count : 0);
      item.remove_prefix(static_cast<std::size_t>(next - item.data()));
      const std::size_t skip = item.find(kCount);
      item = skip == std::string_view::npos ? std::string_view{} : item.substr(skip);
    }
    items.push_back(std::move(decoded));
  }
  return items;
}

std::string ItemMarker(std::string_view value) {
  std::string out(1, kItem);
  AppendValue(out, value);
  out.push_back(kCount);
  return out;
}

}  // namespace sightline::storage
