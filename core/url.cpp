#include "core/url.h"

#include <cctype>

#include "core/text.h"

namespace sightline::core {

std::optional<UrlParts> SplitUrl(std::string_view url) {
  for (const char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return std::nullopt;
  }
  const std::size_t colon = url.find("://");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  UrlParts parts;
  parts.scheme = ToLowerAscii(url.substr(0, colon));
  for (const char c : parts.scheme) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') {
      return std::nullopt;
    }
  }
  std::string_view rest = url.substr(colon + 3);
  if (const std::size_t hash = rest.find('#'); hash != std::string_view::npos) {
    parts.has_fragment = true;
    rest = rest.substr(0, hash);
  }
  const std::size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    parts.has_userinfo = true;
    authority = authority.substr(at + 1);
  }
  std::size_t port_at = std::string_view::npos;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port_at = close + 1;
    }
  } else {
    port_at = authority.find(':');
  }
  parts.host = ToLowerAscii(authority.substr(0, port_at));
  if (port_at != std::string_view::npos) {
    parts.port = std::string(authority.substr(port_at + 1));
    if (parts.port.empty() || parts.port.size() > 5 ||
        parts.port.find_first_not_of("0123456789") != std::string::npos) {
      return std::nullopt;
    }
  }
  if (parts.host.empty()) return std::nullopt;
  const std::size_t question = rest.find('?');
  parts.path = std::string(rest.substr(0, question));
  if (question != std::string_view::npos) {
    parts.has_query = true;
    parts.query = std::string(rest.substr(question + 1));
  }
  return parts;
}

std::string OriginOf(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  return ToLowerAscii(url.substr(0, url.find('/', start)));
}

std::string PathOfUrl(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t authority = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::size_t start = url.find_first_of("/?#", authority);
  if (start == std::string_view::npos || url[start] != '/') return "";
  return std::string(url.substr(start, url.find_first_of("?#", start) - start));
}

std::string NormalizeHost(std::string_view host) {
  std::string name = ToLowerAscii(TrimSpaces(host));
  if (name.starts_with('[')) {
    if (const std::size_t close = name.find(']'); close != std::string::npos) name.resize(close + 1);
  } else if (const std::size_t colon = name.find(':');
             colon != std::string::npos && name.find(':', colon + 1) == std::string::npos) {
    name.resize(colon);
  }
  while (name.ends_with('.')) name.pop_back();
  return name;
}

std::string SiteHost(std::string_view host) {
  std::string name = NormalizeHost(host);
  if (name.starts_with("www.") && name.size() > 4) name.erase(0, 4);
  return name;
}

bool IsLoopbackHost(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  // An IPv4 literal in 127/8 ("127.evil.example" is a name, not loopback).
  int dots = 0;
  for (const char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3 && host.starts_with("127.");
}

std::string HostOfUrl(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
    rest = rest.substr(at + 1);
  }
  if (rest.starts_with('[')) {
    rest = rest.substr(0, rest.find(']') + 1);  // an IPv6 literal keeps its brackets
  } else {
    rest = rest.substr(0, rest.find(':'));
  }
  std::string host = ToLowerAscii(rest);
  while (host.ends_with('.')) host.pop_back();
  return host;
}

bool IsWithinDomains(std::string_view host, std::span<const std::string> domains) {
  if (domains.empty() || host.empty()) return false;
  const std::string site = SiteHost(host);
  for (const std::string& domain : domains) {
    const std::string own = SiteHost(domain);
    if (own.empty()) continue;
    if (site == own) return true;
    if (site.size() > own.size() && site.ends_with(own) && site[site.size() - own.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

}  // namespace sightline::core
