#include "detection/ua_text.h"

#include <algorithm>

namespace sightline::detection::ua {
namespace {

// Characters that can make up a product name or version ("Mobile-Safari", "x86_64", "1.2+").
bool IsTokenChar(char c) { return IsAlnum(c) || c == '.' || c == '-' || c == '_' || c == '+'; }

bool IsNumberChar(char c) { return IsDigit(c) || c == '.' || c == '_'; }

}  // namespace

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) { return IsAlpha(c) || IsDigit(c); }
char ToLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string_view MajorMinor(std::string_view version) {
  std::string_view number = LeadingNumber(version);
  if (number.empty() || !IsDigit(number.front())) return {};
  std::size_t separators = 0;
  for (std::size_t i = 0; i < number.size(); ++i) {
    if (number[i] != '.' && number[i] != '_') continue;
    if (++separators == 2 || i + 1 == number.size()) return number.substr(0, i);
  }
  return number;
}

std::string_view LeadingNumber(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && IsNumberChar(text[end])) ++end;
  return text.substr(0, end);
}

int LeadingInt(std::string_view text) {
  if (text.empty() || !IsDigit(text.front())) return -1;
  int value = 0;
  for (std::size_t i = 0; i < text.size() && IsDigit(text[i]) && value < 100000; ++i) {
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view lower_prefix) {
  if (text.size() < lower_prefix.size()) return false;
  for (std::size_t i = 0; i < lower_prefix.size(); ++i) {
    if (ToLower(text[i]) != lower_prefix[i]) return false;
  }
  return true;
}

UaText::UaText(std::string_view user_agent)
    : text_(Trim(user_agent.substr(0, std::min(user_agent.size(), kMaxAnalysedLength)))) {
  std::transform(text_.begin(), text_.end(), lower_buffer_.begin(), ToLower);
  lower_ = std::string_view(lower_buffer_.data(), text_.size());
  CollectProducts();
  CollectPairs();
  platform_ = FirstComment();
}

// Nested parentheses belong to the comment: "(Linux; Android 7.0; Moto G (4))".
std::string_view UaText::FirstComment() const {
  const std::size_t open = text_.find('(');
  if (open == npos) return {};
  int depth = 0;
  for (std::size_t i = open; i < text_.size(); ++i) {
    if (text_[i] == '(') ++depth;
    if (text_[i] == ')' && --depth == 0) return text_.substr(open + 1, i - open - 1);
  }
  return text_.substr(open + 1);
}

// A product is the run of token characters right before a '/', e.g. "Chrome" in
// "Chrome/120.0"; its version is the run right after. This reads products inside comments and
// brackets too ("[FBAN/FBIOS;FBAV/445.0"), which is where in-app browsers put theirs.
void UaText::CollectProducts() {
  std::size_t slash = lower_.find('/');
  while (slash != npos && product_count_ < kMaxProducts) {
    std::size_t begin = slash;
    while (begin > 0 && IsTokenChar(lower_[begin - 1])) --begin;
    std::size_t end = slash + 1;
    while (end < text_.size() && IsTokenChar(text_[end])) ++end;
    if (begin < slash) {
      products_[product_count_++] = {lower_.substr(begin, slash - begin),
                                     text_.substr(slash + 1, end - slash - 1), begin};
    }
    slash = lower_.find('/', end > slash + 1 ? end : slash + 1);
  }
}

void UaText::CollectPairs() {
  for (std::size_t i = 1; i < lower_.size(); ++i) {
    const std::size_t bit = PairIndex(lower_[i - 1], lower_[i]);
    pairs_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
  }
}

bool UaText::MayContain(std::string_view needle) const {
  for (std::size_t i = 1; i < needle.size(); ++i) {
    const std::size_t bit = PairIndex(needle[i - 1], needle[i]);
    if ((pairs_[bit >> 6] & (std::uint64_t{1} << (bit & 63))) == 0) return false;
  }
  return true;
}

bool UaText::HasWord(std::string_view needle) const {
  for (std::size_t at = Find(needle); at != npos; at = lower_.find(needle, at + 1)) {
    const std::size_t end = at + needle.size();
    const bool starts = at == 0 || !IsAlnum(lower_[at - 1]);
    const bool ends = end == lower_.size() || !IsAlnum(lower_[end]);
    if (starts && ends) return true;
  }
  return false;
}

const Product* UaText::FindProduct(std::string_view name) const {
  for (const Product& product : products()) {
    if (product.name == name) return &product;
  }
  return nullptr;
}

bool UaText::StartsWithProduct(std::string_view name) const {
  return product_count_ > 0 && products_[0].offset == 0 && products_[0].name == name;
}

std::string_view UaText::NumberAt(std::size_t offset) const {
  while (offset < text_.size() && text_[offset] == ' ') ++offset;
  if (offset >= text_.size()) return {};
  return LeadingNumber(text_.substr(offset));
}

}  // namespace sightline::detection::ua
