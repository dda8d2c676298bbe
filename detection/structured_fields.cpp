#include "detection/structured_fields.h"

#include "core/crypto.h"

#include <charconv>

namespace sightline::detection::sf {
namespace {

bool IsLcAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsTchar(char c) {
  return IsAlpha(c) || IsDigit(c) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// A recursive-descent reader over one field value (RFC 8941 §4.2).
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool AtEnd() const { return at_ >= text_.size(); }
  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++at_;
    return true;
  }
  char Peek() const { return AtEnd() ? '\0' : text_[at_]; }
  void SkipSp() { while (Peek() == ' ') ++at_; }
  void SkipOws() { while (Peek() == ' ' || Peek() == '\t') ++at_; }

  std::optional<std::string> Key() {
    if (!(IsLcAlpha(Peek()) || Peek() == '*')) return std::nullopt;
    std::string key;
    while (IsLcAlpha(Peek()) || IsDigit(Peek()) || Peek() == '_' || Peek() == '-' ||
           Peek() == '.' || Peek() == '*') {
      key.push_back(text_[at_++]);
    }
    return key;
  }

  std::optional<BareItem> Bare() {
    const char c = Peek();
    if (c == '-' || IsDigit(c)) return Integer();
    if (c == '"') return String();
    if (c == ':') return Bytes();
    if (c == '?') return Boolean();
    if (IsAlpha(c) || c == '*') return TokenItem();
    return std::nullopt;
  }

  std::optional<Parameters> Params() {
    Parameters out;
    while (Peek() == ';') {
      ++at_;
      SkipSp();
      auto key = Key();
      if (!key) return std::nullopt;
      BareItem value = true;
      if (Peek() == '=') {
        ++at_;
        auto bare = Bare();
        if (!bare) return std::nullopt;
        value = std::move(*bare);
      }
      out.emplace_back(std::move(*key), std::move(value));
    }
    return out;
  }

  std::optional<Item> ItemValue() {
    auto bare = Bare();
    if (!bare) return std::nullopt;
    auto params = Params();
    if (!params) return std::nullopt;
    return Item{std::move(*bare), std::move(*params)};
  }

  std::optional<InnerList> Inner() {
    ++at_;  // '('
    InnerList list;
    while (true) {
      SkipSp();
      if (Peek() == ')') {
        ++at_;
        auto params = Params();
        if (!params) return std::nullopt;
        list.parameters = std::move(*params);
        return list;
      }
      auto item = ItemValue();
      if (!item) return std::nullopt;
      list.items.push_back(std::move(*item));
      if (Peek() != ' ' && Peek() != ')') return std::nullopt;
    }
  }

  std::optional<Member> MemberValue() {
    if (Peek() == '(') {
      auto list = Inner();
      if (!list) return std::nullopt;
      return Member(std::move(*list));
    }
    auto item = ItemValue();
    if (!item) return std::nullopt;
    return Member(std::move(*item));
  }

 private:
  std::optional<BareItem> Integer() {
    const std::size_t start = at_;
    if (Peek() == '-') ++at_;
    while (IsDigit(Peek())) ++at_;
    if (Peek() == '.') return std::nullopt;  // decimals are not used by signatures
    const std::string_view digits = text_.substr(start, at_ - start);
    if (digits.empty() || digits == "-" || digits.size() > 16) return std::nullopt;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
  }

  std::optional<BareItem> String() {
    ++at_;
    std::string out;
    while (!AtEnd()) {
      const char c = text_[at_++];
      if (c == '\\') {
        if (AtEnd() || (Peek() != '"' && Peek() != '\\')) return std::nullopt;
        out.push_back(text_[at_++]);
      } else if (c == '"') {
        return out;
      } else if (c < 0x20 || c > 0x7e) {
        return std::nullopt;
      } else {
        out.push_back(c);
      }
    }
    return std::nullopt;
  }

  std::optional<BareItem> Bytes() {
    ++at_;
    const auto end = text_.find(':', at_);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view encoded = text_.substr(at_, end - at_);
    at_ = end + 1;
    auto bytes = core::Base64Decode(encoded);
    if (!bytes) return std::nullopt;
    return ByteSequence{std::move(*bytes)};
  }

  std::optional<BareItem> Boolean() {
    ++at_;
    if (Peek() == '1' || Peek() == '0') return text_[at_++] == '1';
    return std::nullopt;
  }

  std::optional<BareItem> TokenItem() {
    Token token;
    while (IsTchar(Peek()) || Peek() == ':' || Peek() == '/') token.text.push_back(text_[at_++]);
    return token;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

const BareItem* Find(const Parameters& parameters, std::string_view key) {
  for (const auto& [name, value] : parameters) {
    if (name == key) return &value;
  }
  return nullptr;
}

}  // namespace

const BareItem* Item::Parameter(std::string_view key) const { return Find(parameters, key); }
const BareItem* InnerList::Parameter(std::string_view key) const { return Find(parameters, key); }

std::optional<Dictionary> ParseDictionary(std::string_view field) {
  Reader reader(field);
  reader.SkipSp();
  Dictionary out;
  while (!reader.AtEnd()) {
    auto key = reader.Key();
    if (!key) return std::nullopt;
    std::optional<Member> member;
    if (reader.Consume('=')) {
      member = reader.MemberValue();
    } else {
      auto params = reader.Params();  // a bare key is the boolean true
      if (params) member = Item{true, std::move(*params)};
    }
    if (!member) return std::nullopt;
    std::erase_if(out, [&key](const auto& entry) { return entry.first == *key; });
    out.emplace_back(std::move(*key), std::move(*member));
    reader.SkipOws();
    if (reader.AtEnd()) return out;
    if (!reader.Consume(',')) return std::nullopt;
    reader.SkipOws();
    if (reader.AtEnd()) return std::nullopt;  // trailing comma
  }
  return out;
}

std::optional<Item> ParseItem(std::string_view field) {
  Reader reader(field);
  reader.SkipSp();
  auto item = reader.ItemValue();
  reader.SkipSp();
  if (!item || !reader.AtEnd()) return std::nullopt;
  return item;
}

std::string Serialize(const BareItem& item) {
  struct Visitor {
    std::string operator()(std::int64_t value) const { return std::to_string(value); }
    std::string operator()(const std::string& value) const {
      std::string out = "\"";
      for (char c : value) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
      }
      return out + "\"";
    }
    std::string operator()(const Token& token) const { return token.text; }
    std::string operator()(const ByteSequence& bytes) const {
      return ":" + core::Base64Encode(bytes.bytes) + ":";
    }
    std::string operator()(bool value) const { return value ? "?1" : "?0"; }
  };
  return std::visit(Visitor{}, item);
}

std::string Serialize(const Parameters& parameters) {
  std::string out;
  for (const auto& [key, value] : parameters) {
    out += ";" + key;
    if (const bool* flag = std::get_if<bool>(&value); flag && *flag) continue;  // ;key means true
    out += "=" + Serialize(value);
  }
  return out;
}

std::string Serialize(const Item& item) { return Serialize(item.value) + Serialize(item.parameters); }

std::string Serialize(const InnerList& list) {
  std::string out = "(";
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    if (i) out.push_back(' ');
    out += Serialize(list.items[i]);
  }
  return out + ")" + Serialize(list.parameters);
}

}  // namespace sightline::detection::sf
