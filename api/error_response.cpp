#include "api/error_response.h"

#include "core/clock.h"
#include "core/json_util.h"

#include <boost/json/object.hpp>

#include <optional>
#include <string>

namespace sightline::api {

namespace json = boost::json;
using core::ErrorCode;

namespace {

// A database that cannot be reached is most often restarting, failing over or refilling its
// connections: seconds, not minutes. Five seconds spaces out the retries of many clients without
// keeping them away long once it is back.
constexpr std::string_view kStorageRetryAfterSeconds = "5";

// RFC 9110 §10.2.3: when to try again, for a rate limit (details.retryAfterSeconds) or storage
// that is unavailable.
std::optional<std::string> RetryAfter(const core::Error& error) {
  if (const json::value* retry = error.details().if_contains("retryAfterSeconds")) {
    return core::ToJson(*retry);
  }
  if (error.code() == ErrorCode::kStorageUnavailable) {
    return std::string(kStorageRetryAfterSeconds);
  }
  return std::nullopt;
}

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
  if (auto retry = RetryAfter(error)) response.headers.Set("Retry-After", *retry);
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
  if (auto retry = RetryAfter(error)) response.headers.Set("Retry-After", *retry);
  response.body = core::ToJson(json::object{{"error", OAuthErrorName(error)},
                                            {"error_description", error.message()},
                                            {"error_code", info.id}});
  return response;
}

}  // namespace sightline::api
