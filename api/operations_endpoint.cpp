#include "api/operations_endpoint.h"

#include <functional>

#include "api/exchange.h"
#include "api/http_methods.h"
#include "api/request_arguments.h"
#include "core/json_util.h"

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;
using core::Result;
using identity::CredentialKind;

// Browsers post events from any site: the SDK routes answer preflights, and the operations
// marked browser_cors carry CORS headers on every response (the exchange adds them).
constexpr std::string_view kSdkPrefix = "/sdk/v1/";

// Whether the client asked for Server-Sent Events (an operation that can answer either way).
bool AcceptsEventStream(const HttpRequest& request) {
  const std::string_view accept = request.headers.Get("Accept").value_or("");
  for (std::string_view rest = accept; !rest.empty();) {
    const auto comma = rest.find(',');
    if (core::MediaTypeOf(rest.substr(0, comma)) == "text/event-stream") return true;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return false;
}

HttpResponse JsonResponse(int status, const json::value& body) {
  HttpResponse response;
  response.status = status;
  response.headers.Set("Content-Type", "application/json");
  response.headers.Set("Cache-Control", "no-store");
  if (status != 204) response.body = core::ToJson(body);
  return response;
}

HttpResponse EventStreamHeaders() {
  HttpResponse response;
  response.headers.Set("Content-Type", "text/event-stream");
  response.headers.Set("Cache-Control", "no-store");
  response.headers.Set("X-Accel-Buffering", "no");  // proxies must not buffer the stream
  return response;
}

}  // namespace

OperationsEndpoint::OperationsEndpoint(const tools::Registry& registry, tools::Gate& gate,
                                       RateLimits& limits)
    : router_(registry), gate_(gate), limits_(limits) {}

bool OperationsEndpoint::Claims(const Target& target) const { return target.api; }

std::optional<HttpResponse> OperationsEndpoint::Serve(const HttpRequest& request,
                                                      const Target& target,
                                                      const std::shared_ptr<Exchange>& exchange) {
  const std::string_view path = target.path;
  if (request.method == HttpMethod::kOptions && path.starts_with(kSdkPrefix)) {
    exchange->set_route("/sdk/v1/* (preflight)");
    return AnswerOptions(request, {{HttpMethod::kPost, HttpMethod::kOptions}, CorsPolicy::kSdk});
  }
  const HttpMethod method = request.method == HttpMethod::kHead ? HttpMethod::kGet : request.method;
  const RouteMatch match = router_.Route(method, path);
  if (match.outcome == RouteMatch::Outcome::kNotFound) {
    return exchange->Fail(
        core::Error(ErrorCode::kRouteNotFound, "No operation is served at this path."));
  }
  if (match.outcome == RouteMatch::Outcome::kMethodNotAllowed) {
    PathMethods served{match.allowed};
    served.methods.push_back(HttpMethod::kOptions);
    return AnswerMethod(request, served, *exchange);
  }
  exchange->set_route(match.operation->spec->path);
  exchange->set_operation(*match.operation->spec);
  return ServeOperation(request, match, exchange);
}

// What the request presents, for the gate: nothing is read for an operation open to anyone.
Result<tools::Presented> OperationsEndpoint::Present(const HttpRequest& request,
                                                      const tools::OperationSpec& spec) const {
  if (spec.credentials == CredentialKind::kNone) {
    return tools::Presented{.client_ip = limits_.ClientIp(request)};
  }
  return ReadPresented(request, spec.credentials, limits_.ClientIp(request));
}

std::optional<HttpResponse> OperationsEndpoint::ServeOperation(
    const HttpRequest& request, const RouteMatch& match,
    const std::shared_ptr<Exchange>& exchange) {
  const tools::RegisteredOperation& op = *match.operation;
  auto presented = Present(request, *op.spec);
  if (!presented) return exchange->Fail(presented.error());
  auto principal = gate_.Identify(tools::Surface::kRest, *presented, op.spec);
  if (!principal) return exchange->Fail(principal.error());
  exchange->set_credential(*principal);
  auto counted = gate_.Count(*op.spec, *principal, presented->client_ip);
  if (!counted) return exchange->Fail(counted.error());
  const Answer answer = [this, exchange, window = *counted](HttpResponse response) {
    if (window) limits_.AddHeaders(*window, response);
    exchange->Finish(std::move(response));
  };
  if (*counted && !(*counted)->decision.allowed) {
    answer(exchange->Fail(tools::RateLimited((*counted)->decision)));
    return std::nullopt;
  }
  auto args = BuildArguments(op, match, request);
  if (!args) {
    answer(exchange->Fail(args.error()));
    return std::nullopt;
  }
  const tools::RequestMeta meta = exchange->MetaOf(request);
  if (op.spec->open_stream && (!op.spec->run_async || AcceptsEventStream(request))) {
    answer(Stream(op, *presented, *principal, *args, meta, *exchange));
    return std::nullopt;
  }
  // Counted above, so the dispatcher is called directly: the request is the operation call.
  gate_.dispatcher().CallAsync(
      op, *principal, *args, meta,
      [exchange, answer, status = op.spec->success_status](Result<json::value> result) {
        answer(result ? JsonResponse(status, *result) : exchange->Fail(result.error()));
      });
  return std::nullopt;
}

HttpResponse OperationsEndpoint::Stream(const tools::RegisteredOperation& op,
                                        const tools::Presented& presented,
                                        const identity::Principal& principal,
                                        const json::object& args, const tools::RequestMeta& meta,
                                        Exchange& exchange) {
  // A negotiated stream (an answer streamed on request) is one bounded answer, not a
  // subscription: it is not re-checked.
  auto stream = gate_.OpenStream(op, tools::Surface::kRest, presented, principal, args, meta,
                                 /*renewed=*/!op.spec->run_async);
  if (!stream) return exchange.Fail(stream.error());
  HttpResponse response = EventStreamHeaders();
  response.stream = std::move(*stream);
  return response;
}

}  // namespace sightline::api
