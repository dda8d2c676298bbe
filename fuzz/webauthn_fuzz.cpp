// WebAuthn ceremonies: a registration's clientDataJSON and attestation object, an assertion's
// clientDataJSON, authenticator data and signature against a stored COSE key, and the
// authenticator data and COSE keys alone. The challenge is fixed ("fuzz"), so the fuzzer can
// find it and get past the client data.
#include "fuzz/fuzz_check.h"
#include "identity/webauthn.h"

using namespace sightline::identity;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  WebAuthnExpectation expected;
  expected.challenge = "fuzz";
  expected.rp_id = "example.com";
  expected.origins = {"https://example.com"};
  expected.require_user_verification = input.ConsumeBool();
  const std::string client_data = input.ConsumeRandomLengthString(512);
  if (input.ConsumeBool()) {
    const std::string attestation = input.ConsumeRemainingBytesAsString();
    (void)ParseAuthenticatorData(attestation);
    (void)CoseAlgorithm(attestation);
    auto registered = VerifyRegistration(expected, client_data, attestation);
    if (registered) {
      sightline::fuzz::Check(CoseAlgorithm(registered->public_key).has_value(),
                             "a registered key has a supported algorithm");
    }
    return 0;
  }
  const auto stored_count = input.ConsumeIntegral<std::uint32_t>();
  const std::string public_key = input.ConsumeRandomLengthString(256);
  const std::string authenticator_data = input.ConsumeRandomLengthString(256);
  const std::string signature = input.ConsumeRemainingBytesAsString();
  (void)VerifyAssertion(expected, public_key, stored_count, client_data, authenticator_data,
                        signature);
  return 0;
}
