#include "api/front_door.h"

#include <algorithm>

#include "api/error_response.h"
#include "api/exchange.h"
#include "api/request_log.h"

namespace sightline::api {

using core::ErrorCode;
using core::HttpRequest;
using core::HttpResponse;

Target TargetOf(std::string_view request_path) {
  if (request_path == kApiBase) return {true, "/"};
  if (request_path.starts_with(kApiBase) && request_path.substr(kApiBase.size()).starts_with('/')) {
    return {true, request_path.substr(kApiBase.size())};
  }
  return {false, request_path};
}

FrontDoor::FrontDoor(std::vector<Endpoint*> endpoints, const core::Clock& clock)
    : endpoints_(std::move(endpoints)), clock_(clock) {}

void FrontDoor::HandleAsync(const HttpRequest& request, core::Responder respond) {
  const auto exchange = Exchange::Begin(request, std::move(respond), clock_);
  const Target target = TargetOf(request.path());
  std::optional<HttpResponse> now;
  try {
    const auto claimed = std::find_if(endpoints_.begin(), endpoints_.end(),
                                      [&](const Endpoint* e) { return e->Claims(target); });
    if (claimed == endpoints_.end()) {
      now = exchange->Fail(
          core::Error(ErrorCode::kRouteNotFound, "No operation is served at this path."));
    } else {
      now = (*claimed)->Serve(request, target, exchange);
    }
  } catch (const std::exception& e) {
    now = exchange->Fail(core::Error::Internal(std::string("unhandled exception: ") + e.what()));
  }
  if (now) exchange->Finish(std::move(*now));
}

HttpResponse FrontDoor::RenderTransportError(int status, std::string_view reason) {
  ErrorCode code = ErrorCode::kValBadRequest;
  if (status == 413) code = ErrorCode::kValBodyTooLarge;
  if (status == 431) code = ErrorCode::kValHeadersTooLarge;
  if (status == 503) code = ErrorCode::kUnavailable;
  core::Error error(code, std::string(reason));
  const std::string request_id = Exchange::NewRequestId();
  HttpResponse response = RenderErrorResponse(error, clock_.NowMillis(), request_id);
  response.headers.Set("X-Request-Id", request_id);
  LogAccess({"-", kUnmatchedRoute, response.status, 0, request_id, "", "", error.info().id});
  return response;
}

}  // namespace sightline::api
