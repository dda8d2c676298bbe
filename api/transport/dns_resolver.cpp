#include "api/transport/dns_resolver.h"

#include "core/ip_address.h"

#include <ares.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/select.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace sightline::api {

using detection::DnsAnswer;
using Callback = std::function<void(DnsAnswer)>;

struct AresResolver::Impl {
  ares_channel channel = nullptr;
  int wake[2] = {-1, -1};  // a self-pipe: submissions wake the loop
  std::mutex mutex;
  std::deque<std::function<void()>> queue;  // c-ares 1.18 channels are single-threaded
  std::atomic<bool> stopping{false};
  std::thread thread;

  ~Impl() {
    if (channel) ares_destroy(channel);  // runs pending callbacks with ARES_EDESTRUCTION
    for (int fd : wake) {
      if (fd >= 0) close(fd);
    }
    ares_library_cleanup();
  }

  void Submit(std::function<void()> work) {
    {
      std::lock_guard lock(mutex);
      queue.push_back(std::move(work));
    }
    const char byte = 1;
    [[maybe_unused]] auto written = write(wake[1], &byte, 1);
  }

  void Loop() {
    while (!stopping) {
      std::deque<std::function<void()>> work;
      {
        std::lock_guard lock(mutex);
        work.swap(queue);
      }
      for (auto& item : work) item();
      fd_set read_fds, write_fds;
      FD_ZERO(&read_fds);
      FD_ZERO(&write_fds);
      int max_fd = ares_fds(channel, &read_fds, &write_fds);
      FD_SET(wake[0], &read_fds);
      max_fd = std::max(max_fd, wake[0] + 1);
      timeval limit{0, 200000};
      timeval* timeout = ares_timeout(channel, &limit, &limit);
      if (select(max_fd, &read_fds, &write_fds, nullptr, timeout) > 0 &&
          FD_ISSET(wake[0], &read_fds)) {
        char drain[64];
        [[maybe_unused]] auto n = read(wake[0], drain, sizeof drain);
      }
      ares_process(channel, &read_fds, &write_fds);
    }
  }
};

namespace {

DnsAnswer Failure(int status) {
  DnsAnswer answer;
  answer.status = status == ARES_ENOTFOUND || status == ARES_ENODATA ? DnsAnswer::Status::kNotFound
                                                                    : DnsAnswer::Status::kFailed;
  return answer;
}

void OnReverse(void* arg, int status, int /*timeouts*/, hostent* host) {
  std::unique_ptr<Callback> done(static_cast<Callback*>(arg));
  if (status != ARES_SUCCESS || host == nullptr) return (*done)(Failure(status));
  DnsAnswer answer;
  answer.status = DnsAnswer::Status::kOk;
  if (host->h_name) answer.values.emplace_back(host->h_name);
  for (char** alias = host->h_aliases; alias && *alias; ++alias) answer.values.emplace_back(*alias);
  (*done)(std::move(answer));
}

void OnForward(void* arg, int status, int /*timeouts*/, ares_addrinfo* result) {
  std::unique_ptr<Callback> done(static_cast<Callback*>(arg));
  if (status != ARES_SUCCESS || result == nullptr) {
    if (result) ares_freeaddrinfo(result);
    return (*done)(Failure(status));
  }
  DnsAnswer answer;
  answer.status = DnsAnswer::Status::kOk;
  for (ares_addrinfo_node* node = result->nodes; node; node = node->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* address =
        node->ai_family == AF_INET
            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(node->ai_addr)->sin_addr)
            : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(node->ai_addr)->sin6_addr);
    if (inet_ntop(node->ai_family, address, text, sizeof text)) answer.values.emplace_back(text);
  }
  ares_freeaddrinfo(result);
  (*done)(std::move(answer));
}

}  // namespace

core::Result<std::unique_ptr<AresResolver>> AresResolver::Create(const std::string& server) {
  if (ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS) {
    return core::Error(core::ErrorCode::kInternal, "c-ares failed to initialize.");
  }
  auto impl = std::make_unique<Impl>();
  ares_options options{};
  options.timeout = 1000;  // ms per try
  options.tries = 2;
  if (ares_init_options(&impl->channel, &options, ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES) !=
      ARES_SUCCESS) {
    return core::Error(core::ErrorCode::kInternal, "c-ares failed to initialize.");
  }
  if (!server.empty() && ares_set_servers_ports_csv(impl->channel, server.c_str()) != ARES_SUCCESS) {
    return core::Error::Invalid("dns-server", "--dns-server must be HOST:PORT, e.g. 127.0.0.1:53.");
  }
  if (pipe(impl->wake) != 0) return core::Error(core::ErrorCode::kInternal, "pipe() failed.");
  std::unique_ptr<AresResolver> resolver(new AresResolver(std::move(impl)));
  resolver->impl_->thread = std::thread([impl = resolver->impl_.get()] { impl->Loop(); });
  return resolver;
}

AresResolver::AresResolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

AresResolver::~AresResolver() {
  impl_->stopping = true;
  impl_->Submit([] {});
  if (impl_->thread.joinable()) impl_->thread.join();
}

void AresResolver::Reverse(const std::string& ip, Callback done) {
  const auto address = core::IpAddress::Parse(ip);
  if (!address) return done(DnsAnswer{});
  impl_->Submit([impl = impl_.get(), address = *address, done = std::move(done)]() mutable {
    auto* callback = new Callback(std::move(done));
    const auto& bytes = address.bytes();
    if (address.is_v4()) {
      ares_gethostbyaddr(impl->channel, bytes.data() + 12, 4, AF_INET, OnReverse, callback);
    } else {
      ares_gethostbyaddr(impl->channel, bytes.data(), 16, AF_INET6, OnReverse, callback);
    }
  });
}

void AresResolver::Forward(const std::string& host, Callback done) {
  impl_->Submit([impl = impl_.get(), host, done = std::move(done)]() mutable {
    ares_addrinfo_hints hints{};
    hints.ai_family = AF_UNSPEC;
    ares_getaddrinfo(impl->channel, host.c_str(), nullptr, &hints, OnForward,
                     new Callback(std::move(done)));
  });
}

}  // namespace sightline::api
