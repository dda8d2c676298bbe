// RestHandler's OAuth endpoints: authorization-server metadata (RFC 8414, also answered as
// OpenID-style discovery), dynamic client registration (RFC 7591), the token endpoint and
// revocation (RFC 7009). Machine clients call these from anywhere, browsers included, so each
// answers CORS preflights and exposes `WWW-Authenticate`. Errors take the RFC 6749 shape.
#include <boost/json/parse.hpp>

#include "api/error_response.h"
#include "api/public_documents.h"
#include "api/rest_handler.h"
#include "api/rest_outcome.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "ingest/client_ip.h"

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;

constexpr std::string_view kAuthorizationServerMetadataPath =
    "/.well-known/oauth-authorization-server";
constexpr std::string_view kOpenIdConfigurationPath = "/.well-known/openid-configuration";
constexpr std::string_view kRegisterPath = "/oauth/register";
constexpr std::string_view kTokenPath = "/oauth/token";
constexpr std::string_view kRevokePath = "/oauth/revoke";
constexpr std::string_view kAuthorizePath = "/oauth/authorize";

// The well-known documents sit at the root, or with the issuer's path appended (RFC 8414 §3.1)
// when the public URL has one.
bool IsMetadataPath(std::string_view path) {
  return path.starts_with(kAuthorizationServerMetadataPath) ||
         path.starts_with(kOpenIdConfigurationPath);
}

void AddOAuthCors(HttpResponse& response) {
  response.headers.Set("Access-Control-Allow-Origin", "*");
  response.headers.Set("Access-Control-Expose-Headers", "WWW-Authenticate, Retry-After");
}

HttpResponse OAuthPreflight(std::string_view methods) {
  HttpResponse response;
  response.status = 204;
  AddOAuthCors(response);
  response.headers.Set("Access-Control-Allow-Methods", std::string(methods));
  response.headers.Set("Access-Control-Allow-Headers",
                       "Authorization, Content-Type, MCP-Protocol-Version");
  response.headers.Set("Access-Control-Max-Age", "86400");
  return response;
}

HttpResponse OAuthJson(int status, const json::object& body) {
  HttpResponse response;
  response.status = status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("Pragma", "no-cache");
  response.body = core::ToJson(body);
  return response;
}

// RFC 6749 §2.3.1: `Authorization: Basic base64(urlencode(id) ":" urlencode(secret))`.
core::Result<void> ReadBasicCredentials(const HttpRequest& request, oauth::TokenRequest& into) {
  const auto header = request.headers.Get("Authorization");
  if (!header) return {};
  constexpr std::string_view kBasic = "basic ";
  if (header->size() <= kBasic.size() ||
      !core::EqualsIgnoreCase(header->substr(0, kBasic.size()), kBasic)) {
    return core::Error(ErrorCode::kOAuthInvalidClient,
                       "Client authentication uses HTTP Basic or the request body.");
  }
  std::string encoded(core::TrimSpaces(header->substr(kBasic.size())));
  const auto decoded = core::Base64Decode(encoded);
  const std::size_t colon = decoded ? decoded->find(':') : std::string::npos;
  if (colon == std::string::npos) {
    return core::Error(ErrorCode::kOAuthInvalidClient, "Malformed Basic credentials.");
  }
  auto id = core::PercentDecode(decoded->substr(0, colon), true);
  auto secret = core::PercentDecode(decoded->substr(colon + 1), true);
  if (!id || !secret) {
    return core::Error(ErrorCode::kOAuthInvalidClient, "Malformed Basic credentials.");
  }
  into.has_basic = true;
  into.basic_client_id = std::move(*id);
  into.basic_client_secret = std::move(*secret);
  return {};
}

core::Result<oauth::TokenRequest> ReadTokenRequest(const HttpRequest& request) {
  const auto type = request.headers.Get("Content-Type");
  if (!type || core::MediaTypeOf(*type) != "application/x-www-form-urlencoded") {
    return core::Error(ErrorCode::kOAuthInvalidRequest,
                       "Send the parameters as application/x-www-form-urlencoded.");
  }
  oauth::TokenRequest token_request;
  token_request.form = core::ParseQuery(request.body);
  auto basic = ReadBasicCredentials(request, token_request);
  if (!basic) return basic.error();
  return token_request;
}

}  // namespace

bool RestHandler::IsOAuthPath(std::string_view path) {
  return IsMetadataPath(path) || path == kRegisterPath || path == kTokenPath ||
         path == kRevokePath || path == kAuthorizePath;
}

std::optional<core::Error> RestHandler::CountAnonymous(const HttpRequest& request) {
  auto decision = public_limits_.Hit(
      "ip:" + ingest::ClientIp(request.headers, request.remote_address, trusted_proxies_));
  if (!decision) return decision.error();
  if (!decision->allowed) return RateLimited(*decision);
  return std::nullopt;
}

std::optional<HttpResponse> RestHandler::ServeOAuth(const HttpRequest& request,
                                                    std::string_view path,
                                                    const std::shared_ptr<Outcome>& exchange) {
  Outcome& outcome = *exchange;
  if (path == kAuthorizePath) {
    outcome.route = kAuthorizePath;
    return ServeAuthorize(request, exchange);
  }
  const auto oauth_failure = [&](const core::Error& error) {
    NoteFailure(error, outcome);
    HttpResponse response = RenderOAuthError(error);
    AddOAuthCors(response);
    return response;
  };
  if (IsMetadataPath(path)) {
    outcome.route = path.starts_with(kOpenIdConfigurationPath) ? kOpenIdConfigurationPath
                                                               : kAuthorizationServerMetadataPath;
    if (request.method == HttpMethod::kOptions) return OAuthPreflight("GET, HEAD, OPTIONS");
    if (request.method != HttpMethod::kGet && request.method != HttpMethod::kHead) {
      HttpResponse response = oauth_failure(
          core::Error(ErrorCode::kMethodNotAllowed, "Only GET and HEAD are served here."));
      response.headers.Set("Allow", "GET, HEAD, OPTIONS");
      return response;
    }
    HttpResponse response = Document(request, authorization_server_metadata_);
    AddOAuthCors(response);
    return response;
  }
  outcome.route =
      path == kRegisterPath ? kRegisterPath : (path == kTokenPath ? kTokenPath : kRevokePath);
  if (request.method == HttpMethod::kOptions) return OAuthPreflight("POST, OPTIONS");
  if (request.method != HttpMethod::kPost) {
    HttpResponse response =
        oauth_failure(core::Error(ErrorCode::kMethodNotAllowed, "Only POST is served here."));
    response.headers.Set("Allow", "POST, OPTIONS");
    return response;
  }
  if (path == kRegisterPath) {
    // Registrations are counted per client IP; token and revocation requests are not: hosted
    // clients refresh for all their users from a few addresses, and the codes and tokens are
    // 40 random characters, beyond guessing.
    if (auto limited = CountAnonymous(request)) return oauth_failure(*limited);
    const auto type = request.headers.Get("Content-Type");
    if (!type || core::MediaTypeOf(*type) != "application/json") {
      return oauth_failure(core::Error(ErrorCode::kOAuthInvalidMetadata,
                                       "Send the client metadata as application/json."));
    }
    boost::system::error_code ec;
    const json::value body = json::parse(request.body, ec);
    if (ec) {
      return oauth_failure(
          core::Error(ErrorCode::kOAuthInvalidMetadata, "The body is not valid JSON."));
    }
    auto registered = oauth_->Register(body);
    if (!registered) return oauth_failure(registered.error());
    HttpResponse response = OAuthJson(201, *registered);
    AddOAuthCors(response);
    return response;
  }
  auto token_request = ReadTokenRequest(request);
  if (!token_request) return oauth_failure(token_request.error());
  if (path == kTokenPath) {
    auto answer = oauth_->Token(*token_request);
    if (!answer) return oauth_failure(answer.error());
    HttpResponse response = OAuthJson(200, *answer);
    AddOAuthCors(response);
    return response;
  }
  auto revoked = oauth_->Revoke(*token_request);
  if (!revoked) return oauth_failure(revoked.error());
  HttpResponse response;
  response.status = 200;
  response.headers.Set("Cache-Control", "no-store");
  AddOAuthCors(response);
  return response;
}

}  // namespace sightline::api
