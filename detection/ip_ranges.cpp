#include "detection/ip_ranges.h"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace sightline::detection {

namespace json = boost::json;
using core::Error;
using core::Result;

namespace {

constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

// `bits` leading ones over 16 bytes, applied as a network mask.
void MaskRange(const std::array<std::uint8_t, 16>& address, int bits,
               std::array<std::uint8_t, 16>* first, std::array<std::uint8_t, 16>* last) {
  for (std::size_t i = 0; i < 16; ++i, bits -= 8) {
    const int here = std::clamp(bits, 0, 8);
    const auto mask = static_cast<std::uint8_t>(0xFF00 >> here);
    (*first)[i] = address[i] & mask;
    (*last)[i] = address[i] | static_cast<std::uint8_t>(~mask);
  }
}

// Whether `next_first` lies at or before the address after `last` (so the intervals touch).
bool Touches(const std::array<std::uint8_t, 16>& last,
             const std::array<std::uint8_t, 16>& next_first) {
  if (next_first <= last) return true;
  // Here last < next_first, so last is not the maximum and its successor exists.
  std::array<std::uint8_t, 16> successor = last;
  for (std::size_t i = 16; i-- > 0;) {
    if (++successor[i] != 0) break;
  }
  return successor == next_first;
}

Error Malformed(const std::string& field, const std::string& problem) {
  return Error::Invalid(field, "IP ranges: " + problem);
}

// One entry of "prefixes": {"ipv4Prefix": "a.b.c.d/n"} or {"ipv6Prefix": "x::/n"}; other
// members (Google's cloud.json adds "service" and "scope") are ignored.
Result<core::CidrRange> ParsePrefix(const json::value& entry, std::size_t index) {
  const std::string where = "prefixes[" + std::to_string(index) + "]";
  const json::object* object = entry.if_object();
  if (!object) return Malformed(where, where + " is not an object");
  const json::value* v4 = object->if_contains("ipv4Prefix");
  const json::value* v6 = object->if_contains("ipv6Prefix");
  if ((v4 == nullptr) == (v6 == nullptr)) {
    return Malformed(where, where + " needs exactly one of ipv4Prefix and ipv6Prefix");
  }
  const bool want_v6 = v6 != nullptr;
  const std::string field = where + (want_v6 ? ".ipv6Prefix" : ".ipv4Prefix");
  const json::string* text = (want_v6 ? v6 : v4)->if_string();
  if (!text) return Malformed(field, field + " is not a string");
  const std::string_view prefix(text->data(), text->size());
  const bool v6_notation = prefix.find(':') != std::string_view::npos;
  auto range = core::CidrRange::Parse(prefix);
  if (!range || v6_notation != want_v6) {
    return Malformed(field, field + " is not an IPv" + (want_v6 ? "6" : "4") + " prefix: \"" +
                                std::string(prefix) + "\"");
  }
  return *range;
}

Result<std::string> ReadFile(const std::filesystem::path& path, std::uintmax_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::Invalid("vendor_ranges", "vendor ranges: cannot open " + path.string());
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.gcount() != static_cast<std::streamsize>(text.size())) {
    return Error::Invalid("vendor_ranges", "vendor ranges: cannot read " + path.string());
  }
  return text;
}

}  // namespace

void IpRangeSet::Add(const core::CidrRange& range) {
  Interval interval{};
  MaskRange(range.network().bytes(), range.prefix_bits(), &interval.first, &interval.last);
  pending_.push_back(interval);
}

void IpRangeSet::Finalize() {
  if (pending_.empty()) return;
  std::vector<Interval> all = std::move(intervals_);
  all.insert(all.end(), pending_.begin(), pending_.end());
  pending_.clear();
  std::sort(all.begin(), all.end(),
            [](const Interval& a, const Interval& b) { return a.first < b.first; });
  intervals_.clear();
  for (const Interval& interval : all) {
    if (!intervals_.empty() && Touches(intervals_.back().last, interval.first)) {
      intervals_.back().last = std::max(intervals_.back().last, interval.last);
    } else {
      intervals_.push_back(interval);
    }
  }
  intervals_.shrink_to_fit();
}

bool IpRangeSet::Contains(const core::IpAddress& address) const {
  assert(pending_.empty() && "IpRangeSet::Finalize must follow the last Add");
  const Bytes& bytes = address.bytes();
  // The last interval starting at or before the address is the only one that can hold it.
  auto after = std::upper_bound(
      intervals_.begin(), intervals_.end(), bytes,
      [](const Bytes& value, const Interval& interval) { return value < interval.first; });
  if (after == intervals_.begin()) return false;
  return bytes <= std::prev(after)->last;
}

std::size_t IpRangeSet::size() const { return intervals_.size(); }

Result<IpRangeSet> ParseGoogleFormatRanges(std::string_view text) {
  std::error_code ec;
  const json::value document = json::parse(json::string_view(text.data(), text.size()), ec);
  if (ec) return Malformed("prefixes", "malformed JSON: " + ec.message());
  const json::object* root = document.if_object();
  if (!root) return Malformed("prefixes", "the document is not a JSON object");
  const json::value* prefixes_value = root->if_contains("prefixes");
  const json::array* prefixes = prefixes_value ? prefixes_value->if_array() : nullptr;
  if (!prefixes) return Malformed("prefixes", "needs a \"prefixes\" array");
  if (prefixes->empty()) return Malformed("prefixes", "the \"prefixes\" array is empty");
  IpRangeSet set;
  for (std::size_t i = 0; i < prefixes->size(); ++i) {
    auto range = ParsePrefix((*prefixes)[i], i);
    if (!range) return range.error();
    set.Add(*range);
  }
  set.Finalize();
  return set;
}

Result<VendorRanges> VendorRanges::LoadDirectory(const std::string& directory,
                                                 const std::vector<std::string>& list_ids) {
  VendorRanges ranges;
  for (const std::string& id : list_ids) {
    if (id.empty() || id.front() == '.' || id.find('/') != std::string::npos) {
      return Error::Invalid("vendor_ranges", "vendor ranges: bad list id \"" + id + "\"");
    }
    const std::filesystem::path path = std::filesystem::path(directory) / (id + ".json");
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) continue;
    if (ec || status.type() != std::filesystem::file_type::regular) {
      return Error::Invalid("vendor_ranges", "vendor ranges: " + path.string() +
                                                 " is not a readable regular file");
    }
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error::Invalid("vendor_ranges", "vendor ranges: cannot stat " + path.string());
    if (size > kMaxFileBytes) {
      return Error::Invalid("vendor_ranges", "vendor ranges: " + path.string() +
                                                 " is larger than 16 MiB");
    }
    Result<std::string> text = ReadFile(path, size);
    if (!text) return text.error();
    Result<IpRangeSet> set = ParseGoogleFormatRanges(*text);
    if (!set) {
      return Error::Invalid("vendor_ranges",
                            "vendor ranges: " + path.string() + ": " + set.error().message());
    }
    ranges.Put(id, std::move(*set));
  }
  return ranges;
}

void VendorRanges::Put(std::string list_id, IpRangeSet ranges) {
  ranges.Finalize();  // a no-op when the caller already did
  sets_.insert_or_assign(std::move(list_id), std::move(ranges));
}

void VendorRanges::Merge(VendorRanges other) {
  for (auto& [id, set] : other.sets_) sets_.insert_or_assign(id, std::move(set));
}

std::optional<bool> VendorRanges::Contains(std::string_view list_id,
                                           const core::IpAddress& address) const {
  const auto it = sets_.find(list_id);
  if (it == sets_.end()) return std::nullopt;
  return it->second.Contains(address);
}

}  // namespace sightline::detection
