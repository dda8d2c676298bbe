// RFC 8941 structured fields (Signature-Input, Signature). Serialization is canonical, so what
// one parse serializes to must parse again to the same serialization: the @signature-params
// line a verifier rebuilds depends on it.
#include "detection/structured_fields.h"
#include "fuzz/fuzz_check.h"

#include <string_view>
#include <variant>

namespace sf = sightline::detection::sf;
using sightline::fuzz::Check;

namespace {

void CheckItemRoundTrip(const sf::Item& item) {
  const std::string once = sf::Serialize(item);
  const auto again = sf::ParseItem(once);
  Check(again.has_value(), "a serialized item parses");
  Check(sf::Serialize(*again) == once, "a serialized item serializes the same");
}

void CheckInnerListRoundTrip(const sf::InnerList& list) {
  const std::string once = sf::Serialize(list);
  const auto again = sf::ParseDictionary("a=" + once);
  Check(again.has_value() && again->size() == 1, "a serialized inner list parses");
  const auto* reparsed = std::get_if<sf::InnerList>(&again->front().second);
  Check(reparsed && sf::Serialize(*reparsed) == once, "an inner list serializes the same");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view field(reinterpret_cast<const char*>(data), size);
  if (const auto item = sf::ParseItem(field)) CheckItemRoundTrip(*item);
  if (const auto dictionary = sf::ParseDictionary(field)) {
    for (const auto& [key, member] : *dictionary) {
      if (const auto* item = std::get_if<sf::Item>(&member)) CheckItemRoundTrip(*item);
      if (const auto* list = std::get_if<sf::InnerList>(&member)) CheckInnerListRoundTrip(*list);
    }
  }
  return 0;
}
