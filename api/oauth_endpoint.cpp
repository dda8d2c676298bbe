// The OAuth machine endpoints (api/oauth_endpoint.h).
#include "api/oauth_endpoint.h"

#include <boost/json/parse.hpp>

#include "api/exchange.h"
#include "api/http_methods.h"
#include "api/public_documents.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "core/text.h"
#include "core/url.h"

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

const PathMethods kMetadataMethods = ReadOnlyMethods(CorsPolicy::kOAuth, ErrorForm::kOAuth);
const PathMethods kPostMethods{{HttpMethod::kPost, HttpMethod::kOptions},
                               CorsPolicy::kOAuth,
                               ErrorForm::kOAuth,
                               "Only POST is served here."};

// Every OAuth answer, failures included, is readable by other sites.
HttpResponse Failure(Exchange& exchange, const core::Error& error) {
  HttpResponse response = exchange.FailOAuth(error);
  AddCors(CorsPolicy::kOAuth, std::nullopt, response);
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

// The issuer is the API base (https://host/api), so its metadata sits where RFC 8414 §3.1 puts
// it for an issuer with a path, /.well-known/oauth-authorization-server/api, and where OpenID
// discovery does, both /.well-known/openid-configuration/api and /api/.well-known/openid-
// configuration: the three places MCP clients look.
OAuthEndpoint::OAuthEndpoint(oauth::AuthorizationServer& server, RateLimits& limits)
    : server_(server),
      limits_(limits),
      metadata_(RenderJsonDocument(json::value(server.Metadata()))),
      authorization_server_metadata_path_(std::string(kAuthorizationServerMetadataPath) +
                                          core::PathOfUrl(server.settings().issuer)),
      openid_configuration_path_(std::string(kOpenIdConfigurationPath) +
                                 core::PathOfUrl(server.settings().issuer)) {}

bool OAuthEndpoint::IsMetadata(const Target& target) const {
  if (target.api) return target.path == kOpenIdConfigurationPath;
  return target.path == authorization_server_metadata_path_ ||
         target.path == openid_configuration_path_;
}

bool OAuthEndpoint::Claims(const Target& target) const {
  if (IsMetadata(target)) return true;
  const std::string_view path = target.path;
  return target.api && (path == kRegisterPath || path == kTokenPath || path == kRevokePath);
}

std::optional<HttpResponse> OAuthEndpoint::Serve(const HttpRequest& request,
                                                 const Target& target,
                                                 const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  if (IsMetadata(target)) {
    exchange->set_route(path);
    if (auto answered = AnswerMethod(request, kMetadataMethods, *exchange)) return answered;
    HttpResponse response = Document(request, metadata_);
    AddCors(CorsPolicy::kOAuth, request, response);
    return response;
  }
  exchange->set_route(path == kRegisterPath ? kRegisterPath
                                            : (path == kTokenPath ? kTokenPath : kRevokePath));
  if (auto answered = AnswerMethod(request, kPostMethods, *exchange)) return answered;
  HttpResponse response = path == kRegisterPath ? Register(request, *exchange)
                                                : TokenOrRevoke(request, path, *exchange);
  AddCors(CorsPolicy::kOAuth, request, response);
  return response;
}

HttpResponse OAuthEndpoint::Register(const HttpRequest& request, Exchange& exchange) {
  // Registrations are counted per client IP; token and revocation requests are not: hosted
  // clients refresh for all their users from a few addresses, and the codes and tokens are
  // 40 random characters, beyond guessing.
  if (auto limited = limits_.CountAnonymous(request)) return Failure(exchange, *limited);
  const auto type = request.headers.Get("Content-Type");
  if (!type || core::MediaTypeOf(*type) != "application/json") {
    return Failure(exchange, core::Error(ErrorCode::kOAuthInvalidMetadata,
                                         "Send the client metadata as application/json."));
  }
  boost::system::error_code ec;
  const json::value body = json::parse(request.body, ec);
  if (ec) {
    return Failure(exchange,
                   core::Error(ErrorCode::kOAuthInvalidMetadata, "The body is not valid JSON."));
  }
  auto registered = server_.Register(body);
  if (!registered) return Failure(exchange, registered.error());
  return OAuthJson(201, *registered);
}

HttpResponse OAuthEndpoint::TokenOrRevoke(const HttpRequest& request, std::string_view path,
                                          Exchange& exchange) {
  auto token_request = ReadTokenRequest(request);
  if (!token_request) return Failure(exchange, token_request.error());
  if (path == kTokenPath) {
    auto answer = server_.Token(*token_request);
    if (!answer) return Failure(exchange, answer.error());
    return OAuthJson(200, *answer);
  }
  auto revoked = server_.Revoke(*token_request);
  if (!revoked) return Failure(exchange, revoked.error());
  HttpResponse response;
  response.status = 200;
  response.headers.Set("Cache-Control", "no-store");
  return response;
}

}  // namespace sightline::api
