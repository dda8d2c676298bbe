#include "api/error_response.h"

#include "core/clock.h"
#include "core/json_util.h"

#include <boost/json/object.hpp>

namespace sightline::api {

namespace json = boost::json;
using core::ErrorCode;

namespace {

std::string WwwAuthenticate(ErrorCode code) {
  // RFC 6750 §3: no error attribute when no credential was sent; invalid_token otherwise.
  if (code == ErrorCode::kAuthRequired) return R"(Bearer realm="sightline")";
  return R"(Bearer realm="sightline", error="invalid_token")";
}

}  // namespace

core::HttpResponse RenderErrorResponse(const core::Error& error, std::int64_t now_millis,
                                       std::string_view request_id) {
  const core::ErrorInfo& info = error.info();
  const json::object body = core::ErrorResponseBody(error, now_millis, request_id);

  core::HttpResponse response;
  response.status = info.http_status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  if (info.http_status == 401) response.headers.Set("WWW-Authenticate", WwwAuthenticate(error.code()));
  if (const json::value* retry = error.details().if_contains("retryAfterSeconds")) {
    response.headers.Set("Retry-After", core::ToJson(*retry));
  }
  response.body = core::ToJson(body);
  return response;
}

std::string_view OAuthErrorName(const core::Error& error) {
  const core::ErrorInfo& info = error.info();
  if (!info.oauth_error.empty()) return info.oauth_error;
  if (info.http_status == 503 || info.http_status == 429) return "temporarily_unavailable";
  if (info.http_status >= 500) return "server_error";
  return "invalid_request";
}

core::HttpResponse RenderOAuthError(const core::Error& error) {
  const core::ErrorInfo& info = error.info();
  core::HttpResponse response;
  response.status = info.http_status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("Pragma", "no-cache");
  if (info.http_status == 401) response.headers.Set("WWW-Authenticate", R"(Basic realm="sightline")");
  if (const json::value* retry = error.details().if_contains("retryAfterSeconds")) {
    response.headers.Set("Retry-After", core::ToJson(*retry));
  }
  response.body = core::ToJson(json::object{{"error", OAuthErrorName(error)},
                                            {"error_description", error.message()},
                                            {"error_code", info.id}});
  return response;
}

}  // namespace sightline::api
