// The outbound HTTPS client that fetches Web Bot Auth key directories, OAuth client metadata
// documents and vendors' range lists. A directory's or a client's URL comes from a request
// anyone can send, so it is fetched defensively: https only, never redirected, only to global
// addresses (the resolved address is checked and then connected to, so a DNS answer cannot
// swap in a private one), bounded in time, size and concurrency. Fetches run on the fetcher's
// own thread; ingestion never waits.
#pragma once

#include "core/url_fetcher.h"
#include "detection/reverse_dns.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace sightline::api {

struct HttpsFetcherOptions {
  // Tests serve directories on loopback; production never should.
  bool allow_private_addresses = false;
  std::string ca_file;  // extra trusted CA certificates (PEM), beside the system's
  std::chrono::milliseconds timeout{5000};
  std::size_t max_bytes = 64 * 1024;
  int max_in_flight = 8;  // more at once fail fast (the directory retries after its back-off)
  std::vector<std::string> media_types;  // accepted Content-Types; empty: any
  // Resolves host names, bounded in time (c-ares: the server's AresResolver). Without one, the
  // names go to Asio's resolver, whose getaddrinfo has no timeout and runs one lookup at a time:
  // a host whose DNS never answers would hold the fetch slots.
  detection::DnsResolver* resolver = nullptr;
};

class HttpsFetcher final : public core::UrlFetcher {
 public:
  explicit HttpsFetcher(HttpsFetcherOptions options);
  ~HttpsFetcher() override;
  void Fetch(const std::string& url,
             std::function<void(core::Result<std::string> body)> done) override;

 private:
  struct Impl;
  struct Guard;
  std::unique_ptr<Impl> impl_;
  std::shared_ptr<Guard> guard_;
};

}  // namespace sightline::api
