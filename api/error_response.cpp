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

}  // namespace sightline::api
