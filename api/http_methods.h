// What a path serves, and the answers that follow from it alone: OPTIONS (a CORS preflight, or
// 204 + Allow), a method the path does not serve (405 + Allow, as an ErrorResponse or in the RFC
// 6749 form), and the CORS headers of real answers. Every endpoint asks this one helper instead
// of writing its own. Pure functions over immutable descriptions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/http_types.h"

namespace sightline::api {

class Exchange;

// Who may read a path's answers from another site.
enum class CorsPolicy {
  kNone,    // same origin only: OPTIONS, when served, is 204 + Allow
  kPublic,  // public documents and assets: `*`, ETag and X-Request-Id exposed
  kSdk,     // the SDK's POST from any site, with an SDK key: as kPublic
  kOAuth,   // OAuth's endpoints: `*`, WWW-Authenticate and Retry-After exposed
  kMcp,     // /mcp: the request's Origin echoed (checked before), MCP's headers exposed
};

// How a refusal is written.
enum class ErrorForm { kErrorResponse, kOAuth };

struct PathMethods {
  // Served, in the order Allow lists them; OPTIONS when the path answers it.
  std::vector<core::HttpMethod> methods;
  CorsPolicy cors = CorsPolicy::kNone;
  ErrorForm errors = ErrorForm::kErrorResponse;
  // The 405 message; empty: "Method X is not allowed here; use …." (OPTIONS not named).
  std::string_view refusal = {};
  // A preflight's Access-Control-Allow-Headers; empty: the policy's.
  std::string_view allow_headers = {};
};

// A document or page: GET and HEAD, and OPTIONS when other sites may read it.
PathMethods ReadOnlyMethods(CorsPolicy cors, ErrorForm errors = ErrorForm::kErrorResponse);

bool Serves(const PathMethods& path, core::HttpMethod method);
// "GET, HEAD, OPTIONS".
std::string JoinMethods(std::span<const core::HttpMethod> methods);

// The answer when the request's method is OPTIONS or one `path` does not serve (the refusal's
// code goes to `exchange`'s log record); nullopt when the endpoint should serve it.
std::optional<core::HttpResponse> AnswerMethod(const core::HttpRequest& request,
                                               const PathMethods& path, Exchange& exchange);
// OPTIONS: the preflight of `path`'s CORS policy, or 204 + Allow without one.
core::HttpResponse AnswerOptions(const core::HttpRequest& request, const PathMethods& path);
// 405 + Allow in `path`'s error form (the OAuth form carries the OAuth CORS headers).
core::HttpResponse RefuseMethod(const core::HttpRequest& request, const PathMethods& path,
                                Exchange& exchange);

// The CORS headers of a real answer; `origin` is the request's Origin header, if any (only
// kMcp reads it).
void AddCors(CorsPolicy policy, std::optional<std::string_view> origin,
             core::HttpResponse& response);
void AddCors(CorsPolicy policy, const core::HttpRequest& request, core::HttpResponse& response);

}  // namespace sightline::api
