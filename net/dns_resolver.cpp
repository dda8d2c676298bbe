#include "net/dns_resolver.h"

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

namespace sightline::net {

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

constexpr int kClassIn = 1;
constexpr int kTypeA = 1;
constexpr int kTypePtr = 12;
constexpr int kTypeTxt = 16;
constexpr int kTypeAaaa = 28;

// The queries are made record by record (not with ares_gethostbyaddr/ares_getaddrinfo, which
// report any failure as "not found"): only NXDOMAIN and an empty answer mean "no such record";
// a timeout or a refused server means "unknown", so it can never refute a genuine crawler.
DnsAnswer Failure(int status) {
  DnsAnswer answer;
  answer.status = status == ARES_ENOTFOUND || status == ARES_ENODATA ? DnsAnswer::Status::kNotFound
                                                                    : DnsAnswer::Status::kFailed;
  return answer;
}

std::string ReverseName(const core::IpAddress& address) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto& bytes = address.bytes();
  std::string name;
  if (address.is_v4()) {
    for (int i = 15; i >= 12; --i) name += std::to_string(bytes[i]) + ".";
    return name + "in-addr.arpa";
  }
  for (int i = 15; i >= 0; --i) {
    name += kHex[bytes[i] & 0xF];
    name += '.';
    name += kHex[bytes[i] >> 4];
    name += '.';
  }
  return name + "ip6.arpa";
}

struct PtrQuery {
  Callback done;
  core::IpAddress address;
};

void OnPtr(void* arg, int status, int /*timeouts*/, unsigned char* reply, int length) {
  std::unique_ptr<PtrQuery> query(static_cast<PtrQuery*>(arg));
  if (status != ARES_SUCCESS) return query->done(Failure(status));
  const auto& bytes = query->address.bytes();
  const bool v4 = query->address.is_v4();
  hostent* host = nullptr;
  const int parsed = ares_parse_ptr_reply(reply, length, v4 ? bytes.data() + 12 : bytes.data(),
                                          v4 ? 4 : 16, v4 ? AF_INET : AF_INET6, &host);
  if (parsed != ARES_SUCCESS || host == nullptr) return query->done(Failure(parsed));
  DnsAnswer answer;
  answer.status = DnsAnswer::Status::kOk;
  if (host->h_name) answer.values.emplace_back(host->h_name);
  for (char** alias = host->h_aliases; alias && *alias; ++alias) answer.values.emplace_back(*alias);
  ares_free_hostent(host);
  query->done(std::move(answer));
}

// A and AAAA asked separately; the answer is given when both are back.
struct ForwardQuery {
  Callback done;
  int pending = 2;
  bool failed = false;
  bool found = false;
  std::vector<std::string> addresses;
};

void OnAddresses(void* arg, int status, unsigned char* reply, int length, bool v6) {
  auto* query = static_cast<ForwardQuery*>(arg);
  if (status == ARES_SUCCESS) {
    char text[INET6_ADDRSTRLEN] = {};
    if (v6) {
      ares_addr6ttl records[16];
      int count = 16;
      if (ares_parse_aaaa_reply(reply, length, nullptr, records, &count) == ARES_SUCCESS) {
        for (int i = 0; i < count; ++i) {
          if (inet_ntop(AF_INET6, &records[i].ip6addr, text, sizeof text)) {
            query->addresses.emplace_back(text);
          }
        }
      }
    } else {
      ares_addrttl records[16];
      int count = 16;
      if (ares_parse_a_reply(reply, length, nullptr, records, &count) == ARES_SUCCESS) {
        for (int i = 0; i < count; ++i) {
          if (inet_ntop(AF_INET, &records[i].ipaddr, text, sizeof text)) {
            query->addresses.emplace_back(text);
          }
        }
      }
    }
    query->found = true;
  } else if (Failure(status).status == DnsAnswer::Status::kFailed) {
    query->failed = true;
  }
  if (--query->pending > 0) return;
  std::unique_ptr<ForwardQuery> owned(query);
  DnsAnswer answer;
  if (!owned->addresses.empty()) {
    answer.status = DnsAnswer::Status::kOk;
    answer.values = std::move(owned->addresses);
  } else {
    answer.status = owned->failed ? DnsAnswer::Status::kFailed : DnsAnswer::Status::kNotFound;
  }
  owned->done(std::move(answer));
}

void OnA(void* arg, int status, int, unsigned char* reply, int length) {
  OnAddresses(arg, status, reply, length, false);
}
void OnAaaa(void* arg, int status, int, unsigned char* reply, int length) {
  OnAddresses(arg, status, reply, length, true);
}

// One value per TXT record: c-ares gives each character-string as a chunk, `record_start` on the
// first of a record's.
void OnTxt(void* arg, int status, int /*timeouts*/, unsigned char* reply, int length) {
  std::unique_ptr<Callback> done(static_cast<Callback*>(arg));
  if (status != ARES_SUCCESS) return (*done)(Failure(status));
  ares_txt_ext* chunks = nullptr;
  // ENODATA (kNotFound) when the answer holds no TXT record, e.g. only a CNAME.
  const int parsed = ares_parse_txt_reply_ext(reply, length, &chunks);
  if (parsed != ARES_SUCCESS) return (*done)(Failure(parsed));
  DnsAnswer answer;
  answer.status = DnsAnswer::Status::kOk;
  for (const ares_txt_ext* chunk = chunks; chunk != nullptr; chunk = chunk->next) {
    if (chunk->record_start || answer.values.empty()) answer.values.emplace_back();
    answer.values.back().append(reinterpret_cast<const char*>(chunk->txt), chunk->length);
  }
  ares_free_data(chunks);
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
    const std::string name = ReverseName(address);
    ares_query(impl->channel, name.c_str(), kClassIn, kTypePtr, OnPtr,
               new PtrQuery{std::move(done), address});
  });
}

void AresResolver::Forward(const std::string& host, Callback done) {
  impl_->Submit([impl = impl_.get(), host, done = std::move(done)]() mutable {
    auto* query = new ForwardQuery{std::move(done)};
    ares_query(impl->channel, host.c_str(), kClassIn, kTypeA, OnA, query);
    ares_query(impl->channel, host.c_str(), kClassIn, kTypeAaaa, OnAaaa, query);
  });
}

void AresResolver::Text(const std::string& name, Callback done) {
  impl_->Submit([impl = impl_.get(), name, done = std::move(done)]() mutable {
    ares_query(impl->channel, name.c_str(), kClassIn, kTypeTxt, OnTxt,
               new Callback(std::move(done)));
  });
}

}  // namespace sightline::net
