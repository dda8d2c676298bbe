// The baseline for bench/http_bench.sh: the least a Beast coroutine server can do per request
// (parse, answer a fixed JSON body of the same size as get_project's, keep-alive). Sightline's
// figure next to this one shows what routing, authentication, the store and JSON cost.
// Usage: bare_http_server PORT THREADS
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

const std::string kBody(306, 'x');

asio::awaitable<void> Session(tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    beast::error_code ec;
    http::request<http::string_body> request;
    co_await http::async_read(stream, buffer, request, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    http::response<http::string_body> response{http::status::ok, request.version()};
    response.set(http::field::content_type, "application/json");
    response.keep_alive(request.keep_alive());
    response.body() = kBody;
    response.prepare_payload();
    co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
    if (ec || !request.keep_alive()) co_return;
  }
}

asio::awaitable<void> Accept(tcp::acceptor& acceptor, asio::io_context& io) {
  for (;;) {
    tcp::socket socket = co_await acceptor.async_accept(asio::make_strand(io), asio::use_awaitable);
    auto executor = socket.get_executor();
    asio::co_spawn(executor, Session(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto port = static_cast<unsigned short>(argc > 1 ? std::atoi(argv[1]) : 8090);
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  asio::io_context io(threads);
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::co_spawn(io, Accept(acceptor, io), asio::detached);
  std::printf("ready on %u\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
}
