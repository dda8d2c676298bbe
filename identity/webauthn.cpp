#include "identity/webauthn.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <memory>

#include "core/crypto.h"
#include "identity/cbor.h"

namespace sightline::identity {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

Error Refused(std::string why) { return Error(ErrorCode::kAuthBadPasskey, std::move(why)); }

struct KeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyDeleter>;

// SubjectPublicKeyInfo of a P-256 key, up to the uncompressed point (RFC 5480).
constexpr unsigned char kP256SpkiPrefix[] = {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48,
                                             0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
                                             0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04};

struct CoseKey {
  std::int64_t algorithm = 0;
  Key key;
};

// An RSA public key from its modulus and exponent (big-endian bytes).
Key RsaKey(const std::string& n, const std::string& e) {
  std::unique_ptr<OSSL_PARAM_BLD, decltype(&OSSL_PARAM_BLD_free)> build(OSSL_PARAM_BLD_new(),
                                                                        OSSL_PARAM_BLD_free);
  std::unique_ptr<BIGNUM, decltype(&BN_free)> modulus(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()),
                nullptr),
      BN_free);
  std::unique_ptr<BIGNUM, decltype(&BN_free)> exponent(
      BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()),
                nullptr),
      BN_free);
  if (!build || !modulus || !exponent ||
      OSSL_PARAM_BLD_push_BN(build.get(), "n", modulus.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(build.get(), "e", exponent.get()) != 1) {
    return nullptr;
  }
  std::unique_ptr<OSSL_PARAM, decltype(&OSSL_PARAM_free)> params(
      OSSL_PARAM_BLD_to_param(build.get()), OSSL_PARAM_free);
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> context(
      EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr), EVP_PKEY_CTX_free);
  EVP_PKEY* key = nullptr;
  if (!params || !context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
      EVP_PKEY_fromdata(context.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
    return nullptr;
  }
  return Key(key);
}

std::optional<CoseKey> ImportCoseKey(std::string_view cose) {
  const auto map = DecodeCbor(cose);
  if (!map || !map->AsMap()) return std::nullopt;
  const CborValue* kty = map->Find(1);
  const CborValue* alg = map->Find(3);
  const CborValue* first = map->Find(-1);   // EC2/OKP: the curve; RSA: the modulus n
  const CborValue* second = map->Find(-2);  // EC2/OKP: x; RSA: the exponent e
  if (!kty || !alg || !first || !second || !kty->AsInt() || !alg->AsInt() ||
      !second->AsBytes()) {
    return std::nullopt;
  }
  CoseKey out;
  out.algorithm = *alg->AsInt();
  const std::string& x = *second->AsBytes();
  const std::int64_t curve = first->AsInt() ? *first->AsInt() : 0;
  if (*kty->AsInt() == 2 && out.algorithm == kCoseEs256 && curve == 1) {  // EC2, P-256
    const CborValue* y = map->Find(-3);
    if (!y || !y->AsBytes() || x.size() != 32 || y->AsBytes()->size() != 32) return std::nullopt;
    std::string der(reinterpret_cast<const char*>(kP256SpkiPrefix), sizeof kP256SpkiPrefix);
    der += x + *y->AsBytes();
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    out.key.reset(d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size())));
  } else if (*kty->AsInt() == 1 && out.algorithm == kCoseEdDsa && curve == 6 &&
             x.size() == 32) {  // OKP, Ed25519
    out.key.reset(EVP_PKEY_new_raw_public_key(
        EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(x.data()), 32));
  } else if (*kty->AsInt() == 3 && out.algorithm == kCoseRs256 && first->AsBytes() &&
             first->AsBytes()->size() >= 256 && first->AsBytes()->size() <= 512) {
    out.key = RsaKey(*first->AsBytes(), x);  // RSA of 2048 to 4096 bits (Windows Hello)
  }
  if (!out.key) return std::nullopt;
  return out;
}

bool Verify(EVP_PKEY* key, bool digest_sha256, std::string_view data, std::string_view signature) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                  EVP_MD_CTX_free);
  if (!context || EVP_DigestVerifyInit(context.get(), nullptr,
                                       digest_sha256 ? EVP_sha256() : nullptr, nullptr, key) != 1) {
    return false;
  }
  return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(), reinterpret_cast<const unsigned char*>(data.data()),
                          data.size()) == 1;
}

// The clientDataJSON checks both ceremonies share.
Result<void> CheckClientData(const WebAuthnExpectation& expected, std::string_view json,
                             std::string_view type) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(json, ec);
  if (ec || !parsed.is_object()) return Refused("clientDataJSON is not a JSON object.");
  const auto& client = parsed.as_object();
  auto text = [&](std::string_view key) -> std::string {
    const boost::json::value* v = client.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  if (text("type") != type) return Refused("clientDataJSON is not for " + std::string(type) + ".");
  const auto challenge = core::Base64UrlDecode(text("challenge"));
  if (!challenge || !core::ConstantTimeEquals(*challenge, expected.challenge)) {
    return Refused("The challenge is not the one this server issued.");
  }
  if (std::find(expected.origins.begin(), expected.origins.end(), text("origin")) ==
      expected.origins.end()) {
    return Refused("The origin " + text("origin") + " is not this server's.");
  }
  if (const boost::json::value* cross = client.if_contains("crossOrigin");
      cross && cross->is_bool() && cross->as_bool()) {
    return Refused("Cross-origin ceremonies are not accepted.");
  }
  return {};
}

Result<void> CheckAuthenticatorFlags(const WebAuthnExpectation& expected,
                                     const AuthenticatorData& data) {
  if (!core::ConstantTimeEquals(data.rp_id_hash, core::Sha256(expected.rp_id))) {
    return Refused("The passkey belongs to another site (RP ID).");
  }
  if (!(data.flags & kFlagUserPresent)) return Refused("The user was not present.");
  if (expected.require_user_verification && !(data.flags & kFlagUserVerified)) {
    return Refused("The authenticator did not verify the user (PIN or biometrics).");
  }
  return {};
}

// `packed` (WebAuthn §8.2): self attestation signs with the credential's own key; with a
// certificate (x5c), with the certificate's key. No trust chain is checked: the server asks for
// no attestation and only proves the statement consistent.
Result<void> CheckPacked(const CborValue& statement, std::int64_t credential_alg,
                         std::string_view credential_key, std::string_view signed_data) {
  const CborValue* alg = statement.Find("alg");
  const CborValue* sig = statement.Find("sig");
  if (!alg || !alg->AsInt() || !sig || !sig->AsBytes()) {
    return Refused("A packed attestation needs alg and sig.");
  }
  const CborValue* x5c = statement.Find("x5c");
  if (!x5c) {
    if (*alg->AsInt() != credential_alg) return Refused("Self attestation with another algorithm.");
    if (!VerifyCoseSignature(credential_key, signed_data, *sig->AsBytes())) {
      return Refused("The self attestation's signature does not verify.");
    }
    return {};
  }
  const auto* chain = std::get_if<std::shared_ptr<CborArray>>(&x5c->value);
  if (!chain || !*chain || (*chain)->empty() || !(*chain)->front().AsBytes()) {
    return Refused("The attestation certificate is missing.");
  }
  const std::string& der = *(*chain)->front().AsBytes();
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  std::unique_ptr<X509, decltype(&X509_free)> certificate(
      d2i_X509(nullptr, &p, static_cast<long>(der.size())), X509_free);
  if (!certificate) return Refused("The attestation certificate does not parse.");
  Key key(X509_get_pubkey(certificate.get()));
  if (!key || !Verify(key.get(), *alg->AsInt() != kCoseEdDsa, signed_data, *sig->AsBytes())) {
    return Refused("The attestation signature does not verify.");
  }
  return {};
}

}  // namespace

std::optional<AuthenticatorData> ParseAuthenticatorData(std::string_view bytes) {
  if (bytes.size() < 37) return std::nullopt;
  AuthenticatorData data;
  data.rp_id_hash = std::string(bytes.substr(0, 32));
  data.flags = static_cast<std::uint8_t>(bytes[32]);
  for (int i = 33; i < 37; ++i) {
    data.sign_count = (data.sign_count << 8) | static_cast<unsigned char>(bytes[i]);
  }
  if (!(data.flags & kFlagAttestedCredential)) return data;
  if (bytes.size() < 55) return std::nullopt;
  data.aaguid = std::string(bytes.substr(37, 16));
  const std::size_t id_length =
      (static_cast<std::size_t>(static_cast<unsigned char>(bytes[53])) << 8) |
      static_cast<unsigned char>(bytes[54]);
  if (id_length == 0 || id_length > 1023 || 55 + id_length >= bytes.size()) return std::nullopt;
  data.credential_id = std::string(bytes.substr(55, id_length));
  std::size_t key_size = 0;
  if (!DecodeCbor(bytes.substr(55 + id_length), &key_size)) return std::nullopt;
  data.public_key = std::string(bytes.substr(55 + id_length, key_size));
  return data;
}

std::optional<std::int64_t> CoseAlgorithm(std::string_view cose_key) {
  auto key = ImportCoseKey(cose_key);
  if (!key) return std::nullopt;
  return key->algorithm;
}

bool VerifyCoseSignature(std::string_view cose_key, std::string_view data,
                         std::string_view signature) {
  auto key = ImportCoseKey(cose_key);
  if (!key) return false;
  return Verify(key->key.get(), key->algorithm != kCoseEdDsa, data, signature);
}

Result<RegisteredCredential> VerifyRegistration(const WebAuthnExpectation& expected,
                                                std::string_view client_data_json,
                                                std::string_view attestation_object) {
  auto client = CheckClientData(expected, client_data_json, "webauthn.create");
  if (!client) return client.error();
  const auto attestation = DecodeCbor(attestation_object);
  const CborValue* format = attestation ? attestation->Find("fmt") : nullptr;
  const CborValue* statement = attestation ? attestation->Find("attStmt") : nullptr;
  const CborValue* auth_data = attestation ? attestation->Find("authData") : nullptr;
  if (!format || !format->AsText() || !statement || !statement->AsMap() || !auth_data ||
      !auth_data->AsBytes()) {
    return Refused("The attestation object is malformed.");
  }
  const auto data = ParseAuthenticatorData(*auth_data->AsBytes());
  if (!data || !(data->flags & kFlagAttestedCredential)) {
    return Refused("The authenticator data carries no credential.");
  }
  auto flags = CheckAuthenticatorFlags(expected, *data);
  if (!flags) return flags.error();
  const auto algorithm = CoseAlgorithm(data->public_key);
  if (!algorithm) return Refused("The key type is not supported (ES256 or Ed25519 only).");
  const std::string signed_data = *auth_data->AsBytes() + core::Sha256(client_data_json);
  if (*format->AsText() == "packed") {
    auto packed = CheckPacked(*statement, *algorithm, data->public_key, signed_data);
    if (!packed) return packed.error();
  } else if (*format->AsText() != "none" || !statement->AsMap()->empty()) {
    return Refused("The attestation format " + *format->AsText() + " is not supported.");
  }
  return RegisteredCredential{data->credential_id, data->public_key, *algorithm,
                              data->sign_count,    data->aaguid,     *format->AsText()};
}

Result<std::uint32_t> VerifyAssertion(const WebAuthnExpectation& expected,
                                      std::string_view public_key, std::uint32_t stored_count,
                                      std::string_view client_data_json,
                                      std::string_view authenticator_data,
                                      std::string_view signature) {
  auto client = CheckClientData(expected, client_data_json, "webauthn.get");
  if (!client) return client.error();
  const auto data = ParseAuthenticatorData(authenticator_data);
  if (!data) return Refused("The authenticator data is malformed.");
  auto flags = CheckAuthenticatorFlags(expected, *data);
  if (!flags) return flags.error();
  const std::string signed_data = std::string(authenticator_data) + core::Sha256(client_data_json);
  if (!VerifyCoseSignature(public_key, signed_data, signature)) {
    return Refused("The signature does not verify.");
  }
  // A counter that does not grow means a copy of the authenticator (synced passkeys report 0).
  if ((data->sign_count != 0 || stored_count != 0) && data->sign_count <= stored_count) {
    return Refused("The signature counter went backwards: the authenticator may be cloned.");
  }
  return data->sign_count;
}

}  // namespace sightline::identity
