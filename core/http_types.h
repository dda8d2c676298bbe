// Plain HTTP request/response values exchanged between the Beast transport and the rest of the
// server. No I/O here: routers and operations are tested with these structs and no sockets.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::core {

enum class HttpMethod { kGet, kHead, kPost, kPut, kPatch, kDelete, kOptions, kOther };

std::string_view MethodName(HttpMethod method);
HttpMethod ParseMethod(std::string_view name);

// Header fields in arrival order. Lookups are case-insensitive (RFC 9110 field names).
class HttpHeaders {
 public:
  void Add(std::string name, std::string value);
  // Replaces every field of that name with one field.
  void Set(std::string_view name, std::string value);
  std::optional<std::string_view> Get(std::string_view name) const;
  bool Has(std::string_view name) const { return Get(name).has_value(); }
  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// The media type of a Content-Type or Accept entry, without parameters and surrounding spaces
// ("application/json; charset=utf-8" → "application/json").
std::string_view MediaTypeOf(std::string_view value);

struct HttpRequest {
  HttpMethod method = HttpMethod::kGet;
  std::string method_name;  // as sent, for logs and 405s of unknown methods
  std::string target;       // raw request-target: path + optional "?query"
  HttpHeaders headers;
  std::string body;
  std::string remote_address;  // the socket peer, no port

  std::string_view path() const;   // target up to '?'
  std::string_view query() const;  // after '?', may be empty
};

// A response body that goes on (Server-Sent Events). The transport sends the headers, then
// calls Poll() every poll_interval() and writes what it returns, until Poll() returns nullopt,
// the client goes away or the server shuts down.
class ResponseStream {
 public:
  virtual ~ResponseStream() = default;
  virtual std::chrono::milliseconds poll_interval() const = 0;
  // The next bytes to send (possibly none), or nullopt to end the response.
  virtual std::optional<std::string> Poll() = 0;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;
  std::string body;
  std::shared_ptr<ResponseStream> stream;  // set: `body` is ignored and the stream is sent
};

// Delivers a response; called exactly once, from any thread.
using Responder = std::function<void(HttpResponse)>;

// The server's request-handling entry point, implemented by api/ and called by the transport.
// Must be safe to call from several threads at once.
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // Answers now or later (ingestion answers once its rows are committed). The request is only
  // valid during the call: an implementation that answers later copies what it needs.
  virtual void HandleAsync(const HttpRequest& request, Responder respond) = 0;
  // Answers synchronously, waiting for a later answer if there is one (tests, tools).
  HttpResponse Handle(const HttpRequest& request);
  // The transport's own failures (oversized body, unparsable request, connection cap) are
  // rendered by the handler too, so that every error body has the same shape.
  virtual HttpResponse RenderTransportError(int status, std::string_view reason) = 0;
};

// Decodes %XX escapes (and '+' as space when `plus_as_space`). Returns nullopt on a bad escape.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_as_space);

// Escapes everything but RFC 3986's unreserved characters (for query values, form fields).
std::string PercentEncode(std::string_view text);

// Splits "a=1&b=x%20y" into decoded pairs; malformed escapes leave the pair out.
std::vector<std::pair<std::string, std::string>> ParseQuery(std::string_view query);

}  // namespace sightline::core
