// The subset of RFC 8941 Structured Field Values that HTTP Message Signatures (RFC 9421) use:
// dictionaries whose members are items or inner lists, with parameters. Parsing is strict (a
// malformed field is refused whole, as RFC 8941 §4.2 requires) and serialization is canonical,
// so the `@signature-params` line can be rebuilt byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sightline::detection::sf {

struct Token {
  std::string text;
  bool operator==(const Token&) const = default;
};
struct ByteSequence {
  std::string bytes;
  bool operator==(const ByteSequence&) const = default;
};
using BareItem = std::variant<std::int64_t, std::string, Token, ByteSequence, bool>;
using Parameters = std::vector<std::pair<std::string, BareItem>>;

struct Item {
  BareItem value;
  Parameters parameters;
  const BareItem* Parameter(std::string_view key) const;
};
struct InnerList {
  std::vector<Item> items;
  Parameters parameters;
  const BareItem* Parameter(std::string_view key) const;
};
using Member = std::variant<Item, InnerList>;
using Dictionary = std::vector<std::pair<std::string, Member>>;  // in field order

std::optional<Dictionary> ParseDictionary(std::string_view field);
std::optional<Item> ParseItem(std::string_view field);

std::string Serialize(const BareItem& item);
std::string Serialize(const Parameters& parameters);
std::string Serialize(const Item& item);
std::string Serialize(const InnerList& list);

}  // namespace sightline::detection::sf
