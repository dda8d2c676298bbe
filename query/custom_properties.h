// An event's custom properties, read from its tags (JSON text): strings as they are, numbers
// and booleans as JSON text; the tags of Sightline and the SDK (`$…`, `__…`) are no custom
// properties. A query reads the tags of many events and usually one or two keys of them, so
// the properties are kept flat, one entry per tags value, as views wherever the tags hold the
// value as it is (a plain string, what the SDK sends): no allocation per property. Not
// thread-safe; immutable once filled.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::query {

struct Property {
  std::string_view key, value;
  bool operator==(const Property&) const = default;
};

class PropertyTable {
 public:
  // `keys`: the keys kept; every key when none.
  explicit PropertyTable(std::optional<std::vector<std::string>> keys = std::nullopt);
  // Moving keeps every view valid (the owned values do not move).
  PropertyTable(PropertyTable&&) = default;
  PropertyTable& operator=(PropertyTable&&) = default;

  // Adds the properties of `tags` as the next entry and returns its number (0, 1, …). Views
  // may point into `tags`, which must outlive the table; what had to be unescaped or
  // formatted is kept by the table.
  std::size_t Add(std::string_view tags);
  std::span<const Property> operator[](std::size_t entry) const {
    return std::span(properties_).subspan(starts_[entry], starts_[entry + 1] - starts_[entry]);
  }
  std::size_t size() const { return starts_.size() - 1; }

 private:
  bool Kept(std::string_view key) const;
  bool CannotHoldAKeyKept(std::string_view tags) const;
  bool AddPlain(std::string_view tags);
  void AddParsed(std::string_view tags);

  std::optional<std::vector<std::string>> keys_;
  std::vector<std::string> quoted_keys_;  // `"key"` for each of keys_
  std::vector<Property> properties_;
  std::vector<std::uint32_t> starts_ = {0};  // where each entry starts, and the end
  std::deque<std::string> owned_;            // a deque: its strings never move
  std::vector<std::string_view> seen_;       // the keys of the tags being read
};

}  // namespace sightline::query
