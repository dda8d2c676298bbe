#include "identity/jwt.h"

#include "core/crypto.h"
#include "core/json_util.h"

#include <boost/json/parse.hpp>

namespace sightline::identity {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;

constexpr std::string_view kHeader = R"({"alg":"HS256","typ":"JWT"})";
constexpr std::string_view kIssuer = "sightline";

Error Malformed() {
  return Error(ErrorCode::kAuthMalformedCredential, "The access token is malformed.");
}

std::optional<std::string> StringClaim(const json::object& claims, std::string_view name) {
  const json::value* value = claims.if_contains(name);
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->as_string());
}

std::optional<std::int64_t> IntClaim(const json::object& claims, std::string_view name) {
  const json::value* value = claims.if_contains(name);
  if (!value || !value->is_int64()) return std::nullopt;
  return value->as_int64();
}

}  // namespace

bool LooksLikeJwt(std::string_view token) {
  const auto first = token.find('.');
  if (first == std::string_view::npos) return false;
  const auto second = token.find('.', first + 1);
  return second != std::string_view::npos && token.find('.', second + 1) == std::string_view::npos;
}

std::string SignToken(const TokenClaims& claims, std::string_view secret) {
  const json::object payload{{"iss", kIssuer},
                             {"sub", claims.user_id},
                             {"sid", claims.session_id},
                             {"typ", claims.type},
                             {"iat", claims.issued_at},
                             {"exp", claims.expires_at}};
  const std::string signing_input =
      core::Base64UrlEncode(kHeader) + "." + core::Base64UrlEncode(core::ToJson(payload));
  return signing_input + "." + core::Base64UrlEncode(core::HmacSha256(secret, signing_input));
}

core::Result<TokenClaims> VerifyToken(std::string_view token, std::string_view secret,
                                      std::int64_t now_seconds) {
  if (!LooksLikeJwt(token)) return Malformed();
  const auto last_dot = token.rfind('.');
  const std::string_view signing_input = token.substr(0, last_dot);
  const auto signature = core::Base64UrlDecode(token.substr(last_dot + 1));
  const auto header = core::Base64UrlDecode(token.substr(0, token.find('.')));
  if (!signature || !header) return Malformed();
  // Only our own header: this refuses "alg":"none" and any algorithm confusion outright.
  if (*header != kHeader) return Malformed();
  if (!core::ConstantTimeEquals(*signature, core::HmacSha256(secret, signing_input))) {
    return Error(ErrorCode::kAuthInvalidCredential, "The access token is not valid.");
  }
  const auto payload_text = core::Base64UrlDecode(
      signing_input.substr(signing_input.find('.') + 1));
  if (!payload_text) return Malformed();
  boost::system::error_code ec;
  const json::value payload = json::parse(*payload_text, ec);
  if (ec || !payload.is_object()) return Malformed();
  const json::object& claims = payload.as_object();
  TokenClaims out;
  auto sub = StringClaim(claims, "sub");
  auto sid = StringClaim(claims, "sid");
  auto typ = StringClaim(claims, "typ");
  auto iat = IntClaim(claims, "iat");
  auto exp = IntClaim(claims, "exp");
  if (!sub || !sid || !typ || !iat || !exp || StringClaim(claims, "iss") != kIssuer) {
    return Malformed();
  }
  if (now_seconds >= *exp) {
    return Error(ErrorCode::kAuthExpiredCredential,
                 "The access token has expired; refresh it with POST /auth/refresh-token.");
  }
  return TokenClaims{std::move(*sub), std::move(*sid), std::move(*typ), *iat, *exp};
}

}  // namespace sightline::identity
