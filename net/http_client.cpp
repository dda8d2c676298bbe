#include "net/http_client.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <condition_variable>
#include <mutex>

#include "core/ip_address.h"
#include "core/url.h"

namespace sightline::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using core::Error;
using core::ErrorCode;
using core::OutboundResponse;
using core::Result;

Error Failed(std::string what) { return Error(ErrorCode::kUnavailable, std::move(what)); }

struct Target {
  bool tls = false;
  std::string host;  // without IPv6 brackets
  std::string port;
  std::string path_and_query;
};

Result<Target> ParseTarget(std::string_view url) {
  const auto parts = core::SplitUrl(url);
  if (!parts || (parts->scheme != "http" && parts->scheme != "https") || parts->has_userinfo) {
    return Error::Invalid("url", "Not an http(s) URL: " + std::string(url));
  }
  Target target;
  target.tls = parts->scheme == "https";
  target.host = parts->host;
  if (target.host.size() > 2 && target.host.front() == '[') {
    target.host = target.host.substr(1, target.host.size() - 2);
  }
  target.port = !parts->port.empty() ? parts->port : target.tls ? "443" : "80";
  target.path_and_query = parts->path.empty() ? "/" : parts->path;
  if (parts->has_query) target.path_and_query += "?" + parts->query;
  return target;
}

// Waits for the server's c-ares resolver, bounded by `timeout`; the answer may arrive after
// this returns, so the state it writes to is shared.
std::vector<std::string> ResolveWith(detection::DnsResolver& resolver, const std::string& host,
                                     std::chrono::milliseconds timeout) {
  struct Pending {
    std::mutex mutex;
    std::condition_variable ready;
    bool done = false;
    std::vector<std::string> addresses;
  };
  auto pending = std::make_shared<Pending>();
  resolver.Forward(host, [pending](detection::DnsAnswer answer) {
    std::lock_guard lock(pending->mutex);
    if (answer.status == detection::DnsAnswer::Status::kOk) {
      pending->addresses = std::move(answer.values);
    }
    pending->done = true;
    pending->ready.notify_all();
  });
  std::unique_lock lock(pending->mutex);
  pending->ready.wait_for(lock, timeout, [&] { return pending->done; });
  return pending->addresses;
}

// Reads the answer's head, then its body piece by piece into `on_body` as it arrives (a streamed
// answer's events reach the caller when the server sends them, not when 16 KB have piled up);
// each read may wait `idle` at most. Answers without a body (to HEAD; 204, 304) end at
// their head, and `on_body` is not called.
template <class Stream>
asio::awaitable<Result<OutboundResponse>> Exchange(Stream& stream,
                                                   http::request<http::string_body>& request,
                                                   const core::OutboundLimits& limits,
                                                   const core::BodyCallback& on_body) {
  beast::error_code ec;
  auto& socket = beast::get_lowest_layer(stream);
  socket.expires_after(limits.idle_timeout);
  co_await http::async_write(stream, request, asio::redirect_error(asio::use_awaitable, ec));
  if (ec) co_return Failed("Sending the request failed: " + ec.message() + ".");
  beast::flat_buffer buffer;
  http::response_parser<http::buffer_body> parser;
  parser.body_limit(limits.max_body_bytes);
  // An answer to HEAD has no body, whatever its Content-Length says; the parser cannot tell on
  // its own (it ends 204 and 304 answers at their head by itself).
  if (request.method() == http::verb::head) parser.skip(true);
  socket.expires_after(limits.idle_timeout);
  co_await http::async_read_header(stream, buffer, parser,
                                   asio::redirect_error(asio::use_awaitable, ec));
  if (ec == beast::error::timeout) co_return Failed("The server did not answer in time.");
  if (ec) co_return Failed("Reading the answer failed: " + ec.message() + ".");
  OutboundResponse head;
  head.status = static_cast<int>(parser.get().result_int());
  for (const auto& field : parser.get()) {
    head.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  char piece[16384];
  while (!parser.is_done()) {
    parser.get().body().data = piece;
    parser.get().body().size = sizeof piece;
    socket.expires_after(limits.idle_timeout);
    co_await http::async_read_some(stream, buffer, parser,
                                   asio::redirect_error(asio::use_awaitable, ec));
    if (ec == http::error::need_buffer) ec = {};
    if (ec == beast::error::timeout) co_return Failed("The answer stalled.");
    if (ec) co_return Failed("Reading the answer failed: " + ec.message() + ".");
    const std::size_t size = sizeof piece - parser.get().body().size;
    if (size > 0) on_body(head, std::string_view(piece, size));
  }
  co_return head;
}

}  // namespace

struct BeastHttpClient::Impl {
  explicit Impl(HttpClientOptions o) : options(std::move(o)), tls(asio::ssl::context::tls_client) {
    tls.set_default_verify_paths();
    if (!options.ca_file.empty()) tls.load_verify_file(options.ca_file);
    tls.set_verify_mode(asio::ssl::verify_peer);
  }

  // GCC 12 reports -Wmismatched-new-delete on Asio's coroutine frames (a false positive: the
  // frames are allocated and freed by Asio's own operators).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
  asio::awaitable<Result<OutboundResponse>> Run(const Target& target,
                                                std::vector<tcp::endpoint> endpoints,
                                                http::request<http::string_body>& request,
                                                const core::OutboundLimits& limits,
                                                const core::BodyCallback& on_body) {
    beast::error_code ec;
    beast::tcp_stream socket(co_await asio::this_coro::executor);
    socket.expires_after(limits.connect_timeout);
    co_await socket.async_connect(endpoints, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Failed("Cannot connect to " + target.host + ":" + target.port + ".");
    if (!target.tls) co_return co_await Exchange(socket, request, limits, on_body);
    beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), tls);
    SSL_set_tlsext_host_name(stream.native_handle(), target.host.c_str());
    stream.set_verify_callback(asio::ssl::host_name_verification(target.host));
    beast::get_lowest_layer(stream).expires_after(limits.connect_timeout);
    co_await stream.async_handshake(asio::ssl::stream_base::client,
                                    asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Failed("TLS with " + target.host + " failed: " + ec.message() + ".");
    co_return co_await Exchange(stream, request, limits, on_body);
  }
#pragma GCC diagnostic pop

  Result<std::vector<tcp::endpoint>> Endpoints(const Target& target,
                                               std::chrono::milliseconds timeout,
                                               bool public_only) {
    std::vector<std::string> addresses;
    if (core::IpAddress::Parse(target.host)) {
      addresses.push_back(target.host);
    } else if (target.host == "localhost") {
      addresses.push_back("127.0.0.1");
    } else if (options.resolver != nullptr) {
      addresses = ResolveWith(*options.resolver, target.host, timeout);
    } else {
      asio::io_context context;
      tcp::resolver resolver(context);
      beast::error_code ec;
      for (const auto& entry : resolver.resolve(target.host, target.port, ec)) {
        addresses.push_back(entry.endpoint().address().to_string());
      }
    }
    std::vector<tcp::endpoint> endpoints;
    const auto port = static_cast<unsigned short>(std::stoi(target.port));
    bool refused = false;
    for (const std::string& text : addresses) {
      const auto parsed = core::IpAddress::Parse(text);
      if (public_only && (!parsed || !parsed->IsGlobal())) {
        refused = true;
        continue;
      }
      beast::error_code ec;
      const auto address = asio::ip::make_address(text, ec);
      if (!ec) endpoints.emplace_back(address, port);
    }
    if (endpoints.empty() && refused) {
      return Failed(target.host + " is not a public address, and this destination must be.");
    }
    if (endpoints.empty()) return Failed("Cannot resolve " + target.host + ".");
    return endpoints;
  }

  HttpClientOptions options;
  asio::ssl::context tls;
};

BeastHttpClient::BeastHttpClient(HttpClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

BeastHttpClient::~BeastHttpClient() = default;

Result<OutboundResponse> BeastHttpClient::Send(const core::OutboundRequest& outbound,
                                               const core::OutboundLimits& limits,
                                               const core::BodyCallback& on_body,
                                               const std::function<bool()>& cancelled) {
  const auto started = std::chrono::steady_clock::now();
  auto target = ParseTarget(outbound.url);
  if (!target) return target.error();
  auto endpoints = impl_->Endpoints(*target, limits.connect_timeout, limits.public_only);
  if (!endpoints) return endpoints.error();
  const http::verb verb = http::string_to_verb(core::MethodName(outbound.method));
  http::request<http::string_body> request{verb, target->path_and_query, 11};
  const bool default_port = target->port == (target->tls ? "443" : "80");
  const std::string host =
      target->host.find(':') != std::string::npos ? "[" + target->host + "]" : target->host;
  request.set(http::field::host, default_port ? host : host + ":" + target->port);
  request.set(http::field::user_agent, impl_->options.user_agent);
  for (const auto& [name, value] : outbound.headers.fields()) request.set(name, value);
  request.body() = outbound.body;
  request.prepare_payload();

  std::optional<Result<OutboundResponse>> outcome;
  // Declared last: destroying it first ends the exchange's coroutine (closing its connection)
  // before anything the coroutine refers to goes.
  asio::io_context context;
  asio::co_spawn(context, impl_->Run(*target, std::move(*endpoints), request, limits, on_body),
                 [&outcome](std::exception_ptr failure, Result<OutboundResponse> result) {
                   outcome = failure ? Result<OutboundResponse>(Failed("The exchange failed."))
                                     : std::move(result);
                 });
  while (!outcome) {
    context.run_for(std::chrono::milliseconds(100));
    if (outcome) break;
    if (cancelled && cancelled()) return Failed("Cancelled.");
    if (std::chrono::steady_clock::now() - started > limits.total_timeout) {
      return Failed("The answer took longer than " +
                    std::to_string(limits.total_timeout.count() / 1000) + " s.");
    }
  }
  return std::move(*outcome);
}

}  // namespace sightline::net
