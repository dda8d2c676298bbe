// The one renderer of ErrorResponse answers; the body (core::ErrorResponseBody, shared with
// MCP tool errors) is:
//   {"error":{"code":"VAL_003","message":"…","details":{…}},"timestamp":"<RFC 3339>",
//    "requestId":"…"}
// with the status from the code table, `WWW-Authenticate` on 401s (RFC 6750) and
// `Retry-After` when the details carry `retryAfterSeconds`.
#pragma once

#include "core/error.h"
#include "core/http_types.h"

#include <cstdint>
#include <string_view>

namespace sightline::api {

core::HttpResponse RenderErrorResponse(const core::Error& error, std::int64_t now_millis,
                                       std::string_view request_id);

}  // namespace sightline::api
