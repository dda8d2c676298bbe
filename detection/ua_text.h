// Internal to detection/: one pass over a User-Agent string (lower-cased copy, the product
// tokens "Name/version", the first comment, and a filter of the byte pairs it contains) that the
// bot, browser, OS and device classifiers share, so each of them scans substrings instead of
// running regular expressions.
//
// A UaText borrows the string it was built from; keep that string alive while using it. It is
// immutable once built; its const methods are thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sightline::detection::ua {

// Longer User-Agents are analysed on their first kMaxAnalysedLength bytes: every browser token
// we read sits well inside that, and it bounds the work an abusive header can cause.
inline constexpr std::size_t kMaxAnalysedLength = 1024;

struct Product {
  std::string_view name;     // lower-case, e.g. "chrome"
  std::string_view version;  // as written, e.g. "120.0.6099.71" (may be empty or not numeric)
  std::size_t offset = 0;    // where the name starts in the text
};

class UaText {
 public:
  explicit UaText(std::string_view user_agent);
  UaText(const UaText&) = delete;
  UaText& operator=(const UaText&) = delete;

  std::string_view text() const { return text_; }    // the analysed text, original case
  std::string_view lower() const { return lower_; }  // the same bytes, ASCII lower-cased
  bool empty() const { return text_.empty(); }

  // REQUIRES: needle is lower-case.
  bool Has(std::string_view needle) const { return Find(needle) != npos; }
  std::size_t Find(std::string_view needle, std::size_t from = 0) const {
    return MayContain(needle) ? lower_.find(needle, from) : npos;
  }
  // False when some pair of adjacent needle bytes never occurs in the text, so the needle
  // cannot either. The classifiers ask for hundreds of tokens that are mostly absent; this
  // answers most of them without scanning.
  bool MayContain(std::string_view needle) const;
  // True when the needle occurs with no letter or digit right before and after it.
  bool HasWord(std::string_view needle) const;

  std::span<const Product> products() const { return {products_.data(), product_count_}; }
  // The first product whose lower-case name equals `name`, or nullptr.
  const Product* FindProduct(std::string_view name) const;
  // True when the text begins with the product `name` (a client naming itself first, as
  // "curl/8.4.0" does).
  bool StartsWithProduct(std::string_view name) const;

  // The digits, dots and underscores written at `offset` (after skipping spaces), e.g. the
  // "8.0" of "MSIE 8.0".
  std::string_view NumberAt(std::size_t offset) const;
  // The first parenthesised comment, e.g. "Linux; Android 14; Pixel 8", or empty.
  std::string_view PlatformComment() const { return platform_; }

  static constexpr std::size_t npos = std::string_view::npos;

 private:
  void CollectProducts();
  void CollectPairs();
  static std::size_t PairIndex(char first, char second) {
    return (static_cast<std::size_t>(static_cast<unsigned char>(first) & 63) << 6) |
           (static_cast<unsigned char>(second) & 63);
  }
  std::string_view FirstComment() const;

  std::string_view text_;
  std::array<char, kMaxAnalysedLength> lower_buffer_;
  std::string_view lower_;
  std::string_view platform_;
  static constexpr std::size_t kMaxProducts = 32;
  std::array<Product, kMaxProducts> products_{};
  std::size_t product_count_ = 0;
  std::array<std::uint64_t, 64> pairs_{};  // bit PairIndex(a, b): "ab" occurs in lower_
};

// Helpers over plain text, shared by the classifiers.
bool IsAlpha(char c);
bool IsDigit(char c);
bool IsAlnum(char c);
char ToLower(char c);
// "120.0.6099.71" → "120.0"; "10_15_7" → "10_15"; "537" → "537"; "" unless it starts with a
// digit.
std::string_view MajorMinor(std::string_view version);
// The leading run of digits, dots and underscores ("13_4_1 like" → "13_4_1").
std::string_view LeadingNumber(std::string_view text);
// The leading decimal integer ("13_4" → 13), or -1 when the text does not start with a digit.
int LeadingInt(std::string_view text);
// Whitespace-trimmed view.
std::string_view Trim(std::string_view text);
bool StartsWithIgnoringCase(std::string_view text, std::string_view lower_prefix);

}  // namespace sightline::detection::ua
