// A software WebAuthn authenticator for tests: CBOR encoding, an ES256 or Ed25519 key pair made
// with OpenSSL, and the authenticator data, attestation objects and signatures a real
// authenticator would produce. Header-only, so both the unit and the end-to-end tests use it.
#pragma once

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/crypto.h"

namespace sightline::testing {

inline constexpr std::int64_t kEs256 = -7;
inline constexpr std::int64_t kEdDsa = -8;
inline constexpr std::int64_t kRs256 = -257;
inline constexpr std::uint8_t kUserPresent = 0x01;
inline constexpr std::uint8_t kUserVerified = 0x04;
inline constexpr std::uint8_t kAttested = 0x40;

// CBOR encoding (RFC 8949), definite lengths.
inline std::string CborHead(int major, std::uint64_t n) {
  std::string out;
  if (n < 24) return std::string(1, static_cast<char>((major << 5) | n));
  int size = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x100000000ULL ? 4 : 8;
  out.push_back(static_cast<char>((major << 5) | (size == 1   ? 24
                                                  : size == 2 ? 25
                                                  : size == 4 ? 26
                                                              : 27)));
  for (int i = size - 1; i >= 0; --i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  return out;
}
inline std::string Int(std::int64_t v) { return v >= 0 ? CborHead(0, v) : CborHead(1, -1 - v); }
inline std::string Bytes(std::string_view b) { return CborHead(2, b.size()) + std::string(b); }
inline std::string Text(std::string_view t) { return CborHead(3, t.size()) + std::string(t); }
inline std::string Map(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = CborHead(5, entries.size());
  for (const auto& [k, v] : entries) out += k + v;
  return out;
}
inline std::string Array(const std::vector<std::string>& items) {
  std::string out = CborHead(4, items.size());
  for (const auto& item : items) out += item;
  return out;
}

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

// An authenticator's credential: its key pair and COSE public key.
struct Authenticator {
  Key key;
  std::int64_t alg;
  std::string cose;
  std::string credential_id = "cred-" + core::RandomBase62(8);

  static Authenticator Make(std::int64_t alg) {
    Authenticator a{Key(alg == kEs256   ? EVP_EC_gen("P-256")
                        : alg == kRs256 ? EVP_RSA_gen(2048)
                                        : EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519")),
                    alg, ""};
    if (alg == kRs256) {
      auto component = [&](const char* name) {
        BIGNUM* value = nullptr;
        EVP_PKEY_get_bn_param(a.key.get(), name, &value);
        std::string bytes(BN_num_bytes(value), '\0');
        BN_bn2bin(value, reinterpret_cast<unsigned char*>(bytes.data()));
        BN_free(value);
        return bytes;
      };
      a.cose = Map({{Int(1), Int(3)},
                    {Int(3), Int(-257)},
                    {Int(-1), Bytes(component("n"))},
                    {Int(-2), Bytes(component("e"))}});
    } else if (alg == kEdDsa) {
      unsigned char raw[32];
      size_t size = sizeof raw;
      EVP_PKEY_get_raw_public_key(a.key.get(), raw, &size);
      a.cose = Map({{Int(1), Int(1)},
                    {Int(3), Int(-8)},
                    {Int(-1), Int(6)},
                    {Int(-2), Bytes(std::string(reinterpret_cast<char*>(raw), size))}});
    } else {
      unsigned char* der = nullptr;
      const int size = i2d_PUBKEY(a.key.get(), &der);
      const std::string spki(reinterpret_cast<char*>(der), size);
      OPENSSL_free(der);
      const std::string point = spki.substr(spki.size() - 64);  // x || y after 0x04
      a.cose = Map({{Int(1), Int(2)},
                    {Int(3), Int(-7)},
                    {Int(-1), Int(1)},
                    {Int(-2), Bytes(point.substr(0, 32))},
                    {Int(-3), Bytes(point.substr(32))}});
    }
    return a;
  }
  std::string Sign(std::string_view data) const {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    EVP_DigestSignInit(ctx.get(), nullptr, alg != kEdDsa ? EVP_sha256() : nullptr, nullptr,
                       key.get());
    size_t size = 0;
    EVP_DigestSign(ctx.get(), nullptr, &size, reinterpret_cast<const unsigned char*>(data.data()),
                   data.size());
    std::string sig(size, '\0');
    EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &size,
                   reinterpret_cast<const unsigned char*>(data.data()), data.size());
    sig.resize(size);
    return sig;
  }
};

// The authenticator data: RP ID hash, flags, counter, and the attested credential when given.
inline std::string AuthenticatorDataFor(std::string_view rp_id, std::uint8_t flags,
                                        std::uint32_t count, const Authenticator* attested) {
  std::string data = core::Sha256(rp_id);
  data.push_back(static_cast<char>(flags));
  for (int i = 3; i >= 0; --i) data.push_back(static_cast<char>((count >> (8 * i)) & 0xFF));
  if (attested) {
    data += std::string(16, '\x11');  // AAGUID
    data.push_back(static_cast<char>(attested->credential_id.size() >> 8));
    data.push_back(static_cast<char>(attested->credential_id.size() & 0xFF));
    data += attested->credential_id + attested->cose;
  }
  return data;
}

inline std::string ClientDataJson(std::string_view type, std::string_view challenge,
                                  std::string_view origin) {
  return R"({"type":")" + std::string(type) + R"(","challenge":")" +
         core::Base64UrlEncode(challenge) + R"(","origin":")" + std::string(origin) +
         R"(","crossOrigin":false})";
}

// An attestation object in `format` ("none" or "packed" self attestation).
inline std::string AttestationObject(const Authenticator& a, std::string_view format,
                                     std::string_view rp_id, std::string_view client_data,
                                     std::uint8_t flags = kUserPresent | kUserVerified |
                                                          kAttested) {
  const std::string auth = AuthenticatorDataFor(rp_id, flags, 0, &a);
  std::string statement = Map({});
  if (format == "packed") {
    statement = Map({{Text("alg"), Int(a.alg)},
                     {Text("sig"), Bytes(a.Sign(auth + core::Sha256(client_data)))}});
  }
  return Map(
      {{Text("fmt"), Text(format)}, {Text("attStmt"), statement}, {Text("authData"), Bytes(auth)}});
}

}  // namespace sightline::testing
