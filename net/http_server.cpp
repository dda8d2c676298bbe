#include "net/http_server.h"

#include "core/clock.h"
#include "core/logging.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace sightline::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// What the shutdown path needs to reach a live session from another thread.
struct SessionState {
  asio::any_io_executor executor;
  beast::tcp_stream* stream = nullptr;  // valid while the session runs; touched on its strand
  bool idle = false;                    // waiting for the first byte of the next request
};

core::HttpRequest ToPlain(const Request& request, const std::string& remote) {
  core::HttpRequest plain;
  plain.method_name = std::string(request.method_string());
  plain.method = core::ParseMethod(plain.method_name);
  plain.target = std::string(request.target());
  for (const auto& field : request) {
    plain.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  plain.body = request.body();
  plain.remote_address = remote;
  return plain;
}

// The Date header changes once a second: each I/O thread formats it once per second.
const std::string& CurrentHttpDate() {
  thread_local std::int64_t second = -1;
  thread_local std::string formatted;
  const std::int64_t now = core::SystemClock().NowMillis() / 1000;
  if (now != second) {
    second = now;
    formatted = core::FormatHttpDate(now);
  }
  return formatted;
}

Response ToBeast(core::HttpResponse plain, unsigned version, bool keep_alive, bool head) {
  Response response{static_cast<http::status>(plain.status), version};
  response.set(http::field::server, "sightline");
  response.set(http::field::date, CurrentHttpDate());
  for (auto& [name, value] : plain.headers.fields()) response.insert(name, value);
  response.keep_alive(keep_alive);
  const bool bodiless = plain.status == 204 || plain.status == 304 || plain.status < 200;
  if (bodiless) return response;
  if (head) {
    response.content_length(plain.body.size());  // what GET would send, without the bytes
    return response;
  }
  response.body() = std::move(plain.body);
  response.prepare_payload();
  return response;
}

// The status and reason a failed read should be answered with, or 0 to just close.
std::pair<int, const char*> ReadFailureResponse(const beast::error_code& ec) {
  if (ec == http::error::body_limit) return {413, "The request body is too large."};
  if (ec == http::error::header_limit) return {431, "The request headers are too large."};
  if (ec == http::error::end_of_stream || ec == asio::error::operation_aborted ||
      ec == beast::error::timeout || ec == asio::error::connection_reset ||
      ec == asio::error::eof || ec == http::error::partial_message) {
    return {0, nullptr};
  }
  if (ec.category() == http::make_error_code(http::error::bad_target).category()) {
    return {400, "The HTTP request could not be parsed."};
  }
  return {0, nullptr};
}

}  // namespace

class HttpServer::Impl {
 public:
  explicit Impl(ServerLimits limits)
      : limits_(limits),
        io_(std::max(1, limits.threads)),
        acceptor_(asio::make_strand(io_)),
        signals_(io_),
        grace_timer_(io_) {
    if (limits_.workers > 0) {
      workers_ = std::make_unique<asio::thread_pool>(static_cast<std::size_t>(limits_.workers));
    }
  }

  ~Impl() {
    if (workers_) workers_->join();
  }

  core::Result<void> Listen(const std::string& host, std::uint16_t port) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) return core::Error::Invalid("listen", "'" + host + "' is not an IP address.");
    const tcp::endpoint endpoint(address, port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      return core::Error(core::ErrorCode::kUnavailable, "Cannot listen on " + host + ":" +
                                                            std::to_string(port) + ": " +
                                                            ec.message());
    }
    return {};
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void Run(core::HttpHandler& handler) {
    handler_ = &handler;
    if (limits_.handle_signals) {
      signals_.add(SIGINT);
      signals_.add(SIGTERM);
      signals_.async_wait([this](const beast::error_code& ec, int) {
        if (!ec) Stop();
      });
    }
    asio::co_spawn(acceptor_.get_executor(), Accept(), asio::detached);
    std::vector<std::thread> threads;
    for (int i = 1; i < std::max(1, limits_.threads); ++i) threads.emplace_back([this] { io_.run(); });
    io_.run();
    for (auto& t : threads) t.join();
    // Handlers still running on workers (a grace period that ran out) finish before Run
    // returns, so nothing uses the handler after its owner destroys it.
    if (workers_) workers_->join();
  }

  void Stop() {
    asio::post(acceptor_.get_executor(), [this] { BeginShutdown(); });
  }

  void OnShutdown(std::function<void()> hook) { on_shutdown_ = std::move(hook); }

 private:
  void BeginShutdown() {
    if (stopping_.exchange(true)) return;
    core::Log(core::LogLevel::kInfo, "shutting down",
              {{"openConnections", static_cast<std::int64_t>(active_.load())}});
    if (on_shutdown_) on_shutdown_();
    beast::error_code ignored;
    acceptor_.close(ignored);
    signals_.cancel();
    grace_timer_.expires_after(limits_.shutdown_grace);
    grace_timer_.async_wait([this](const beast::error_code& ec) {
      if (!ec) io_.stop();  // grace period over: abandon whatever is still running
    });
    std::lock_guard lock(sessions_mutex_);
    for (const auto& state : sessions_) CloseIfIdle(state);
    if (active_ == 0) grace_timer_.cancel();
  }

  static void CloseIfIdle(const std::shared_ptr<SessionState>& state) {
    asio::post(state->executor, [state] {
      if (state->stream != nullptr && state->idle) state->stream->cancel();
    });
  }

  void SessionEnded(const std::shared_ptr<SessionState>& state) {
    {
      std::lock_guard lock(sessions_mutex_);
      sessions_.erase(state);
    }
    if (--active_ == 0 && stopping_) {
      // On the acceptor's strand, where BeginShutdown set the timer: an asio timer is not safe
      // to use from two threads at once (ThreadSanitizer saw this cancel race its async_wait).
      asio::post(acceptor_.get_executor(), [this] { grace_timer_.cancel(); });
    }
  }

  asio::awaitable<void> Accept() {
    for (;;) {
      beast::error_code ec;
      tcp::socket socket = co_await acceptor_.async_accept(
          asio::make_strand(io_), asio::redirect_error(asio::use_awaitable, ec));
      if (stopping_) co_return;
      if (ec) {
        if (ec == asio::error::operation_aborted) co_return;
        continue;  // e.g. EMFILE: keep serving the connections we have
      }
      if (active_ >= limits_.max_connections) {
        auto executor = socket.get_executor();
        asio::co_spawn(executor, Reject(std::move(socket)), asio::detached);
        continue;
      }
      ++active_;
      auto state = std::make_shared<SessionState>();
      state->executor = socket.get_executor();
      {
        std::lock_guard lock(sessions_mutex_);
        sessions_.insert(state);
      }
      asio::co_spawn(state->executor, Session(std::move(socket), state), asio::detached);
    }
  }

  asio::awaitable<void> Reject(tcp::socket socket) {
    beast::tcp_stream stream(std::move(socket));
    stream.expires_after(std::chrono::seconds(5));
    Response response = ToBeast(
        handler_->RenderTransportError(503, "The server is at its connection limit; retry later."),
        11, false, false);
    beast::error_code ec;
    co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  asio::awaitable<void> Session(tcp::socket socket, std::shared_ptr<SessionState> state) {
    beast::tcp_stream stream(std::move(socket));
    state->stream = &stream;
    beast::error_code ec;
    const auto peer = stream.socket().remote_endpoint(ec);
    const std::string remote = ec ? std::string() : peer.address().to_string();
    beast::flat_buffer buffer;
    try {
      co_await Serve(stream, buffer, *state, remote);
    } catch (const std::exception& e) {
      core::Log(core::LogLevel::kError, "connection failed", {{"reason", e.what()}});
    }
    state->stream = nullptr;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    SessionEnded(state);
  }

  asio::awaitable<void> Serve(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                              SessionState& state, const std::string& remote) {
    for (bool first = true; !stopping_; first = false) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(static_cast<std::uint32_t>(limits_.max_header_bytes));
      parser.body_limit(limits_.max_body_bytes);
      state.idle = buffer.size() == 0;
      stream.expires_after(first || buffer.size() > 0 ? limits_.read_timeout : limits_.idle_timeout);
      beast::error_code ec;
      co_await http::async_read_header(stream, buffer, parser,
                                       asio::redirect_error(asio::use_awaitable, ec));
      state.idle = false;
      if (!ec && parser.get()[http::field::expect] == "100-continue") {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        co_await http::async_write(stream, go_on, asio::redirect_error(asio::use_awaitable, ec));
      }
      if (!ec) {
        stream.expires_after(limits_.read_timeout);
        co_await http::async_read(stream, buffer, parser,
                                  asio::redirect_error(asio::use_awaitable, ec));
      }
      if (ec) {
        co_await AnswerReadFailure(stream, ec);
        co_return;
      }
      const Request& request = parser.get();
      core::HttpResponse answer = co_await Answer(ToPlain(request, remote));
      if (answer.stream) {
        co_await WriteStream(stream, std::move(answer), request.version());
        co_return;  // a streamed response ends its connection
      }
      const bool keep_alive = request.keep_alive() && !stopping_;
      Response response = ToBeast(std::move(answer), request.version(), keep_alive,
                                  request.method() == http::verb::head);
      stream.expires_after(limits_.read_timeout);
      co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
      if (ec || !keep_alive) co_return;
    }
  }

  // Asks the handler and waits for its answer without holding the I/O thread: an answer that
  // comes later (ingestion, after its commit) is posted back to this connection's strand.
  asio::awaitable<core::HttpResponse> AwaitAnswer(const core::HttpRequest& request) {
    co_return co_await asio::async_initiate<const asio::use_awaitable_t<>&,
                                            void(core::HttpResponse)>(
        [this, &request](auto handler) {
          auto pending = std::make_shared<decltype(handler)>(std::move(handler));
          handler_->HandleAsync(request, [pending](core::HttpResponse response) {
            auto executor = asio::get_associated_executor(*pending);
            asio::post(executor, [pending, response = std::move(response)]() mutable {
              (*pending)(std::move(response));
            });
          });
        },
        asio::use_awaitable);
  }

  // Runs the handler on the I/O thread, or on the worker pool when the store blocks (a
  // database round trip must never stall the connections an I/O thread serves).
  asio::awaitable<core::HttpResponse> Answer(core::HttpRequest request) {
    if (!workers_) co_return co_await AwaitAnswer(request);
    co_return co_await asio::co_spawn(
        workers_->get_executor(),
        [this, &request]() -> asio::awaitable<core::HttpResponse> {
          co_return co_await AwaitAnswer(request);
        },
        asio::use_awaitable);
  }

  // Sends a streaming response with chunked encoding: the headers, then whatever the stream
  // yields at its poll interval, until it ends, the client leaves or the server shuts down.
  asio::awaitable<void> WriteStream(beast::tcp_stream& stream, core::HttpResponse answer,
                                    unsigned version) {
    http::response<http::empty_body> head{static_cast<http::status>(answer.status), version};
    head.set(http::field::server, "sightline");
    for (auto& [name, value] : answer.headers.fields()) head.insert(name, value);
    head.keep_alive(false);
    head.chunked(true);
    http::response_serializer<http::empty_body> serializer{head};
    beast::error_code ec;
    stream.expires_after(limits_.read_timeout);
    co_await http::async_write_header(stream, serializer,
                                      asio::redirect_error(asio::use_awaitable, ec));
    asio::steady_timer timer(stream.get_executor());
    while (!ec && !stopping_) {
      timer.expires_after(answer.stream->poll_interval());
      co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      if (ec || stopping_) break;
      // Polling may read the database: on the worker pool when there is one, as for handlers.
      std::optional<std::string> chunk;
      if (workers_) {
        chunk = co_await asio::co_spawn(
            workers_->get_executor(),
            [&answer]() -> asio::awaitable<std::optional<std::string>> {
              co_return answer.stream->Poll();
            },
            asio::use_awaitable);
      } else {
        chunk = answer.stream->Poll();
      }
      if (!chunk) break;
      if (chunk->empty()) continue;
      stream.expires_after(limits_.read_timeout);
      co_await asio::async_write(stream, http::make_chunk(asio::buffer(*chunk)),
                                 asio::redirect_error(asio::use_awaitable, ec));
    }
    beast::error_code ignored;
    stream.expires_after(std::chrono::seconds(5));
    co_await asio::async_write(stream, http::make_chunk_last(),
                               asio::redirect_error(asio::use_awaitable, ignored));
  }

  asio::awaitable<void> AnswerReadFailure(beast::tcp_stream& stream, const beast::error_code& ec) {
    const auto [status, reason] = ReadFailureResponse(ec);
    if (status == 0) co_return;
    Response response = ToBeast(handler_->RenderTransportError(status, reason), 11, false, false);
    beast::error_code write_ec;
    stream.expires_after(std::chrono::seconds(5));
    co_await http::async_write(stream, response,
                               asio::redirect_error(asio::use_awaitable, write_ec));
  }

  core::HttpHandler* handler_ = nullptr;  // set by Run before any connection is accepted
  const ServerLimits limits_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
  std::function<void()> on_shutdown_;
  asio::steady_timer grace_timer_;
  std::unique_ptr<asio::thread_pool> workers_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> active_{0};
  std::mutex sessions_mutex_;
  std::set<std::shared_ptr<SessionState>> sessions_;
};

HttpServer::HttpServer(ServerLimits limits) : impl_(std::make_unique<Impl>(limits)) {}
HttpServer::~HttpServer() = default;
core::Result<void> HttpServer::Listen(const std::string& host, std::uint16_t port) {
  return impl_->Listen(host, port);
}
std::uint16_t HttpServer::port() const { return impl_->port(); }
void HttpServer::Run(core::HttpHandler& handler) { impl_->Run(handler); }
void HttpServer::Stop() { impl_->Stop(); }
void HttpServer::OnShutdown(std::function<void()> hook) { impl_->OnShutdown(std::move(hook)); }

}  // namespace sightline::net
