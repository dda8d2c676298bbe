#include "site_audit/request_signer.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "detection/http_signature.h"
#include "detection/structured_fields.h"

#include <openssl/evp.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace sightline::site_audit {
namespace {

namespace sf = detection::sf;

constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kSignatureBytes = 64;
// 64 random bytes, standard base64: what the drafts recommend and every published vector and
// Cloudflare's signer send.
constexpr std::size_t kNonceBytes = 64;
// The request's one signature. web-bot-auth 0.1.3 refuses fields holding more than one.
constexpr std::string_view kLabel = "sig1";

std::shared_ptr<evp_pkey_st> ImportSeed(std::string_view seed) {
  if (seed.size() != kKeyBytes) return nullptr;
  EVP_PKEY* key = EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(seed.data()), kKeyBytes);
  if (key == nullptr) return nullptr;
  return std::shared_ptr<evp_pkey_st>(key, EVP_PKEY_free);
}

// RFC 8032 Ed25519: deterministic, so the same key and message always give the same bytes.
std::string SignWith(evp_pkey_st* key, std::string_view message) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                  EVP_MD_CTX_free);
  std::string signature(kSignatureBytes, '\0');
  std::size_t length = signature.size();
  if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key) != 1 ||
      EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      length != kSignatureBytes) {
    throw std::runtime_error("Ed25519 signing failed");  // only an allocation failure gets here
  }
  return signature;
}

// The imported key of `key`, checked against the public half and thumbprint it claims, so a
// pair assembled by hand from mismatched parts fails at startup rather than at every verifier.
std::shared_ptr<evp_pkey_st> ImportKeyPair(const CrawlerKeyPair& key) {
  const auto derived = CrawlerKeyPairFromSeed(key.private_seed);
  if (!derived || derived->public_key != key.public_key || derived->key_id != key.key_id) {
    throw std::invalid_argument("The crawler key pair is not a valid Ed25519 key pair.");
  }
  return ImportSeed(key.private_seed);
}

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

std::string SignatureAgentHeader(SignatureAgentForm form, const std::string& url) {
  const std::string value = sf::Serialize(sf::BareItem(url));
  return form == SignatureAgentForm::kString ? value : std::string(kLabel) + "=" + value;
}

sf::InnerList CoveredComponents(const RequestSignerOptions& options) {
  sf::InnerList covered;
  covered.items.push_back({std::string("@authority"), {}});
  sf::Item agent{std::string("signature-agent"), {}};
  if (options.agent_form == SignatureAgentForm::kDictionary) {
    agent.parameters.emplace_back("key", std::string(kLabel));
  }
  covered.items.push_back(std::move(agent));
  if (options.cover_method_and_path) {
    covered.items.push_back({std::string("@method"), {}});
    covered.items.push_back({std::string("@path"), {}});
  }
  return covered;
}

// `label=item`, appended to a dictionary field (", " between members).
void AppendMember(std::string& field, std::string_view label, std::string_view serialized) {
  if (!field.empty()) field += ", ";
  field += std::string(label) + "=" + std::string(serialized);
}

std::string SerializedBytes(std::string bytes) {
  return sf::Serialize(sf::BareItem(sf::ByteSequence{std::move(bytes)}));
}

boost::json::object JwkObject(std::string_view public_key) {
  if (public_key.size() != kKeyBytes) {
    throw std::invalid_argument("An Ed25519 public key is 32 bytes.");
  }
  return {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", core::Base64UrlEncode(public_key)}};
}

}  // namespace

std::optional<CrawlerKeyPair> CrawlerKeyPairFromSeed(std::string_view seed) {
  const auto key = ImportSeed(seed);
  if (!key) return std::nullopt;
  std::string public_key(kKeyBytes, '\0');
  std::size_t length = public_key.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(public_key.data()),
                                  &length) != 1 ||
      length != kKeyBytes) {
    return std::nullopt;
  }
  CrawlerKeyPair out;
  out.key_id = detection::Ed25519JwkThumbprint(core::Base64UrlEncode(public_key));
  out.private_seed = std::string(seed);
  out.public_key = std::move(public_key);
  return out;
}

CrawlerKeyPair GenerateCrawlerKeyPair() {
  // Every 32-byte string is an Ed25519 seed (RFC 8032 §5.1.5 hashes it), so this cannot fail.
  return *CrawlerKeyPairFromSeed(core::RandomBytes(kKeyBytes));
}

std::string SignEd25519(std::string_view private_seed, std::string_view message) {
  const auto key = ImportSeed(private_seed);
  if (!key) throw std::invalid_argument("An Ed25519 seed is 32 bytes.");
  return SignWith(key.get(), message);
}

std::string PublicJwk(std::string_view public_key) { return core::ToJson(JwkObject(public_key)); }

RequestSigner::RequestSigner(CrawlerKeyPair key, std::string agent_url,
                             std::int64_t validity_seconds)
    : RequestSigner(std::move(key), std::move(agent_url),
                    RequestSignerOptions{.validity_seconds = validity_seconds}) {}

RequestSigner::RequestSigner(CrawlerKeyPair key, std::string agent_url,
                             RequestSignerOptions options)
    : key_id_(key.key_id), agent_url_(std::move(agent_url)), options_(options) {
  // An sf-string holds printable ASCII only; verifiers resolve the agent's directory from it.
  if (!IsPrintableAscii(agent_url_) || !detection::UrlOrigin(agent_url_)) {
    throw std::invalid_argument("The Signature-Agent must be an absolute http(s) URL.");
  }
  if (options_.validity_seconds <= 0) {
    throw std::invalid_argument("A signature must be valid for a positive time.");
  }
  key_ = ImportKeyPair(key);
  signature_agent_ = SignatureAgentHeader(options_.agent_form, agent_url_);
}

SignatureHeaders RequestSigner::Sign(std::string_view method, std::string_view authority,
                                     std::string_view target, std::int64_t now_seconds) const {
  sf::InnerList covered = CoveredComponents(options_);
  covered.parameters = {{"created", now_seconds},
                        {"keyid", key_id_},
                        {"alg", std::string("ed25519")},
                        {"expires", now_seconds + options_.validity_seconds},
                        {"nonce", core::Base64Encode(core::RandomBytes(kNonceBytes))},
                        {"tag", std::string("web-bot-auth")}};
  SignatureHeaders out;
  out.signature_agent = signature_agent_;
  AppendMember(out.signature_input, kLabel, sf::Serialize(covered));
  // The base comes from the verifier's own builder, so what is signed is byte for byte what
  // detection rebuilds (the interop test checks it against an independent implementation).
  const detection::SignedRequest request{.method = method,
                                         .authority = authority,
                                         .target = target,
                                         .signature_input = out.signature_input,
                                         .signature_agent = out.signature_agent};
  const auto base = detection::SignatureBase(request, kLabel);
  if (!base) throw std::logic_error("A request signer covered a component it cannot build.");
  AppendMember(out.signature, kLabel, SerializedBytes(SignWith(key_.get(), *base)));
  return out;
}

std::string SignatureDirectoryDocument(const std::vector<std::string>& public_keys) {
  boost::json::array keys;
  std::vector<std::string_view> seen;
  for (const std::string& public_key : public_keys) {
    if (std::find(seen.begin(), seen.end(), public_key) != seen.end()) continue;
    seen.push_back(public_key);
    boost::json::object jwk = JwkObject(public_key);
    jwk["kid"] = detection::Ed25519JwkThumbprint(jwk["x"].as_string());
    jwk["use"] = "sig";
    keys.push_back(std::move(jwk));
  }
  return core::ToJson(boost::json::object{{"keys", std::move(keys)}});
}

SignatureHeaders SignDirectoryResponse(const std::vector<CrawlerKeyPair>& keys,
                                       std::string_view authority, std::int64_t now_seconds) {
  SignatureHeaders out;
  std::vector<std::string_view> seen;
  for (const CrawlerKeyPair& key : keys) {
    if (std::find(seen.begin(), seen.end(), key.key_id) != seen.end()) continue;
    const std::string label = "binding" + std::to_string(seen.size());
    seen.push_back(key.key_id);
    // `req`: the authority of the request this response answers (RFC 9421 §2.4).
    const sf::InnerList covered{
        .items = {{std::string("@authority"), {{"req", true}}}},
        .parameters = {{"created", now_seconds},
                       {"keyid", key.key_id},
                       {"alg", std::string("ed25519")},
                       {"expires", now_seconds + kDirectoryResponseValiditySeconds},
                       {"tag", std::string("http-message-signatures-directory")}}};
    const std::string params = sf::Serialize(covered);
    const std::string base = "\"@authority\";req: " + core::ToLowerAscii(authority) +
                             "\n\"@signature-params\": " + params;
    AppendMember(out.signature_input, label, params);
    AppendMember(out.signature, label, SerializedBytes(SignWith(ImportKeyPair(key).get(), base)));
  }
  return out;
}

}  // namespace sightline::site_audit
