// HTTP Message Signatures (RFC 9421) as Web Bot Auth uses them: a forwarded request's
// Signature, Signature-Input and Signature-Agent headers, and the signature base rebuilt from
// them.
#include "detection/http_signature.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string method = input.ConsumeRandomLengthString(8);
  const std::string authority = input.ConsumeRandomLengthString(64);
  const std::string target = input.ConsumeRandomLengthString(128);
  const std::string signature = input.ConsumeRandomLengthString(256);
  const std::string agent = input.ConsumeRandomLengthString(128);
  const std::string label = input.ConsumeRandomLengthString(16);
  const std::string signature_input = input.ConsumeRemainingBytesAsString();
  sightline::detection::SignedRequest request;
  request.method = method;
  request.authority = authority;
  request.target = target;
  request.signature = signature;
  request.signature_input = signature_input;
  request.signature_agent = agent;
  sightline::detection::ParseWebBotAuth(request);
  (void)sightline::detection::SignatureBase(request, label);
  sightline::detection::UrlOrigin(agent);
  return 0;
}
