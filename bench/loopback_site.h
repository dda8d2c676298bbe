// A generated web site served on 127.0.0.1 for bench/crawl_bench: N HTML pages of 10–30 KB with
// a title, a meta description, a canonical, an h1, images, JSON-LD and 20–40 internal links each,
// a few links to "another site" (the same server named `localhost`, which the crawler treats as
// external), robots.txt, sitemap.xml (listing nine pages in ten; the rest are found by links) and
// llms.txt. Deterministic for a given page count and port.
//
// The server is the plainest HTTP/1.1 origin: POSIX sockets, a thread per connection, keep-alive,
// every answer prepared in memory before the first request. It counts the requests it answers
// and how often each page was asked for. Thread-safe; Stop (or the destructor) ends it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace sightline::bench {

struct SiteResource {
  std::string get;   // the whole answer to GET: head and body
  std::string head;  // the answer to HEAD
  int page = -1;     // index into LoopbackSite::page_urls, -1 for the other files
};

struct LoopbackSite {
  std::string origin;                      // "http://127.0.0.1:PORT"
  std::vector<std::string> page_urls;      // absolute; [0] is the home page, the crawl's start URL
  std::vector<std::string> page_html;      // the pages' bodies, in the same order
  std::vector<std::string> external_urls;  // "http://localhost:PORT/ext/…"
  std::unordered_map<std::string, SiteResource> resources;  // by path
  std::size_t html_bytes = 0;
  std::size_t internal_links = 0, external_links = 0;  // <a href>s over all pages
};

// REQUIRES: pages >= 20.
LoopbackSite GenerateSite(int pages, unsigned short port);

class LoopbackServer {
 public:
  // Binds 127.0.0.1 on a free port; answers nothing until Serve. Throws std::runtime_error when
  // the socket cannot be bound.
  LoopbackServer();
  ~LoopbackServer();
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  unsigned short port() const { return port_; }
  // Starts accepting; `site` must outlive the server.
  void Serve(const LoopbackSite& site);
  void Stop();

  // Requests answered and page requests, since the last ResetCounts.
  std::int64_t requests() const { return requests_; }
  // Pages asked for more than once (with GET or HEAD).
  std::int64_t pages_fetched_twice() const;
  void ResetCounts();

 private:
  void AcceptLoop();
  void Session(int fd);
  const SiteResource* Find(const std::string& target) const;

  int listen_fd_ = -1;
  unsigned short port_ = 0;
  const LoopbackSite* site_ = nullptr;
  std::unique_ptr<std::atomic<int>[]> hits_;
  std::atomic<std::int64_t> requests_{0};
  std::thread acceptor_;
  std::mutex mutex_;
  std::condition_variable idle_;
  std::set<int> connections_;  // open connection sockets, shut down by Stop
  bool stopping_ = false;
};

}  // namespace sightline::bench
