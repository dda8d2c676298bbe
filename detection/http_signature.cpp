#include "detection/http_signature.h"

#include "core/crypto.h"
#include "core/text.h"
#include "detection/structured_fields.h"

#include <openssl/evp.h>

#include <algorithm>
#include <memory>

namespace sightline::detection {
namespace {

using Status = SignatureParse::Status;

SignatureParse Fail(Status status, std::string problem) {
  SignatureParse out;
  out.status = status;
  out.problem = std::move(problem);
  return out;
}

const std::string* StringParam(const sf::Parameters& parameters, std::string_view key) {
  for (const auto& [name, value] : parameters) {
    if (name == key) return std::get_if<std::string>(&value);
  }
  return nullptr;
}

const std::int64_t* IntegerParam(const sf::Parameters& parameters, std::string_view key) {
  for (const auto& [name, value] : parameters) {
    if (name == key) return std::get_if<std::int64_t>(&value);
  }
  return nullptr;
}

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The Signature-Agent value a component covers: the whole field, or with `;key=` one member of
// the dictionary form (draft-ietf-webbotauth-httpsig-protocol), serialized.
std::optional<std::string> SignatureAgentValue(std::string_view header, const std::string* key) {
  if (key == nullptr) return std::string(Trim(header));
  const auto dictionary = sf::ParseDictionary(header);
  if (!dictionary) return std::nullopt;
  for (const auto& [name, member] : *dictionary) {
    if (name != *key) continue;
    if (const auto* item = std::get_if<sf::Item>(&member)) return sf::Serialize(*item);
  }
  return std::nullopt;
}

// The agent URL: the member the signature covers, the sf-string form, or (as early signers
// sent it) a bare URL.
std::string AgentUrl(std::string_view header, const std::string* key) {
  header = Trim(header);
  if (header.empty()) return {};
  if (key != nullptr) {
    if (auto value = SignatureAgentValue(header, key)) {
      if (auto item = sf::ParseItem(*value)) {
        if (const auto* url = std::get_if<std::string>(&item->value)) return *url;
      }
    }
    return {};
  }
  if (auto item = sf::ParseItem(header)) {
    if (const auto* url = std::get_if<std::string>(&item->value)) return *url;
  }
  if (auto dictionary = sf::ParseDictionary(header); dictionary && dictionary->size() == 1) {
    if (const auto* item = std::get_if<sf::Item>(&dictionary->front().second)) {
      if (const auto* url = std::get_if<std::string>(&item->value)) return *url;
    }
  }
  return UrlOrigin(header) ? std::string(header) : std::string();
}

const sf::InnerList* FindCovered(const sf::Dictionary& input, std::string_view label) {
  for (const auto& [name, member] : input) {
    if (name == label) return std::get_if<sf::InnerList>(&member);
  }
  return nullptr;
}

struct ComponentValue {
  std::optional<std::string> value;
  bool unsupported = false;
};

ComponentValue DerivedOrHeader(const SignedRequest& request, const sf::Item& component) {
  const auto* name = std::get_if<std::string>(&component.value);
  if (name == nullptr) return {};
  const std::string_view target = request.target.empty() ? "/" : request.target;
  const auto query_at = target.find('?');
  for (const auto& [param, value] : component.parameters) {
    if (!(*name == "signature-agent" && param == "key")) return {.unsupported = true};
  }
  if (*name == "@method") return {core::ToUpperAscii(request.method)};
  if (*name == "@authority") return {core::ToLowerAscii(request.authority)};
  if (*name == "@path") return {std::string(target.substr(0, query_at))};
  if (*name == "@query") {
    return {query_at == std::string_view::npos ? std::string("?")
                                               : std::string(target.substr(query_at))};
  }
  if (*name == "@request-target") return {std::string(target)};
  if (*name == "@target-uri") {  // forwarded requests are assumed to have arrived over https
    return {"https://" + core::ToLowerAscii(request.authority) + std::string(target)};
  }
  if (*name == "signature-agent") {
    if (Trim(request.signature_agent).empty()) return {};
    return {SignatureAgentValue(request.signature_agent,
                                StringParam(component.parameters, "key"))};
  }
  return {.unsupported = true};
}

}  // namespace

namespace {

// The base over the components `covered` lists (RFC 9421 §2.5).
core::Result<std::string> BuildBase(const SignedRequest& request, const sf::InnerList& covered) {
  std::string base;
  std::vector<std::string> seen;
  for (const sf::Item& component : covered.items) {
    const std::string identifier = sf::Serialize(component);
    if (std::find(seen.begin(), seen.end(), identifier) != seen.end()) {
      return core::Error::Invalid("signature_input", "A component is covered twice.");
    }
    seen.push_back(identifier);
    const ComponentValue value = DerivedOrHeader(request, component);
    if (value.unsupported) {
      return core::Error(core::ErrorCode::kUnavailable,
                         "The signature covers " + identifier + ", which is not forwarded.");
    }
    if (!value.value) {
      return core::Error::Invalid("signature_input", "The request has no " + identifier + ".");
    }
    base += identifier + ": " + *value.value + "\n";
  }
  base += "\"@signature-params\": " + sf::Serialize(covered);
  return base;
}

}  // namespace

core::Result<std::string> SignatureBase(const SignedRequest& request, std::string_view label) {
  const auto input = sf::ParseDictionary(request.signature_input);
  const sf::InnerList* covered = input ? FindCovered(*input, label) : nullptr;
  if (covered == nullptr) {
    return core::Error::Invalid("signature_input", "No signature '" + std::string(label) + "'.");
  }
  return BuildBase(request, *covered);
}

SignatureParse ParseWebBotAuth(const SignedRequest& request) {
  if (Trim(request.signature).empty() && Trim(request.signature_input).empty()) return {};
  const auto input = sf::ParseDictionary(request.signature_input);
  const auto signatures = sf::ParseDictionary(request.signature);
  if (!input || !signatures) return Fail(Status::kMalformed, "Unparseable signature fields.");
  const sf::InnerList* covered = nullptr;
  std::string label;
  for (const auto& [name, member] : *input) {
    const auto* list = std::get_if<sf::InnerList>(&member);
    const std::string* tag = list ? StringParam(list->parameters, "tag") : nullptr;
    if (tag && *tag == "web-bot-auth") {
      covered = list;
      label = name;
      break;
    }
  }
  if (covered == nullptr) return Fail(Status::kMalformed, "No signature tagged web-bot-auth.");
  const std::string* keyid = StringParam(covered->parameters, "keyid");
  const std::int64_t* created = IntegerParam(covered->parameters, "created");
  const std::int64_t* expires = IntegerParam(covered->parameters, "expires");
  if (!keyid || !created || !expires) {
    return Fail(Status::kMalformed, "keyid, created and expires are required.");
  }
  if (const std::string* alg = StringParam(covered->parameters, "alg"); alg && *alg != "ed25519") {
    return Fail(Status::kMalformed, "Only ed25519 signatures are accepted.");
  }
  const sf::ByteSequence* bytes = nullptr;
  for (const auto& [name, member] : *signatures) {
    if (name != label) continue;
    if (const auto* item = std::get_if<sf::Item>(&member)) {
      bytes = std::get_if<sf::ByteSequence>(&item->value);
    }
  }
  if (bytes == nullptr) return Fail(Status::kMalformed, "No signature value for " + label + ".");
  const std::string* agent_key = nullptr;
  bool covers_authority = false, covers_agent = false;
  for (const sf::Item& component : covered->items) {
    const auto* name = std::get_if<std::string>(&component.value);
    if (name && *name == "@authority") covers_authority = true;
    if (name && *name == "signature-agent") {
      covers_agent = true;
      agent_key = StringParam(component.parameters, "key");
    }
  }
  const bool has_agent = !Trim(request.signature_agent).empty();
  if (!covers_authority || (has_agent && !covers_agent)) {
    return Fail(Status::kMalformed, "The signature must cover @authority and signature-agent.");
  }
  auto base = BuildBase(request, *covered);  // the fields are parsed once
  if (!base) {
    return Fail(base.error().code() == core::ErrorCode::kUnavailable ? Status::kUnsupported
                                                                     : Status::kMalformed,
                std::string(base.error().message()));
  }
  SignatureParse out;
  out.status = Status::kParsed;
  out.signature = WebBotAuthSignature{
      .label = label,
      .keyid = *keyid,
      .created = *created,
      .expires = *expires,
      .signature = bytes->bytes,
      .base = std::move(*base),
      .agent = has_agent ? AgentUrl(request.signature_agent, agent_key) : std::string()};
  return out;
}

std::optional<Ed25519PublicKey> Ed25519PublicKey::FromRaw(std::string_view raw) {
  if (raw.size() != 32) return std::nullopt;
  EVP_PKEY* key = EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw.data()), 32);
  if (key == nullptr) return std::nullopt;
  Ed25519PublicKey out;
  out.key_ = std::shared_ptr<evp_pkey_st>(key, EVP_PKEY_free);
  return out;
}

bool Ed25519PublicKey::Verify(std::string_view message, std::string_view signature) const {
  if (!key_ || signature.size() != 64) return false;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                  EVP_MD_CTX_free);
  if (!context ||
      EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key_.get()) != 1) {
    return false;
  }
  return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                          signature.size(),
                          reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

bool VerifyEd25519(std::string_view public_key, std::string_view message,
                   std::string_view signature) {
  const auto key = Ed25519PublicKey::FromRaw(public_key);
  return key && key->Verify(message, signature);
}

std::string Ed25519JwkThumbprint(std::string_view x_base64url) {
  // RFC 7638 §3.2: the required members in lexicographic order, no whitespace.
  const std::string canonical =
      R"({"crv":"Ed25519","kty":"OKP","x":")" + std::string(x_base64url) + "\"}";
  return core::Base64UrlEncode(core::Sha256(canonical));
}

std::optional<std::string> UrlOrigin(std::string_view url) {
  std::string_view rest;
  std::string scheme;
  if (url.starts_with("https://")) {
    scheme = "https://";
  } else if (url.starts_with("http://")) {
    scheme = "http://";
  } else {
    return std::nullopt;
  }
  rest = url.substr(scheme.size());
  const std::string_view host = rest.substr(0, rest.find_first_of("/?#"));
  if (host.empty() || host.find_first_of("@ \t") != std::string_view::npos) return std::nullopt;
  return scheme + core::ToLowerAscii(host);
}

}  // namespace sightline::detection
