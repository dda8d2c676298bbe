#include "api/http_methods.h"

#include <algorithm>

#include "api/exchange.h"

namespace sightline::api {
namespace {

using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;

struct CorsRules {
  std::string_view expose;         // Access-Control-Expose-Headers
  std::string_view allow_headers;  // a preflight's Access-Control-Allow-Headers …
  bool echo_requested;             // … unless it echoes Access-Control-Request-Headers
};

constexpr std::string_view kMcpExposeHeaders =
    "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, Retry-After, X-Request-Id";

// What browser-based clients send, and what they must be able to read, per policy.
CorsRules RulesOf(CorsPolicy policy) {
  switch (policy) {
    case CorsPolicy::kPublic:
      return {"ETag, X-Request-Id", "*", true};
    case CorsPolicy::kSdk:
      return {"ETag, X-Request-Id", "Content-Type, x-sdk-key, X-API-Key, Authorization", true};
    case CorsPolicy::kOAuth:
      return {"WWW-Authenticate, Retry-After", "Authorization, Content-Type, MCP-Protocol-Version",
              false};
    case CorsPolicy::kMcp:
      return {kMcpExposeHeaders,
              "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, "
              "Mcp-Method, Mcp-Name, Last-Event-ID, X-API-Key, X-MCP-Readonly, traceparent, "
              "tracestate, baggage",
              false};
    case CorsPolicy::kNone:
      break;
  }
  return {};
}

std::string RefusalMessage(const HttpRequest& request, const PathMethods& path) {
  if (!path.refusal.empty()) return std::string(path.refusal);
  std::vector<HttpMethod> named;
  std::copy_if(path.methods.begin(), path.methods.end(), std::back_inserter(named),
               [](HttpMethod m) { return m != HttpMethod::kOptions; });
  return "Method " + request.method_name + " is not allowed here; use " + JoinMethods(named) + ".";
}

}  // namespace

PathMethods ReadOnlyMethods(CorsPolicy cors, ErrorForm errors) {
  PathMethods path{
      {HttpMethod::kGet, HttpMethod::kHead}, cors, errors, "Only GET and HEAD are served here."};
  if (cors != CorsPolicy::kNone) path.methods.push_back(HttpMethod::kOptions);
  return path;
}

bool Serves(const PathMethods& path, HttpMethod method) {
  return std::find(path.methods.begin(), path.methods.end(), method) != path.methods.end();
}

std::string JoinMethods(std::span<const HttpMethod> methods) {
  std::string out;
  for (HttpMethod m : methods) {
    if (!out.empty()) out += ", ";
    out += core::MethodName(m);
  }
  return out;
}

std::optional<HttpResponse> AnswerMethod(const HttpRequest& request, const PathMethods& path,
                                         Exchange& exchange) {
  if (!Serves(path, request.method)) return RefuseMethod(request, path, exchange);
  if (request.method == HttpMethod::kOptions) return AnswerOptions(request, path);
  return std::nullopt;
}

HttpResponse AnswerOptions(const HttpRequest& request, const PathMethods& path) {
  HttpResponse response;
  response.status = 204;
  if (path.cors == CorsPolicy::kNone) {
    response.headers.Set("Allow", JoinMethods(path.methods));
    return response;
  }
  const CorsRules rules = RulesOf(path.cors);
  AddCors(path.cors, request, response);
  response.headers.Set("Access-Control-Allow-Methods", JoinMethods(path.methods));
  std::string_view allow_headers =
      path.allow_headers.empty() ? rules.allow_headers : path.allow_headers;
  if (const auto requested = request.headers.Get("Access-Control-Request-Headers");
      requested && rules.echo_requested && path.allow_headers.empty()) {
    allow_headers = *requested;
  }
  response.headers.Set("Access-Control-Allow-Headers", std::string(allow_headers));
  response.headers.Set("Access-Control-Max-Age", "86400");
  return response;
}

HttpResponse RefuseMethod(const HttpRequest& request, const PathMethods& path, Exchange& exchange) {
  const core::Error error(core::ErrorCode::kMethodNotAllowed, RefusalMessage(request, path));
  HttpResponse response;
  if (path.errors == ErrorForm::kOAuth) {
    response = exchange.FailOAuth(error);
    AddCors(path.cors, request, response);  // every OAuth answer is readable by other sites
  } else {
    response = exchange.Fail(error);
  }
  response.headers.Set("Allow", JoinMethods(path.methods));
  return response;
}

void AddCors(CorsPolicy policy, std::optional<std::string_view> origin, HttpResponse& response) {
  if (policy == CorsPolicy::kNone) return;
  if (policy == CorsPolicy::kMcp) {
    if (!origin) return;  // not a browser
    response.headers.Set("Access-Control-Allow-Origin", std::string(*origin));
    response.headers.Set("Vary", "Origin");
  } else {
    response.headers.Set("Access-Control-Allow-Origin", "*");
  }
  response.headers.Set("Access-Control-Expose-Headers", std::string(RulesOf(policy).expose));
}

void AddCors(CorsPolicy policy, const HttpRequest& request, HttpResponse& response) {
  AddCors(policy, request.headers.Get("Origin"), response);
}

}  // namespace sightline::api
