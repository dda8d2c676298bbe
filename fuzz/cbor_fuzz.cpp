// CBOR (RFC 8949) as WebAuthn sends it: attestation objects and COSE keys.
#include "fuzz/fuzz_check.h"
#include "identity/cbor.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::size_t consumed = 0;
  const auto value = sightline::identity::DecodeCbor(bytes, &consumed);
  if (!value) return 0;
  sightline::fuzz::Check(consumed > 0 && consumed <= size, "an item consumes what it read");
  (void)value->Find("fmt");
  (void)value->Find(3);
  return 0;
}
