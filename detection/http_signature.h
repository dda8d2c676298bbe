// Web Bot Auth: RFC 9421 HTTP Message Signatures with Ed25519, in the profile of
// draft-ietf-webbotauth-httpsig-protocol — a signature tagged "web-bot-auth", valid between its
// `created` and `expires` (bounded clock skew), whose `keyid` is the RFC 7638 JWK thumbprint of
// a key the signer publishes in its `/.well-known/http-message-signatures-directory`, covering
// at least `@authority` and, when present, `signature-agent`. Pure functions; thread-safe.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY, kept out of this header

namespace sightline::detection {

// What a verifier knows of the forwarded request.
struct SignedRequest {
  std::string_view method;     // "GET"
  std::string_view authority;  // the Host, e.g. "example.com" or "example.com:8443"
  std::string_view target;     // path and query, e.g. "/docs?page=2"
  std::string_view signature, signature_input, signature_agent;  // header values as sent
};

// The Web Bot Auth signature found on a request, parsed.
struct WebBotAuthSignature {
  std::string label;       // the dictionary key, e.g. "sig1"
  std::string keyid;       // JWK thumbprint (base64url)
  std::int64_t created = 0, expires = 0;
  std::string signature;   // raw signature bytes
  std::string base;        // the RFC 9421 signature base these bytes sign
  std::string agent;       // Signature-Agent URL ("" when the request names none)
};

struct SignatureParse {
  enum class Status {
    kNone,         // no signature on the request
    kParsed,       // `signature` holds a usable Web Bot Auth signature
    kMalformed,    // unparseable fields, no member tagged web-bot-auth, a required parameter or
                   // component missing, a non-Ed25519 algorithm: the claim cannot be honoured
    kUnsupported,  // covers a component the forwarded request does not carry (a header other
                   // than Signature-Agent): it may be genuine, it just cannot be checked here
  };
  Status status = Status::kNone;
  WebBotAuthSignature signature;
  std::string problem;  // why, for kMalformed and kUnsupported
};

SignatureParse ParseWebBotAuth(const SignedRequest& request);

// The RFC 9421 signature base of the Signature-Input member `label` over `request`. SYS_002
// (kUnavailable) when it covers a component the request does not carry; VAL_003 otherwise.
core::Result<std::string> SignatureBase(const SignedRequest& request, std::string_view label);

// An Ed25519 public key imported once (decoding the point is a good part of a verification's
// cost), then shared: OpenSSL's key object is immutable, so one key verifies on many threads.
class Ed25519PublicKey {
 public:
  // From the raw 32 bytes; nullopt when they are not a key.
  static std::optional<Ed25519PublicKey> FromRaw(std::string_view raw);
  // RFC 8032 verification of a 64-byte signature over `message`.
  bool Verify(std::string_view message, std::string_view signature) const;

 private:
  std::shared_ptr<evp_pkey_st> key_;
};

// Ed25519 (RFC 8032) verification with a raw 32-byte public key (imports it for this call).
bool VerifyEd25519(std::string_view public_key, std::string_view message,
                   std::string_view signature);

// RFC 7638 thumbprint (base64url SHA-256) of the Ed25519 JWK whose `x` is `x_base64url`.
std::string Ed25519JwkThumbprint(std::string_view x_base64url);

// The origin ("https://host[:port]") of a Signature-Agent URL, or nullopt when it is not an
// absolute http(s) URL.
std::optional<std::string> UrlOrigin(std::string_view url);

}  // namespace sightline::detection
