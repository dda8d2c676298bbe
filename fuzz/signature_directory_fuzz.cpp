// A Web Bot Auth key directory (a JWKS fetched from the Signature-Agent's origin).
#include "detection/signature_directory.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view document(reinterpret_cast<const char*>(data), size);
  (void)sightline::detection::ParseSignatureDirectory(document);
  return 0;
}
