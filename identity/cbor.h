// A decoder for the CBOR (RFC 8949) that WebAuthn uses: attestation objects and COSE keys.
// Definite lengths only (CTAP2's canonical CBOR has no others), no tags, nesting bounded.
// Pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sightline::identity {

struct CborValue;
using CborArray = std::vector<CborValue>;
using CborMap = std::vector<std::pair<CborValue, CborValue>>;

struct CborValue {
  struct Bytes {
    std::string data;
  };
  // Integers as int64 (major types 0 and 1), byte and text strings, arrays, maps, booleans and
  // null. Arrays and maps are boxed so the variant stays small.
  std::variant<std::int64_t, Bytes, std::string, std::shared_ptr<CborArray>,
               std::shared_ptr<CborMap>, bool, std::nullptr_t>
      value;

  const std::int64_t* AsInt() const { return std::get_if<std::int64_t>(&value); }
  const std::string* AsBytes() const {
    const Bytes* bytes = std::get_if<Bytes>(&value);
    return bytes ? &bytes->data : nullptr;
  }
  const std::string* AsText() const { return std::get_if<std::string>(&value); }
  const CborMap* AsMap() const {
    const auto* map = std::get_if<std::shared_ptr<CborMap>>(&value);
    return map ? map->get() : nullptr;
  }
  // The value of a map entry keyed by `key` (text) or `number` (integer); null when absent.
  const CborValue* Find(std::string_view key) const;
  const CborValue* Find(std::int64_t number) const;
};

// Decodes one item from the front of `data`; `consumed` (when given) says how many bytes it
// took, so that what follows it (authenticator data's extensions) can be found.
std::optional<CborValue> DecodeCbor(std::string_view data, std::size_t* consumed = nullptr);

}  // namespace sightline::identity
