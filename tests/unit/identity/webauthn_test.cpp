// WebAuthn verification against credentials made here with OpenSSL, as an authenticator would:
// registration with `none` and `packed` self attestation for ES256 and Ed25519 keys, sign-in
// assertions, and each check refusing what it must (challenge, origin, RP ID, user
// verification, signature, counter, attestation format).
#include "identity/webauthn.h"

#include <gtest/gtest.h>

#include "core/crypto.h"
#include "identity/cbor.h"
#include "tests/support/software_authenticator.h"

namespace sightline::identity {
namespace {

using testing::Array;
using testing::Authenticator;
using testing::Bytes;
using testing::Int;
using testing::Map;
using testing::Text;

const WebAuthnExpectation kExpected{"challenge-bytes-0123456789abcdef",
                                    "analytics.example.com",
                                    {"https://analytics.example.com"},
                                    true};

std::string ClientData(std::string_view type, std::string_view challenge = kExpected.challenge,
                       std::string_view origin = "https://analytics.example.com") {
  return testing::ClientDataJson(type, challenge, origin);
}

std::string AuthData(std::uint8_t flags, std::uint32_t count, const Authenticator* attested,
                     std::string_view rp_id = kExpected.rp_id) {
  return testing::AuthenticatorDataFor(rp_id, flags, count, attested);
}

constexpr std::uint8_t kUpUv = kFlagUserPresent | kFlagUserVerified;

std::string Attestation(const Authenticator& a, std::string_view format, std::string_view client,
                        std::uint8_t flags = kUpUv | kFlagAttestedCredential) {
  return testing::AttestationObject(a, format, kExpected.rp_id, client, flags);
}

TEST(Cbor, DecodesMapsIntegersStringsAndRefusesTruncation) {
  const std::string encoded =
      Map({{Text("a"), Int(-300)}, {Int(1), Array({Bytes("xy"), Int(70000)})}});
  const auto value = DecodeCbor(encoded);
  ASSERT_TRUE(value);
  EXPECT_EQ(*value->Find("a")->AsInt(), -300);
  EXPECT_TRUE(value->Find(1));
  for (std::size_t cut = 0; cut < encoded.size(); ++cut) {
    EXPECT_FALSE(DecodeCbor(encoded.substr(0, cut))) << cut;
  }
  EXPECT_FALSE(DecodeCbor("\x9f\xff"));  // indefinite length
}

TEST(WebAuthn, RegistersNoneAndPackedSelfAttestationForEs256Ed25519AndRs256) {
  for (const std::int64_t alg : {kCoseEs256, kCoseEdDsa, kCoseRs256}) {
    for (const std::string format : {"none", "packed"}) {
      SCOPED_TRACE(std::to_string(alg) + " " + format);
      const Authenticator a = Authenticator::Make(alg);
      const std::string client = ClientData("webauthn.create");
      auto registered = VerifyRegistration(kExpected, client, Attestation(a, format, client));
      ASSERT_TRUE(registered) << registered.error().message();
      EXPECT_EQ(registered->credential_id, a.credential_id);
      EXPECT_EQ(registered->algorithm, alg);
      EXPECT_EQ(registered->attestation_format, format);
      EXPECT_EQ(registered->aaguid, std::string(16, '\x11'));
      // And signs in.
      const std::string get = ClientData("webauthn.get");
      const std::string auth = AuthData(kUpUv, 5, nullptr);
      auto count = VerifyAssertion(kExpected, registered->public_key, 0, get, auth,
                                   a.Sign(auth + core::Sha256(get)));
      ASSERT_TRUE(count) << count.error().message();
      EXPECT_EQ(*count, 5u);
    }
  }
}

TEST(WebAuthn, RegistrationRefusesWhatDoesNotMatch) {
  const Authenticator a = Authenticator::Make(kCoseEs256);
  const std::string client = ClientData("webauthn.create");
  auto refused = [&](std::string_view client_data, const std::string& attestation) {
    auto result = VerifyRegistration(kExpected, client_data, attestation);
    return !result && result.error().code() == core::ErrorCode::kAuthBadPasskey;
  };
  EXPECT_TRUE(
      refused(ClientData("webauthn.create", "another challenge"), Attestation(a, "none", client)));
  EXPECT_TRUE(refused(ClientData("webauthn.create", kExpected.challenge, "https://evil.example"),
                      Attestation(a, "none", client)));
  EXPECT_TRUE(refused(ClientData("webauthn.get"), Attestation(a, "none", client)));
  EXPECT_TRUE(refused(client, Attestation(a, "fido-u2f", client)));
  EXPECT_TRUE(
      refused(client, Attestation(a, "none", client, kFlagUserPresent | kFlagAttestedCredential)))
      << "no user verification";
  // Self attestation signed over another clientDataJSON.
  EXPECT_TRUE(refused(client, Attestation(a, "packed", ClientData("webauthn.create", "x"))));
  // Another site's RP ID.
  const std::string foreign = AuthData(kUpUv | kFlagAttestedCredential, 0, &a, "evil.example");
  EXPECT_TRUE(refused(client, Map({{Text("fmt"), Text("none")},
                                   {Text("attStmt"), Map({})},
                                   {Text("authData"), Bytes(foreign)}})));
  EXPECT_TRUE(refused(client, "not cbor"));
}

TEST(WebAuthn, AssertionsNeedTheRightSignatureAndAGrowingCounter) {
  const Authenticator a = Authenticator::Make(kCoseEdDsa);
  const Authenticator other = Authenticator::Make(kCoseEdDsa);
  const std::string get = ClientData("webauthn.get");
  const std::string auth = AuthData(kUpUv, 7, nullptr);
  const std::string good = a.Sign(auth + core::Sha256(get));
  EXPECT_TRUE(VerifyAssertion(kExpected, a.cose, 6, get, auth, good));
  EXPECT_FALSE(VerifyAssertion(kExpected, a.cose, 7, get, auth, good)) << "counter did not grow";
  EXPECT_FALSE(VerifyAssertion(kExpected, other.cose, 0, get, auth, good)) << "another key";
  EXPECT_FALSE(VerifyAssertion(kExpected, a.cose, 0, ClientData("webauthn.get", "old"), auth,
                               a.Sign(auth + core::Sha256(ClientData("webauthn.get", "old")))));
  const std::string unverified = AuthData(kFlagUserPresent, 8, nullptr);
  EXPECT_FALSE(VerifyAssertion(kExpected, a.cose, 0, get, unverified,
                               a.Sign(unverified + core::Sha256(get))));
  // Synced passkeys report 0 every time: accepted while the stored counter is 0 too.
  const std::string zero = AuthData(kUpUv, 0, nullptr);
  EXPECT_TRUE(VerifyAssertion(kExpected, a.cose, 0, get, zero, a.Sign(zero + core::Sha256(get))));
}

}  // namespace
}  // namespace sightline::identity
