#include "oauth/client_metadata.h"

#include <algorithm>
#include <cctype>
#include <array>
#include <boost/json/parse.hpp>
#include <span>

#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "core/url.h"
#include "storage/oauth_records.h"

namespace sightline::oauth {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

constexpr std::size_t kMaxRedirectUris = 20;
constexpr std::size_t kMaxUriLength = 2000;
constexpr std::size_t kMaxNameLength = 200;

// Schemes that run code or read local data when a browser is sent to them.
constexpr std::array<std::string_view, 7> kForbiddenSchemes = {
    "javascript", "data", "file", "vbscript", "about", "blob", "filesystem"};

Error BadRedirect(std::string message) {
  return Error(ErrorCode::kOAuthInvalidRedirectUri, std::move(message));
}
Error BadMetadata(std::string message) {
  return Error(ErrorCode::kOAuthInvalidMetadata, std::move(message));
}

// RFC 8252 §7.1: a native app's private-use scheme, named after a domain it owns, with no
// authority ("com.example.app:/oauth2redirect"); matched exactly.
bool IsPrivateUseRedirect(std::string_view uri) {
  const std::size_t colon = uri.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= uri.size()) return false;
  const std::string_view scheme = uri.substr(0, colon);
  if (scheme.find('.') == std::string_view::npos) return false;
  for (const char c : scheme) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+') {
      return false;
    }
  }
  for (const char c : uri) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F || c == '#') return false;
  }
  return true;
}

bool IsHttpLoopback(const core::UrlParts& url) {
  return url.scheme == "http" && core::IsLoopbackHost(url.host);
}

// A display name without control characters, bounded; a fallback when absent.
std::string CleanName(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F) out += c;
  }
  out = core::TrimSpaces(out);
  if (out.size() > kMaxNameLength) out.resize(kMaxNameLength);
  return out;
}

Result<std::vector<std::string>> RedirectUrisOf(const json::object& metadata) {
  const json::value* uris = metadata.if_contains("redirect_uris");
  if (!uris || !uris->is_array() || uris->as_array().empty()) {
    return BadRedirect("redirect_uris must be a non-empty array of URIs.");
  }
  if (uris->as_array().size() > kMaxRedirectUris) {
    return BadRedirect("At most " + std::to_string(kMaxRedirectUris) + " redirect_uris.");
  }
  std::vector<std::string> out;
  for (const json::value& uri : uris->as_array()) {
    if (!uri.is_string()) return BadRedirect("Every redirect URI must be a string.");
    auto valid = CheckRedirectUri(uri.as_string());
    if (!valid) return valid.error();
    out.emplace_back(uri.as_string());
  }
  return out;
}

// Every listed member is an array of strings drawn from `allowed`; nullopt when absent.
Result<std::optional<std::vector<std::string>>> StringSet(
    const json::object& metadata, std::string_view field,
    std::span<const std::string_view> allowed) {
  const json::value* value = metadata.if_contains(field);
  if (!value) return std::optional<std::vector<std::string>>();
  if (!value->is_array()) return BadMetadata(std::string(field) + " must be an array.");
  std::vector<std::string> out;
  for (const json::value& item : value->as_array()) {
    if (!item.is_string() ||
        std::find(allowed.begin(), allowed.end(), item.as_string()) == allowed.end()) {
      std::string names;
      for (const std::string_view name : allowed) {
        names += (names.empty() ? "" : ", ") + std::string(name);
      }
      return BadMetadata(std::string(field) + " may only contain: " + names + ".");
    }
    out.emplace_back(item.as_string());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

constexpr std::array<std::string_view, 2> kGrantTypes = {"authorization_code", "refresh_token"};
constexpr std::array<std::string_view, 1> kResponseTypes = {"code"};
constexpr std::array<std::string_view, 3> kAuthMethods = {"none", "client_secret_basic",
                                                          "client_secret_post"};

Result<std::string> OptionalText(const json::object& metadata, std::string_view field) {
  const json::value* value = metadata.if_contains(field);
  if (!value || value->is_null()) return std::string();
  if (!value->is_string()) return BadMetadata(std::string(field) + " must be a string.");
  return std::string(value->as_string());
}

}  // namespace

Result<void> CheckRedirectUri(std::string_view uri) {
  if (uri.size() > kMaxUriLength) return BadRedirect("The redirect URI is too long.");
  const auto url = core::SplitUrl(uri);
  if (!url) {
    if (IsPrivateUseRedirect(uri)) return {};
    return BadRedirect("The redirect URI '" + std::string(uri) + "' is not an absolute URI.");
  }
  if (url->has_fragment || url->has_userinfo) {
    return BadRedirect("A redirect URI may not have a fragment or user information.");
  }
  if (std::find(kForbiddenSchemes.begin(), kForbiddenSchemes.end(), url->scheme) !=
      kForbiddenSchemes.end()) {
    return BadRedirect("The scheme '" + url->scheme + "' is not allowed for redirects.");
  }
  if (url->scheme == "http" && !IsHttpLoopback(*url)) {
    return BadRedirect("Plain http redirects are allowed to loopback addresses only.");
  }
  return {};
}

bool RedirectUriMatches(std::string_view registered, std::string_view requested) {
  if (registered == requested) return true;
  const auto a = core::SplitUrl(registered);
  const auto b = core::SplitUrl(requested);
  if (!a || !b || !IsHttpLoopback(*a) || !IsHttpLoopback(*b)) return false;
  return a->host == b->host && a->path == b->path && a->has_query == b->has_query &&
         a->query == b->query && !b->has_fragment && !b->has_userinfo;
}

bool RedirectUriAllowed(const OAuthClient& client, std::string_view requested) {
  return std::any_of(client.redirect_uris.begin(), client.redirect_uris.end(),
                     [&](const std::string& uri) { return RedirectUriMatches(uri, requested); });
}

bool IsMetadataDocumentUrl(std::string_view client_id) {
  const auto url = core::SplitUrl(client_id);
  return url && url->scheme == "https" && url->path.size() > 1 && !url->has_fragment &&
         !url->has_userinfo;
}

Result<NewClient> ParseRegistration(const json::value& body) {
  if (!body.is_object()) return BadMetadata("The registration must be a JSON object.");
  const json::object& metadata = body.as_object();
  auto redirect_uris = RedirectUrisOf(metadata);
  if (!redirect_uris) return redirect_uris.error();
  auto grant_types = StringSet(metadata, "grant_types", kGrantTypes);
  if (!grant_types) return grant_types.error();
  auto response_types = StringSet(metadata, "response_types", kResponseTypes);
  if (!response_types) return response_types.error();
  auto method = OptionalText(metadata, "token_endpoint_auth_method");
  if (!method) return method.error();
  if (method->empty()) *method = "client_secret_basic";  // RFC 7591 §2's default
  if (std::find(kAuthMethods.begin(), kAuthMethods.end(), *method) == kAuthMethods.end()) {
    return BadMetadata(
        "token_endpoint_auth_method must be none, client_secret_basic or "
        "client_secret_post.");
  }
  auto name = OptionalText(metadata, "client_name");
  if (!name) return name.error();
  // OpenID Connect Registration's application_type, which MCP 2026-07-28 asks clients to send:
  // recorded and echoed; both kinds may use loopback redirects (a local web app is "web" too).
  auto application_type = OptionalText(metadata, "application_type");
  if (!application_type) return application_type.error();
  if (!application_type->empty() && *application_type != "web" &&
      *application_type != "native") {
    return BadMetadata("application_type must be web or native.");
  }

  NewClient registered;
  OAuthClient& client = registered.client;
  client.id = "mcpc_" + core::RandomBase62(24);
  client.kind = std::string(kRegisteredClient);
  client.name = CleanName(*name);
  client.redirect_uris = std::move(*redirect_uris);
  client.auth_method = *method;
  client.metadata = metadata;
  client.metadata.erase("client_secret");
  client.metadata.erase("client_id");
  json::array uris;
  for (const auto& uri : client.redirect_uris) uris.emplace_back(uri);
  client.metadata["redirect_uris"] = std::move(uris);
  client.metadata["token_endpoint_auth_method"] = client.auth_method;
  if (!*grant_types) {
    client.metadata["grant_types"] = json::array{"authorization_code", "refresh_token"};
  }
  if (!*response_types) client.metadata["response_types"] = json::array{"code"};
  if (!client.is_public()) {
    registered.secret = core::RandomBase62(43);
    client.secret_hash = core::Sha256Hex(*registered.secret);
  }
  return registered;
}

json::object RegistrationResponse(const NewClient& registered, std::int64_t issued_at) {
  json::object body = registered.client.metadata;
  body["client_id"] = registered.client.id;
  body["client_id_issued_at"] = issued_at;
  if (!registered.client.name.empty()) body["client_name"] = registered.client.name;
  if (registered.secret) {
    body["client_secret"] = *registered.secret;
    body["client_secret_expires_at"] = 0;  // never
  }
  return body;
}

Result<OAuthClient> ParseMetadataDocument(std::string_view url, std::string_view document) {
  auto parsed = core::ParseJsonObject(document);
  if (!parsed) return BadMetadata("The client metadata document is not a JSON object.");
  const json::object& metadata = *parsed;
  const json::value* id = metadata.if_contains("client_id");
  if (!id || !id->is_string() || id->as_string() != url) {
    return BadMetadata("The client metadata document's client_id is not its own URL.");
  }
  if (metadata.contains("client_secret") || metadata.contains("client_secret_expires_at")) {
    return BadMetadata("A client metadata document may not carry a client secret.");
  }
  auto method = OptionalText(metadata, "token_endpoint_auth_method");
  if (!method) return method.error();
  if (!method->empty() && *method != "none") {
    return BadMetadata("Clients identified by a metadata document authenticate with 'none'.");
  }
  auto name = OptionalText(metadata, "client_name");
  if (!name) return name.error();
  if (CleanName(*name).empty()) {
    return BadMetadata("The client metadata document needs client_name.");
  }
  auto redirect_uris = RedirectUrisOf(metadata);
  if (!redirect_uris) return redirect_uris.error();
  OAuthClient client;
  client.id = std::string(url);
  client.kind = std::string(kMetadataDocumentClient);
  client.name = CleanName(*name);
  client.redirect_uris = std::move(*redirect_uris);
  client.auth_method = "none";
  client.metadata = metadata;
  return client;
}

storage::OAuthClientRecord ToRecord(const OAuthClient& client, std::int64_t created_at,
                                    std::int64_t fetched_at) {
  json::array uris;
  for (const auto& uri : client.redirect_uris) uris.emplace_back(uri);
  return {client.id,
          client.kind,
          client.name,
          core::ToJson(uris),
          client.auth_method,
          client.secret_hash,
          core::ToJson(client.metadata),
          created_at,
          fetched_at};
}

Result<OAuthClient> FromRecord(const storage::OAuthClientRecord& record) {
  OAuthClient client;
  client.id = record.id;
  client.kind = record.kind;
  client.name = record.name;
  client.auth_method = record.auth_method;
  client.secret_hash = record.secret_hash;
  auto metadata = core::ParseJsonObject(record.metadata);
  if (!metadata) return Error::Internal("stored client metadata is not JSON: " + record.id);
  client.metadata = std::move(*metadata);
  boost::system::error_code ec;
  const json::value uris = json::parse(record.redirect_uris, ec);
  if (ec || !uris.is_array()) return Error::Internal("stored redirect_uris are not JSON");
  for (const json::value& uri : uris.as_array()) {
    if (uri.is_string()) client.redirect_uris.emplace_back(uri.as_string());
  }
  return client;
}

}  // namespace sightline::oauth
