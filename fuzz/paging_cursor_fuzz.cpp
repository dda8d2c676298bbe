// Paging cursors come back from outside (`cursor` of every list, an SSE Last-Event-ID): the
// codec must refuse anything it did not write without crashing, and what it writes must read
// back as the same key. Most random bytes fail the check bytes, so the target also seals a
// fuzzed payload with valid check bytes (as the codec does), and the parser behind the check is
// fuzzed too.
#include "core/crypto.h"
#include "fuzz/fuzz_check.h"
#include "tools/paging.h"

#include <boost/json/serialize.hpp>

namespace paging = sightline::tools;
using sightline::fuzz::Check;

namespace {

constexpr std::string_view kList = "list_fuzzed";

// Decoding, and when it succeeds, the key fits the shape and encodes to a cursor that decodes
// to the same key.
void DecodeAndRoundTrip(std::string_view shape, std::string_view cursor) {
  const auto key = paging::DecodeCursor(kList, shape, cursor);
  if (!key) return;
  Check(key->size() == shape.size(), "a decoded key has the shape's length");
  const auto again = paging::DecodeCursor(kList, shape, paging::EncodeCursor(kList, *key));
  Check(again && *again == *key, "a decoded key round-trips");
  Check(!paging::DecodeCursor("list_other", shape, cursor), "a cursor works in its list only");
}

paging::PageKey KeyOf(FuzzedDataProvider& input, std::string_view shape) {
  paging::PageKey key;
  for (char kind : shape) {
    if (kind == 'i') key.emplace_back(input.ConsumeIntegral<std::int64_t>());
    else key.emplace_back(input.ConsumeRandomLengthString(64));
  }
  return key;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  static constexpr std::string_view kShapes[] = {"is", "s", "iis", "sis", "i"};
  const std::string_view shape = kShapes[input.ConsumeIntegralInRange<std::size_t>(0, 4)];
  switch (input.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:  // a cursor as a client may send anything
      DecodeAndRoundTrip(shape, input.ConsumeRemainingBytesAsString());
      break;
    case 1: {  // a payload behind valid check bytes: the parser after the check
      const std::string payload = "1\n" + std::string(kList) + "\n" +
                                  input.ConsumeRemainingBytesAsString();
      const std::string sealed = sightline::core::Sha256(payload).substr(0, 6) + payload;
      DecodeAndRoundTrip(shape, sightline::core::Base64UrlEncode(sealed));
      break;
    }
    default: {  // any key the lists may write
      const paging::PageKey key = KeyOf(input, shape);
      const auto decoded = paging::DecodeCursor(kList, shape, paging::EncodeCursor(kList, key));
      Check(decoded && *decoded == key, "every key of the shape round-trips");
      break;
    }
  }
  return 0;
}
