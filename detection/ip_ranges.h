// Vendors' published IP ranges, for CIDR verification of crawlers. A range set answers
// membership in O(log n) over sorted, merged intervals of the 128-bit (IPv4-mapped) address
// space. `VendorRanges` holds one set per catalog list id, loaded from a directory of files
// named `<list id>.json` in the vendors' own JSON format (Google's format, which Bing, OpenAI,
// Perplexity, Apple, Anthropic, DuckDuckGo, Common Crawl and Mistral share:
// {"prefixes": [{"ipv4Prefix": "a.b.c.d/n"}, {"ipv6Prefix": "…/n"}]}).
// Built once, then read-only and thread-safe.
#pragma once

#include "core/ip_address.h"
#include "core/result.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::detection {

class IpRangeSet {
 public:
  void Add(const core::CidrRange& range);
  // Sorts and merges; call once after the last Add, before Contains. Adding more ranges and
  // finalizing again is allowed.
  void Finalize();
  // O(log n), allocation-free. REQUIRES: Finalize after the last Add. Contains does not
  // finalize lazily (that would write from a const, shared method): it asserts in debug builds,
  // and in release builds ranges added since the last Finalize are not seen.
  bool Contains(const core::IpAddress& address) const;
  std::size_t size() const;  // merged intervals

 private:
  using Bytes = std::array<std::uint8_t, 16>;  // big-endian, so array order is numeric order
  struct Interval {
    Bytes first;
    Bytes last;  // inclusive
  };
  std::vector<Interval> pending_;    // added since the last Finalize
  std::vector<Interval> intervals_;  // sorted by first, disjoint and non-adjacent
};

// Parses a list in Google's format; VAL_003 when it is not one (or holds no valid prefix).
core::Result<IpRangeSet> ParseGoogleFormatRanges(std::string_view json);

class VendorRanges {
 public:
  // Loads every `<id>.json` in `directory` whose id is in `list_ids`; files that are missing are
  // simply absent (a list not loaded verifies nothing); a file that does not parse is an error
  // naming it.
  static core::Result<VendorRanges> LoadDirectory(const std::string& directory,
                                                  const std::vector<std::string>& list_ids);
  void Put(std::string list_id, IpRangeSet ranges);
  // Takes `other`'s lists, replacing lists of the same id.
  void Merge(VendorRanges other);
  // nullopt when the list is not loaded; otherwise whether the address is in it.
  std::optional<bool> Contains(std::string_view list_id, const core::IpAddress& address) const;
  std::size_t loaded() const { return sets_.size(); }

 private:
  std::map<std::string, IpRangeSet, std::less<>> sets_;
};

// The range lists in use, replaced whole when a refresh succeeds; readers keep the copy they
// took. Thread-safe.
class LiveRanges {
 public:
  explicit LiveRanges(std::shared_ptr<const VendorRanges> initial = nullptr)
      : current_(std::move(initial)) {}
  std::shared_ptr<const VendorRanges> Current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }
  void Replace(std::shared_ptr<const VendorRanges> ranges) {
    std::lock_guard lock(mutex_);
    current_ = std::move(ranges);
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const VendorRanges> current_;
};

}  // namespace sightline::detection
