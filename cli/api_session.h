// How the command-line client talks to a server's REST API: with a private API key
// (SIGHTLINE_API_KEY, for CI) or a profile's login, whose access token is refreshed at the
// OAuth token endpoint before it runs out (and the rotated pair saved). No operation knowledge
// here: requests and answers as they are.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cli/credentials.h"
#include "core/clock.h"
#include "core/http_client.h"
#include "core/http_types.h"
#include "core/result.h"

namespace sightline::cli {

struct ApiAnswer {
  int status = 0;
  core::HttpHeaders headers;
  std::string body;
};

// The process exit code for an answer's status (docs/cli.md): 0 for 2xx, 2 for a request the
// server found invalid (400, 405, 413, 415, 422), 3 for 401/403, 4 for 404, 5 for 429, 1 else.
int ExitCodeOf(int status);

// "CODE: message" of an ErrorResponse body (or the status when the body is not one), with the
// retry time of a 429.
std::string DescribeFailure(const ApiAnswer& answer);

// One HTTP exchange with the whole body read.
core::Result<ApiAnswer> Exchange(core::HttpClient& http, core::HttpMethod method,
                                 const std::string& url, core::HttpHeaders headers,
                                 std::string body);

// The API base of a server URL: "http://host:8080" → "http://host:8080/api".
std::string ApiBase(std::string server);

class ApiSession {
 public:
  // With an API key.
  ApiSession(core::HttpClient& http, std::string server, std::string api_key);
  // With a profile, saved again in `store` when its tokens are refreshed.
  ApiSession(core::HttpClient& http, const core::Clock& clock, Profile profile,
             CredentialStore& store);

  // `path` is relative to the API base, query included ("/web-analytics?from=…"); `body` is
  // sent as JSON when not empty.
  core::Result<ApiAnswer> Call(core::HttpMethod method, const std::string& path,
                               const std::string& body = "");
  // A request whose answer is a stream of Server-Sent Events: `on_data` gets each event's data
  // as it arrives (the status and headers come back once the stream ends or fails).
  core::Result<ApiAnswer> Stream(core::HttpMethod method, const std::string& path,
                                 const std::function<void(std::string_view data)>& on_data);
  // A usable access token (refreshed first when it runs out within a minute); AUTH_004 when
  // the refresh is refused (the login was revoked or expired: log in again).
  core::Result<std::string> Token();
  const std::string& server() const { return server_; }

 private:
  core::HttpClient& http_;
  std::string server_;
  std::string api_key_;
  const core::Clock* clock_ = nullptr;
  std::optional<Profile> profile_;
  CredentialStore* store_ = nullptr;
};

}  // namespace sightline::cli
