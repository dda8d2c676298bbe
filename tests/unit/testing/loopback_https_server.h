// Test helper: an HTTPS server on 127.0.0.1 (port 0) with a fresh self-signed certificate for
// 127.0.0.1 (made by the openssl command, in a mkdtemp directory removed on destruction). It
// answers <path> with the status and body Put() for that path (404 otherwise), each after
// `delay`, and counts the connections open at once, so a test can check a client's concurrency
// limit. The head always carries the body's Content-Length; the body itself is left out of
// answers to HEAD and of 204 and 304 answers, as HTTP has it. Blocking OpenSSL, one thread per
// connection. Header-only, like temp_store.h.
//
// Thread-safety: Put() and KeepConnectionsOpen() before the requests that need them; the
// accessors from any thread.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace sightline::testutil {

class LoopbackHttpsServer {
 public:
  explicit LoopbackHttpsServer(std::chrono::milliseconds delay = {}) : delay_(delay) {
    // A client that gives up mid-answer must not end the test binary with SIGPIPE.
    signal(SIGPIPE, SIG_IGN);
    std::string pattern =
        (std::filesystem::temp_directory_path() / "sightline-https-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) return;
    dir_ = pattern;
    const std::string command =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext "
        "subjectAltName=IP:127.0.0.1 -keyout " +
        (dir_ / "key.pem").string() + " -out " + ca_file() + " 2>/dev/null";
    if (std::system(command.c_str()) != 0) return;
    tls_ = SSL_CTX_new(TLS_server_method());
    if (SSL_CTX_use_certificate_file(tls_, ca_file().c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_use_PrivateKey_file(tls_, (dir_ / "key.pem").c_str(), SSL_FILETYPE_PEM) != 1) {
      return;
    }
    if (!Listen()) return;
    acceptor_ = std::thread([this] { AcceptLoop(); });
  }

  ~LoopbackHttpsServer() {
    stopping_ = true;
    if (listener_ >= 0) shutdown(listener_, SHUT_RDWR);  // wakes accept()
    if (acceptor_.joinable()) acceptor_.join();
    if (listener_ >= 0) close(listener_);
    for (std::thread& connection : connections_) connection.join();
    if (tls_ != nullptr) SSL_CTX_free(tls_);
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }
  LoopbackHttpsServer(const LoopbackHttpsServer&) = delete;
  LoopbackHttpsServer& operator=(const LoopbackHttpsServer&) = delete;

  bool ok() const { return acceptor_.joinable(); }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  std::string ca_file() const { return (dir_ / "cert.pem").string(); }
  void Put(const std::string& path, std::string body, int status = 200) {
    std::lock_guard lock(mutex_);
    answers_[path] = {status, std::move(body)};
  }
  // From now on, a connection stays open after its answer until the client closes it (or 5 s
  // pass), as a keep-alive server's would: a client waiting for more than the answer stalls.
  void KeepConnectionsOpen() { keep_open_ = true; }
  int most_at_once() const { return most_at_once_; }
  int answered() const { return answered_; }

 private:
  bool Listen() {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        listen(listener_, 64) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return false;
    }
    port_ = ntohs(address.sin_port);
    return true;
  }

  void AcceptLoop() {
    while (!stopping_) {
      const int fd = accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;  // shut down (stopping_) or interrupted
      // A peer that never sends must not hold the destructor for long.
      timeval limit{5, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
      connections_.emplace_back([this, fd] { Serve(fd); });
    }
  }

  void Serve(int fd) {
    SSL* ssl = SSL_new(tls_);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      const auto [method, path] = ReadRequestLine(ssl);
      // Counted from the request to just before its answer: a client frees a slot only once it
      // has the answer, so this is exactly how many of its fetches were under way at once (a
      // connection's teardown after the answer would race with the next one's start).
      const int open = ++open_;
      // Raises the maximum seen without a lock (another request may be raising it too).
      for (int most = most_at_once_;
           open > most && !most_at_once_.compare_exchange_weak(most, open);) {
      }
      std::this_thread::sleep_for(delay_);
      const std::string response = ResponseFor(method, path);
      --open_;
      // Counted before the write: a client may read its answer (and a test count the answers)
      // before this thread returns from SSL_write.
      ++answered_;
      SSL_write(ssl, response.data(), static_cast<int>(response.size()));
      char ignored[256];
      while (keep_open_ && SSL_read(ssl, ignored, sizeof ignored) > 0) {
      }
      SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    close(fd);
  }

  struct Answer {
    int status = 200;
    std::string body;
  };

  // The method and target of the request line, once the whole head has arrived (both empty on
  // failure).
  static std::pair<std::string, std::string> ReadRequestLine(SSL* ssl) {
    std::string head;
    char buffer[1024];
    while (head.find("\r\n\r\n") == std::string::npos) {
      const int read = SSL_read(ssl, buffer, sizeof buffer);
      if (read <= 0) return {};
      head.append(buffer, static_cast<std::size_t>(read));
    }
    const auto start = head.find(' ') + 1;
    return {head.substr(0, start - 1), head.substr(start, head.find(' ', start) - start)};
  }

  std::string ResponseFor(const std::string& method, const std::string& path) {
    Answer answer{404, ""};
    {
      std::lock_guard lock(mutex_);
      const auto found = answers_.find(path);
      if (found != answers_.end()) answer = found->second;
    }
    const bool bodiless = method == "HEAD" || answer.status == 204 || answer.status == 304;
    return "HTTP/1.1 " + std::to_string(answer.status) + " " + Reason(answer.status) +
           "\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(answer.body.size()) + "\r\n" +
           (keep_open_ ? "" : "Connection: close\r\n") + "\r\n" + (bodiless ? "" : answer.body);
  }

  static std::string Reason(int status) {
    switch (status) {
      case 200:
        return "OK";
      case 204:
        return "No Content";
      case 304:
        return "Not Modified";
      case 404:
        return "Not Found";
      default:
        return "Status";
    }
  }

  const std::chrono::milliseconds delay_;
  std::filesystem::path dir_;
  SSL_CTX* tls_ = nullptr;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false}, keep_open_{false};
  std::atomic<int> open_{0}, most_at_once_{0}, answered_{0};
  std::mutex mutex_;
  std::map<std::string, Answer> answers_;
  std::thread acceptor_;
  std::vector<std::thread> connections_;  // only the acceptor adds; joined after it stops
};

}  // namespace sightline::testutil
