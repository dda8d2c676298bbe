// The outbound HTTPS client that fetches Web Bot Auth key directories, OAuth client metadata
// documents and vendors' range lists. A directory's or a client's URL comes from a request
// anyone can send, so it is fetched defensively: https only, never redirected, only to global
// addresses (the resolved address is checked and then connected to, so a DNS answer cannot
// swap in a private one), bounded in time, size and concurrency. Fetches run on the fetcher's
// own thread; ingestion never waits. Thread-safe: Fetch may be called from any thread.
#pragma once

#include "core/url_fetcher.h"
#include "detection/reverse_dns.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace sightline::net {

struct HttpsFetcherOptions {
  // Tests serve directories on loopback; production never should.
  bool allow_private_addresses = false;
  std::string ca_file;  // extra trusted CA certificates (PEM), beside the system's
  std::chrono::milliseconds timeout{5000};
  std::size_t max_bytes = 64 * 1024;
  // Connections at once; further fetches wait in a queue and start as slots free (a refresh
  // asks for all 17 range lists at once). Only beyond `max_queued` waiting is a fetch refused.
  int max_in_flight = 8;
  std::size_t max_queued = 1024;
  std::vector<std::string> media_types;  // accepted Content-Types; empty: any
  // Resolves host names, bounded in time (c-ares: the server's AresResolver). Without one, the
  // names go to Asio's resolver, whose getaddrinfo has no timeout and runs one lookup at a time:
  // a host whose DNS never answers would hold the fetch slots.
  detection::DnsResolver* resolver = nullptr;
};

class HttpsFetcher final : public core::UrlFetcher {
 public:
  // Throws std::exception when `options.ca_file` is not a readable PEM file.
  explicit HttpsFetcher(HttpsFetcherOptions options);
  // Stop()s first.
  ~HttpsFetcher() override;
  // `done` is called exactly once: with the body, a failure, or kUnavailable when the queue is
  // full or the fetcher has stopped (then before Fetch returns, on the calling thread).
  void Fetch(const std::string& url,
             std::function<void(core::Result<std::string> body)> done) override;
  // Refuses new fetches, abandons those queued or under way and answers each with kUnavailable
  // before returning, on the calling thread. Call it while the objects the pending callbacks
  // reach still exist. Idempotent.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sightline::net
