// The HTTP/1.1 server on Boost.Beast with C++20 coroutines: keep-alive, limits on header and
// body size, read and idle timeouts, a cap on concurrent connections, and graceful shutdown
// (stop accepting, close idle connections, let in-flight requests finish within a grace
// period). This header is Beast-free; all Asio/Beast code stays in net/*.cpp.
//
// Thread-safety: Listen and Run are called once, from one thread; Stop may be called from any
// thread (and SIGINT/SIGTERM call it when `handle_signals` is set).
#pragma once

#include "core/http_types.h"
#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace sightline::net {

struct ServerLimits {
  std::size_t max_body_bytes = 5 * 1024 * 1024;
  std::size_t max_header_bytes = 16 * 1024;
  std::chrono::seconds read_timeout{30};   // to receive one whole request once it has begun
  std::chrono::seconds idle_timeout{75};   // between requests on a keep-alive connection
  std::size_t max_connections = 10000;
  std::chrono::seconds shutdown_grace{20};
  int threads = 2;
  // Threads that run the handler, so a handler blocked on a database round trip never stalls
  // an I/O thread. 0 runs handlers inline on the I/O threads (right for an in-process store).
  int workers = 0;
  bool handle_signals = true;
};

class HttpServer {
 public:
  explicit HttpServer(ServerLimits limits);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; port 0 picks a free port (see port()).
  core::Result<void> Listen(const std::string& host, std::uint16_t port);
  std::uint16_t port() const;
  // Serves requests with `handler` until Stop() (or a signal); returns once every connection
  // has closed. The handler is passed here, not at construction, so it can be built after
  // Listen() has chosen the port.
  void Run(core::HttpHandler& handler);
  void Stop();
  // Called once when shutdown begins (before the grace period), from an I/O thread: for work
  // that should wind down rather than run out the grace period (the assistant's answers).
  void OnShutdown(std::function<void()> hook);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sightline::net
