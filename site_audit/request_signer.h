// Web Bot Auth signing for ServiceAuditBot, this installation's site-audit crawler: RFC 9421
// HTTP Message Signatures with Ed25519 in the profile detection/http_signature.h verifies — tag
// "web-bot-auth", keyid = the RFC 7638 JWK thumbprint, created/expires, a fresh nonce, covering
// `@authority` and `signature-agent` — plus the key directory the installation publishes at
// `<agent origin>/.well-known/http-message-signatures-directory` and the signatures that bind
// that directory response to its keys.
//
// Key generation and the free functions are pure apart from the OS CSPRNG; RequestSigner is
// immutable after construction, so one instance signs on many threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY, kept out of this header

namespace sightline::site_audit {

struct CrawlerKeyPair {
  std::string key_id;        // RFC 7638 JWK thumbprint (base64url), the signatures' keyid
  std::string private_seed;  // 32 raw bytes (RFC 8032 private key); keep secret
  std::string public_key;    // 32 raw bytes
};

// A new key pair from the OS CSPRNG.
CrawlerKeyPair GenerateCrawlerKeyPair();
// The key pair of a stored 32-byte seed; nullopt when `seed` is not 32 bytes.
std::optional<CrawlerKeyPair> CrawlerKeyPairFromSeed(std::string_view seed);
// RFC 8032 Ed25519 signature (64 raw bytes) of `message` under a 32-byte seed; deterministic.
// REQUIRES: private_seed is 32 bytes (std::invalid_argument otherwise).
std::string SignEd25519(std::string_view private_seed, std::string_view message);
// The public JWK, serialized: {"kty":"OKP","crv":"Ed25519","x":"<base64url>"}.
// REQUIRES: public_key is 32 raw bytes.
std::string PublicJwk(std::string_view public_key);

struct SignatureHeaders {
  std::string signature_agent;  // empty for a directory response
  std::string signature_input;
  std::string signature;
};

// How the Signature-Agent header names the agent.
enum class SignatureAgentForm {
  // `"https://origin"` (an sf-string), covered as "signature-agent": the form of
  // web-bot-auth-architecture -00…-03, which Cloudflare's documentation still describes, npm
  // web-bot-auth 0.1.3 verifies and detection accepts.
  kString,
  // `sig1="https://origin"` (a dictionary), covered as "signature-agent";key="sig1": what the
  // current drafts require signers to send. npm web-bot-auth 0.1.3 signs and verifies the whole
  // field instead of the member, so it rejects these signatures.
  kDictionary,
};

struct RequestSignerOptions {
  std::int64_t validity_seconds = 300;  // expires = created + this
  SignatureAgentForm agent_form = SignatureAgentForm::kString;
  // Also cover "@method" and "@path", so a signature cannot be replayed against another path of
  // the same host. Off by default: a site that forwards its logs to a verifier without the exact
  // path (a log drain that decodes or drops it) would then see the crawler as spoofed.
  bool cover_method_and_path = false;
};

class RequestSigner {
 public:
  // `agent_url`: where verifiers find the key, e.g. "https://sightline.example.com" (the origin
  // whose /.well-known/http-message-signatures-directory lists it); sent as the Signature-Agent.
  // REQUIRES: `key` came from GenerateCrawlerKeyPair or CrawlerKeyPairFromSeed; `agent_url` is
  // an absolute http(s) URL of printable ASCII; validity_seconds > 0. Throws
  // std::invalid_argument otherwise (a configuration bug).
  RequestSigner(CrawlerKeyPair key, std::string agent_url, std::int64_t validity_seconds = 300);
  RequestSigner(CrawlerKeyPair key, std::string agent_url, RequestSignerOptions options);

  // The headers to add to the request `method authority target`, signed at `now_seconds`.
  // `authority` is the Host header exactly as sent (host[:port], without a default port: some
  // verifiers drop it, detection keeps it); `target` the path and query. Each call draws a new
  // nonce, so two signatures of one request differ.
  SignatureHeaders Sign(std::string_view method, std::string_view authority,
                        std::string_view target, std::int64_t now_seconds) const;

  const std::string& key_id() const { return key_id_; }
  const std::string& agent_url() const { return agent_url_; }

 private:
  std::string key_id_;
  std::string agent_url_;
  std::string signature_agent_;  // the header value, formatted once
  RequestSignerOptions options_;
  std::shared_ptr<evp_pkey_st> key_;  // OpenSSL keys are safe to share read-only across threads
};

inline constexpr std::string_view kSignatureDirectoryMediaType =
    "application/http-message-signatures-directory+json";

// The key directory document, {"keys":[JWK,...]}, for the current and still-published previous
// public keys (32 raw bytes each, in order, duplicates dropped). Each JWK also carries
// "kid" (its thumbprint, as the drafts require at the well-known URI) and "use":"sig".
// REQUIRES: every key is 32 bytes.
std::string SignatureDirectoryDocument(const std::vector<std::string>& public_keys);

// How long a directory response's signatures stay valid. A response served with
// Cache-Control max-age must not outlive its signatures: keep max-age at or below this.
inline constexpr std::int64_t kDirectoryResponseValiditySeconds = 24 * 60 * 60;

// Signature and Signature-Input for the directory response served at `authority` (the Host the
// request named): each key signs ("@authority";req) with tag "http-message-signatures-directory",
// as labels binding0, binding1, … (the form of draft-meunier-http-message-signatures-directory
// and npm http-message-sig's directoryResponseHeaders). Keys with a key_id seen before are
// skipped. REQUIRES: each key as for RequestSigner.
SignatureHeaders SignDirectoryResponse(const std::vector<CrawlerKeyPair>& keys,
                                       std::string_view authority, std::int64_t now_seconds);

}  // namespace sightline::site_audit
