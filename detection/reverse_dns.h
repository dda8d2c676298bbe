// Forward-confirmed reverse DNS (FCrDNS): the names an IP's PTR records give, kept only when a
// forward lookup of the name returns the same IP. How crawlers without published IP lists are
// verified (the catalog's `rdns_suffixes`).
//
// Lookups never wait for the network: an IP seen for the first time starts an asynchronous
// resolution through the injected resolver and answers "unknown"; the result is cached (a
// confirmed name for an hour, a refuted one for ten minutes), and a resolver failure (timeout,
// SERVFAIL) gives no verdict and is retried after a minute. Thread-safe.
#pragma once

#include "core/clock.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sightline::detection {

struct DnsAnswer {
  enum class Status { kOk, kNotFound, kFailed };
  Status status = Status::kFailed;
  // PTR names, addresses in canonical text form, or TXT values (bytes, one per record)
  std::vector<std::string> values;
};

// Asynchronous DNS; implemented by the transport layer (c-ares). `done` is called exactly once,
// from any thread. kNotFound only when the server says there is no such name or record
// (NXDOMAIN, or an empty answer); kFailed for any other failure, a timeout included.
class DnsResolver {
 public:
  virtual ~DnsResolver() = default;
  virtual void Reverse(const std::string& ip, std::function<void(DnsAnswer)> done) = 0;
  virtual void Forward(const std::string& host, std::function<void(DnsAnswer)> done) = 0;
  // The TXT records of `name` (site-ownership proofs): one value per record, its
  // character-strings joined without separators (as RFC 7208 section 3.3 reads them), the bytes
  // as they came. This default, for resolvers that do not look TXT records up, answers kFailed.
  virtual void Text(const std::string& /*name*/, std::function<void(DnsAnswer)> done) {
    done(DnsAnswer{.status = DnsAnswer::Status::kFailed});
  }
};

struct ReverseDnsOptions {
  std::int64_t confirmed_ttl_millis = 60 * 60 * 1000;
  std::int64_t refuted_ttl_millis = 10 * 60 * 1000;
  std::int64_t retry_millis = 60 * 1000;
  std::size_t max_entries = 100000;  // IPs remembered; beyond, new ones go unchecked
};

class ReverseDnsVerifier {
 public:
  ReverseDnsVerifier(DnsResolver* resolver, const core::Clock& clock,
                     ReverseDnsOptions options = {});

  // The forward-confirmed names of `ip` (possibly none), or nullopt while unknown.
  std::optional<std::vector<std::string>> ConfirmedNames(const std::string& ip);

 private:
  struct Entry {
    std::optional<std::vector<std::string>> names;
    std::int64_t valid_until = 0;
    std::int64_t retry_after = 0;
    bool resolving = false;
  };
  struct State {
    const core::Clock& clock;
    const ReverseDnsOptions options;
    DnsResolver* resolver;
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
  };
  static void Resolve(std::shared_ptr<State> state, const std::string& ip);
  static void Finish(State& state, const std::string& ip,
                     std::optional<std::vector<std::string>> names);

  std::shared_ptr<State> state_;
};

// True when `host` is `suffix` without its leading dot, or ends with `suffix` (".googlebot.com").
bool HostMatchesSuffix(std::string_view host, std::string_view suffix);

}  // namespace sightline::detection
