#include "loopback_site.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <random>
#include <stdexcept>
#include <string_view>

namespace sightline::bench {
namespace {

constexpr const char* kWords[] = {
    "analytics", "audit",    "browser",  "cache",     "canonical", "checkout",   "cloud",
    "content",   "crawler",  "customer", "dashboard", "data",      "delivery",   "design",
    "developer", "device",   "domain",   "edge",      "engine",    "event",      "export",
    "feature",   "fast",     "guide",    "growth",    "header",    "index",      "insight",
    "install",   "journey",  "keyword",  "latency",   "launch",    "layout",     "link",
    "mobile",    "metric",   "network",  "offline",   "order",     "page",       "partner",
    "pipeline",  "platform", "pricing",  "privacy",   "product",   "query",      "ranking",
    "release",   "report",   "request",  "search",    "secure",    "server",     "session",
    "signal",    "simple",   "sitemap",  "snippet",   "storage",   "stream",     "team",
    "traffic",   "update",   "upgrade",  "user",      "visitor",   "visibility", "workflow",
    "the",       "a",        "of",       "and",       "to",        "with",       "for",
    "your",      "our",      "every",    "better",    "new",       "how",        "why"};
constexpr int kWordCount = sizeof kWords / sizeof kWords[0];
constexpr const char* kSections[] = {"blog", "docs", "products", "guides"};
constexpr const char* kFixed[] = {"about", "contact", "pricing", "careers", "privacy", "terms"};
constexpr int kFirstArticle = 11;  // 0 home, 1–4 section indexes, 5–10 the fixed pages
constexpr int kExternalPool = 25;

std::string Words(std::mt19937& rng, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ' ';
    out += kWords[rng() % kWordCount];
  }
  return out;
}

std::string Capitalized(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::string Sentence(std::mt19937& rng) { return Capitalized(Words(rng, 8 + rng() % 11)) + ". "; }

std::string Slug(const std::string& title) {
  std::string out;
  for (char c : title) out += c == ' ' ? '-' : c;
  return out;
}

std::string Path(int page, const std::string& title) {
  if (page == 0) return "/";
  if (page < 5) return std::string("/") + kSections[page - 1] + "/";
  if (page < kFirstArticle) return std::string("/") + kFixed[page - 5];
  return std::string("/") + kSections[page % 4] + "/" + Slug(title) + "-" + std::to_string(page);
}

std::string Answer(int status, std::string_view type, const std::string& body, bool with_body) {
  char etag[32];
  std::snprintf(etag, sizeof etag, "%016zx", std::hash<std::string>{}(body));
  std::string out = "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Not Found") +
                    "\r\nServer: crawl-bench\r\nDate: Mon, 23 Nov 2026 10:00:00 GMT\r\n"
                    "Content-Type: " +
                    std::string(type) + "\r\nContent-Length: " + std::to_string(body.size()) +
                    "\r\nLast-Modified: Mon, 02 Nov 2026 08:00:00 GMT\r\nETag: \"" + etag +
                    "\"\r\nCache-Control: max-age=300\r\n\r\n";
  if (with_body) out += body;
  return out;
}

void Add(LoopbackSite& site, const std::string& path, std::string_view type,
         const std::string& body, int page = -1) {
  site.resources[path] = {Answer(200, type, body, true), Answer(200, type, body, false), page};
}

// The JSON-LD of a page: what its kind of page carries on real sites.
std::string JsonLd(int page, const std::string& url, const std::string& title,
                   const std::string& origin, std::mt19937& rng) {
  const std::string image = origin + "/img/" + std::to_string(page) + "-0.jpg";
  std::string item;
  if (page == 0) {
    item = R"({"@context":"https://schema.org","@type":"Organization","name":"Example Store",)"
           R"("url":")" +
           origin + R"(/","logo":")" + origin + R"(/assets/logo.svg"})";
  } else if (page >= kFirstArticle && page % 4 == 0) {
    item = R"({"@context":"https://schema.org","@type":"BlogPosting","headline":")" + title +
           R"(","image":")" + image + R"(","datePublished":"2026-0)" +
           std::to_string(1 + rng() % 9) + R"(-1)" + std::to_string(rng() % 10) +
           R"(","dateModified":"2026-10-01","author":{"@type":"Person","name":")" +
           Capitalized(Words(rng, 2)) + R"("}})";
  } else if (page >= kFirstArticle && page % 4 == 2) {
    item = R"({"@context":"https://schema.org","@type":"Product","name":")" + title +
           R"(","image":")" + image + R"(","description":")" + Words(rng, 12) +
           R"(","offers":{"@type":"Offer","price":")" + std::to_string(5 + rng() % 200) +
           R"(.99","priceCurrency":"EUR","availability":"https://schema.org/InStock"}})";
  } else {
    item = R"({"@context":"https://schema.org","@type":"WebPage","name":")" + title + R"("})";
  }
  std::string out = "<script type=\"application/ld+json\">" + item + "</script>\n";
  out += R"(<script type="application/ld+json">{"@context":"https://schema.org",)"
         R"("@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,)"
         R"("name":"Home","item":")" +
         origin + R"(/"},{"@type":"ListItem","position":2,"name":")" + title + R"(","item":")" +
         url + "\"}]}</script>\n";
  return out;
}

struct PageWriter {
  const LoopbackSite& site;
  const std::vector<std::string>& titles;
  std::mt19937 rng;
  std::string out;
  int internal = 0, external = 0;

  void Link(int to, const std::string& text) {
    out += "<a href=\"" + site.page_urls[to].substr(site.origin.size()) + "\">" + text + "</a>";
    ++internal;
  }
  void External(int k) {
    out += "<a href=\"" + site.external_urls[k] + "\" rel=\"noopener\">" + Words(rng, 2) + "</a>";
    ++external;
  }
  int AnyPage() { return static_cast<int>(rng() % site.page_urls.size()); }
  void Image(int page, int k) {
    out += "<img src=\"/img/" + std::to_string(page) + "-" + std::to_string(k) +
           ".jpg\" width=\"800\" height=\"450\" loading=\"lazy\"";
    if (rng() % 10 != 0) out += " alt=\"" + Words(rng, 4) + "\"";  // one in ten without alt
    out += ">\n";
  }
};

void WriteHead(PageWriter& w, int page) {
  const std::string& title = w.titles[page];
  const std::string& url = w.site.page_urls[page];
  w.out +=
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      title + " | Example Store</title>\n<meta name=\"description\" content=\"" +
      Capitalized(Words(w.rng, 18 + w.rng() % 8)) + ".\">\n<link rel=\"canonical\" href=\"" + url +
      "\">\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n"
      "<link rel=\"icon\" href=\"/favicon.ico\">\n<meta property=\"og:title\" content=\"" +
      title + "\">\n<meta property=\"og:image\" content=\"" + w.site.origin + "/img/" +
      std::to_string(page) + "-0.jpg\">\n" + JsonLd(page, url, title, w.site.origin, w.rng) +
      "<script src=\"/assets/site.js\" defer></script>\n</head>\n<body>\n<header>";
  w.Link(0, "<img src=\"/assets/logo.svg\" alt=\"Example Store\">");
  w.out += "\n<nav><ul>";
  for (int to = 1; to <= 8; ++to) {
    w.out += "<li>";
    w.Link(to, w.titles[to]);
    w.out += "</li>";
  }
  w.out += "</ul></nav>\n</header>\n<main>\n<nav aria-label=\"breadcrumb\"><ol><li>";
  w.Link(0, "Home");
  w.out += "</li><li>";
  const int section = page >= kFirstArticle ? 1 + page % 4 : 0;
  w.Link(section, w.titles[section]);
  w.out += "</li><li>" + title + "</li></ol></nav>\n<article>\n<h1>" + title + "</h1>\n";
}

// The article: paragraphs up to `bytes`, with the page's inline links, images and subheadings.
void WriteArticle(PageWriter& w, int page, std::size_t bytes, int inline_links) {
  const int images = 3 + static_cast<int>(w.rng() % 6);
  int image = 0, externals = static_cast<int>(w.rng() % 3);
  for (int paragraph = 0; w.out.size() < bytes; ++paragraph) {
    if (paragraph % 5 == 4) w.out += "<h2>" + Capitalized(Words(w.rng, 5)) + "</h2>\n";
    if (paragraph % 3 == 1 && image < images) w.Image(page, image++);
    w.out += "<p>";
    for (int s = 3 + static_cast<int>(w.rng() % 5); s > 0; --s) {
      w.out += Sentence(w.rng);
      if (s == 2 && inline_links > 0) {
        const int to = w.AnyPage();
        w.Link(to, w.titles[to]);
        w.out += ". ";
        --inline_links;
      }
    }
    if (paragraph % 7 == 3 && externals > 0) {
      w.External(static_cast<int>(w.rng() % kExternalPool));
      --externals;
    }
    w.out += "</p>\n";
  }
  if (inline_links > 0) w.out += "<h2>See also</h2>\n<ul>";
  for (; inline_links > 0; --inline_links) {
    const int to = w.AnyPage();
    w.out += "<li>";
    w.Link(to, w.titles[to]);
    w.out += inline_links == 1 ? "</li></ul>\n" : "</li>";
  }
  while (image < images) w.Image(page, image++);
}

std::string PageHtml(const LoopbackSite& site, const std::vector<std::string>& titles, int page,
                     int& internal, int& external) {
  PageWriter w{site, titles, std::mt19937(static_cast<unsigned>(page) * 7919u + 17u), {}};
  w.out.reserve(32 * 1024);
  const int links = 20 + static_cast<int>(w.rng() % 21);  // internal <a href>s on the page
  const std::size_t bytes = 10 * 1024 + w.rng() % (20 * 1024);
  WriteHead(w, page);
  // Fixed: 11 in the header and breadcrumb, 6 related, 2 in the footer.
  WriteArticle(w, page, bytes - 1500, std::max(1, links - w.internal - 8));
  w.out += "</article>\n<aside><h2>Related</h2><ul>";
  for (int i = 0; i < 6; ++i) {
    const int to = w.AnyPage();
    w.out += "<li>";
    w.Link(to, w.titles[to]);
    w.out += "</li>";
  }
  w.out += "</ul></aside>\n</main>\n<footer><p>&copy; 2026 Example Store. ";
  w.Link(9, "Privacy");
  w.out += " ";
  w.Link(10, "Terms");
  w.out += " Follow us: ";
  w.External(0);
  w.out += " ";
  w.External(1);
  w.out += "</p></footer>\n</body>\n</html>\n";
  internal = w.internal;
  external = w.external;
  return std::move(w.out);
}

void AddSiteFiles(LoopbackSite& site) {
  Add(site, "/robots.txt", "text/plain",
      "User-agent: *\nDisallow: /cart\nDisallow: /search\nAllow: /\n\nUser-agent: GPTBot\n"
      "Disallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nSitemap: " +
          site.origin + "/sitemap.xml\n");
  std::string sitemap =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (std::size_t i = 0; i < site.page_urls.size(); ++i) {
    if (i % 10 == 9) continue;  // left out: the crawl finds these by their links
    sitemap += "<url><loc>" + site.page_urls[i] + "</loc><lastmod>2026-10-01</lastmod></url>\n";
  }
  Add(site, "/sitemap.xml", "application/xml", sitemap + "</urlset>\n");
  Add(site, "/llms.txt", "text/plain",
      "# Example Store\n\n> Things for sites that want to be found.\n\n## Docs\n\n- [Docs](" +
          site.origin + "/docs/): how it works\n- [Pricing](" + site.origin + "/pricing)\n");
  for (int k = 0; k < kExternalPool; ++k) {
    Add(site, "/ext/partner-" + std::to_string(k), "text/html; charset=utf-8",
        "<!DOCTYPE html><html lang=\"en\"><title>Partner</title><p>A partner's page.</p></html>");
  }
}

}  // namespace

LoopbackSite GenerateSite(int pages, unsigned short port) {
  LoopbackSite site;
  site.origin = "http://127.0.0.1:" + std::to_string(port);
  std::vector<std::string> titles(pages);
  for (int i = 0; i < pages; ++i) {
    std::mt19937 rng(static_cast<unsigned>(i) + 1u);
    titles[i] = i == 0              ? std::string("Home")
                : i < 5             ? Capitalized(kSections[i - 1])
                : i < kFirstArticle ? Capitalized(kFixed[i - 5])
                                    : Capitalized(Words(rng, 3 + rng() % 4));
    site.page_urls.push_back(site.origin + Path(i, titles[i]));
  }
  for (int k = 0; k < kExternalPool; ++k) {
    site.external_urls.push_back("http://localhost:" + std::to_string(port) + "/ext/partner-" +
                                 std::to_string(k));
  }
  for (int i = 0; i < pages; ++i) {
    int internal = 0, external = 0;
    site.page_html.push_back(PageHtml(site, titles, i, internal, external));
    site.html_bytes += site.page_html.back().size();
    site.internal_links += internal;
    site.external_links += external;
    Add(site, site.page_urls[i].substr(site.origin.size()), "text/html; charset=utf-8",
        site.page_html.back(), i);
  }
  AddSiteFiles(site);
  return site;
}

LoopbackServer::LoopbackServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (listen_fd_ < 0 ||
      ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listen_fd_, 512) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
}

LoopbackServer::~LoopbackServer() { Stop(); }

void LoopbackServer::Serve(const LoopbackSite& site) {
  site_ = &site;
  hits_ = std::make_unique<std::atomic<int>[]>(site.page_urls.size());
  ResetCounts();
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

void LoopbackServer::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  ::shutdown(listen_fd_, SHUT_RDWR);  // wakes accept()
  if (acceptor_.joinable()) acceptor_.join();
  ::close(listen_fd_);
  std::unique_lock lock(mutex_);
  for (int fd : connections_) ::shutdown(fd, SHUT_RDWR);
  idle_.wait(lock, [this] { return connections_.empty(); });
}

std::int64_t LoopbackServer::pages_fetched_twice() const {
  std::int64_t twice = 0;
  for (std::size_t i = 0; site_ && i < site_->page_urls.size(); ++i) twice += hits_[i] > 1;
  return twice;
}

void LoopbackServer::ResetCounts() {
  requests_ = 0;
  for (std::size_t i = 0; site_ && i < site_->page_urls.size(); ++i) hits_[i] = 0;
}

void LoopbackServer::AcceptLoop() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    std::lock_guard lock(mutex_);
    if (stopping_) {
      if (fd >= 0) ::close(fd);
      return;
    }
    if (fd < 0) continue;  // EINTR, ECONNABORTED, a full backlog: try again
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connections_.insert(fd);
    std::thread([this, fd] { Session(fd); }).detach();
  }
}

const SiteResource* LoopbackServer::Find(const std::string& target) const {
  static const std::string kMissing = "<!DOCTYPE html><title>Not found</title><p>Not found.</p>";
  static const SiteResource kNotFound{Answer(404, "text/html; charset=utf-8", kMissing, true),
                                      Answer(404, "text/html; charset=utf-8", kMissing, false)};
  auto found = site_->resources.find(target.substr(0, target.find('?')));
  return found == site_->resources.end() ? &kNotFound : &found->second;
}

// One connection: requests read up to their blank line (GET and HEAD carry no body), each
// answered whole, until the client hangs up or asks to close.
void LoopbackServer::Session(int fd) {
  std::string buffer;
  char chunk[16384];
  for (;;) {
    std::size_t end;
    while ((end = buffer.find("\r\n\r\n")) == std::string::npos && buffer.size() < 65536) {
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got <= 0) break;
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    if (end == std::string::npos) break;
    std::string head = buffer.substr(0, end);
    buffer.erase(0, end + 4);
    const std::size_t space = head.find(' ');
    const std::string target = head.substr(space + 1, head.find(' ', space + 1) - space - 1);
    const SiteResource* resource = Find(target);
    const std::string& answer =
        head.compare(0, space, "HEAD") == 0 ? resource->head : resource->get;
    ++requests_;
    if (resource->page >= 0) ++hits_[resource->page];
    std::size_t sent = 0;
    while (sent < answer.size()) {
      const ssize_t put = ::send(fd, answer.data() + sent, answer.size() - sent, MSG_NOSIGNAL);
      if (put <= 0) break;
      sent += static_cast<std::size_t>(put);
    }
    std::transform(head.begin(), head.end(), head.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (sent < answer.size() || head.find("\r\nconnection: close") != std::string::npos) break;
  }
  std::lock_guard lock(mutex_);
  connections_.erase(fd);
  ::close(fd);
  idle_.notify_all();
}

}  // namespace sightline::bench
