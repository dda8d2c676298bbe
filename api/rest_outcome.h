// What RestHandler's translation units share about one exchange (rest_handler.cpp, and
// mcp_route.cpp for /mcp). Internal to api/.
#pragma once

#include "api/rest_handler.h"

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>

namespace sightline::api {

inline constexpr std::string_view kUnmatchedRoute = "(unmatched)";

// Who is asking, for the operation: the request id, the peer, the User-Agent and the headers
// (valid while `request` is).
tools::RequestMeta MetaOf(const core::HttpRequest& request, std::string_view request_id);
// AUTH_014 for a credential whose window is used up, with `retryAfterSeconds`.
core::Error RateLimited(const identity::RateDecision& decision);

// One request/response exchange: what the access log and the final headers need, kept alive
// until an asynchronous operation answers.
struct RestHandler::Outcome {
  std::string request_id;
  std::string method_name;
  std::string client_request_id;
  std::chrono::steady_clock::time_point started;
  core::Responder respond;
  std::atomic<bool> finished{false};
  std::string_view route = kUnmatchedRoute;
  const tools::OperationSpec* operation = nullptr;  // the matched operation, if any
  std::string_view credential_kind;
  std::string credential_id;
  std::string error_code;
};

}  // namespace sightline::api
