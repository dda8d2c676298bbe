// The one renderer of ErrorResponse answers; the body (core::ErrorResponseBody, shared with
// MCP tool errors) is:
//   {"error":{"code":"VAL_003","message":"…","details":{…}},"timestamp":"<RFC 3339>",
//    "requestId":"…"}
// with the status from the code table, `WWW-Authenticate` on 401s (RFC 6750) and
// `Retry-After` for `retryAfterSeconds` in the details or for unavailable storage (SYS_003).
#pragma once

#include "core/error.h"
#include "core/http_types.h"

#include <cstdint>
#include <string_view>

namespace sightline::api {

core::HttpResponse RenderErrorResponse(const core::Error& error, std::int64_t now_millis,
                                       std::string_view request_id);

// The same failure at an OAuth endpoint (token, registration, revocation), in the shape RFC 6749
// §5.2 and RFC 7591 §3.2.2 require: {"error":"invalid_grant","error_description":"…",
// "error_code":"OAUTH_003"}, never cached; a failed client authentication challenges `Basic`.
core::HttpResponse RenderOAuthError(const core::Error& error);
// The RFC 6749 `error` value of any Error: its own for OAuth codes, otherwise
// `temporarily_unavailable` (503, 429), `server_error` (5xx) or `invalid_request`.
std::string_view OAuthErrorName(const core::Error& error);

}  // namespace sightline::api
