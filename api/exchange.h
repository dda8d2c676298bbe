// One request/response exchange at the front door: the server's request id (and the client's own,
// for the log), the route template and credential the access log names, the matched operation
// (its deprecation headers and browser CORS go on every answer), and finishing the response
// exactly once: X-Request-Id, those headers, one access-log line, the responder.
//
// Thread-safety: one thread at a time fills it in (the request's, then the thread of the
// asynchronous answer it was handed to); Finish may be called from any thread, any number of
// times, and only the first call answers.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/error.h"
#include "core/http_types.h"
#include "identity/principal.h"
#include "tools/operation.h"

namespace sightline::api {

inline constexpr std::string_view kUnmatchedRoute = "(unmatched)";

class Exchange {
 public:
  // A fresh request id; `respond` is called once, by Finish. Shared: an asynchronous answer
  // keeps the exchange alive until it finishes.
  static std::shared_ptr<Exchange> Begin(const core::HttpRequest& request, core::Responder respond,
                                         const core::Clock& clock);

  const std::string& request_id() const { return request_id_; }
  // The route template the access log names (static storage: a literal or a spec's path).
  void set_route(std::string_view route) { route_ = route; }
  // The matched operation: its deprecation headers and browser CORS go on every answer.
  void set_operation(const tools::OperationSpec& spec) { operation_ = &spec; }
  void set_credential(const identity::Principal& principal);

  // Who is asking, for the operation (valid while `request` is).
  tools::RequestMeta MetaOf(const core::HttpRequest& request) const;

  // Records the code for the access log and logs internal diagnostics (every failure).
  void NoteFailure(const core::Error& error);
  // NoteFailure, then the ErrorResponse …
  core::HttpResponse Fail(const core::Error& error);
  // … or its RFC 6749 form (the OAuth endpoints).
  core::HttpResponse FailOAuth(const core::Error& error);

  // Adds X-Request-Id, the operation's headers, writes the access log and responds; once.
  void Finish(core::HttpResponse response);

  // The Deprecation, Sunset and Link headers of a deprecated operation (none otherwise).
  static void AddDeprecationHeaders(const tools::OperationSpec& spec, core::HttpResponse& response);
  // A fresh server request id (24 hex digits).
  static std::string NewRequestId();

 private:
  explicit Exchange(const core::Clock& clock) : clock_(clock) {}

  const core::Clock& clock_;
  std::string request_id_;
  std::string method_name_;
  std::string client_request_id_;
  std::chrono::steady_clock::time_point started_;
  core::Responder respond_;
  std::atomic<bool> finished_{false};
  std::string_view route_ = kUnmatchedRoute;
  const tools::OperationSpec* operation_ = nullptr;
  std::string_view credential_kind_;
  std::string credential_id_;
  std::string error_code_;
};

}  // namespace sightline::api
