#include "site_audit/crawl_url.h"

#include <cctype>
#include <utility>
#include <vector>

#include "core/text.h"

namespace sightline::site_audit {
namespace {

struct Reference {
  std::string scheme, authority, path, query, fragment;
  bool has_authority = false, has_query = false;
};

// RFC 3986 Appendix B, by hand.
Reference Split(std::string_view s) {
  Reference r;
  const std::size_t colon = s.find(':');
  const std::size_t delimiter = s.find_first_of("/?#");
  if (colon != std::string_view::npos && colon > 0 && colon < delimiter) {
    bool scheme_chars = std::isalpha(static_cast<unsigned char>(s[0])) != 0;
    for (char c : s.substr(0, colon)) {
      scheme_chars = scheme_chars && (std::isalnum(static_cast<unsigned char>(c)) || c == '+' ||
                                      c == '-' || c == '.');
    }
    if (scheme_chars) {
      r.scheme = core::ToLowerAscii(s.substr(0, colon));
      s.remove_prefix(colon + 1);
    }
  }
  if (s.substr(0, 2) == "//") {
    s.remove_prefix(2);
    const std::size_t end = std::min(s.find_first_of("/?#"), s.size());
    r.authority = std::string(s.substr(0, end));
    r.has_authority = true;
    s.remove_prefix(end);
  }
  if (const std::size_t hash = s.find('#'); hash != std::string_view::npos) {
    r.fragment = std::string(s.substr(hash + 1));
    s = s.substr(0, hash);
  }
  if (const std::size_t question = s.find('?'); question != std::string_view::npos) {
    r.query = std::string(s.substr(question + 1));
    r.has_query = true;
    s = s.substr(0, question);
  }
  r.path = std::string(s);
  return r;
}

// RFC 3986 §5.2.4.
std::string RemoveDotSegments(std::string_view path) {
  std::vector<std::string_view> out;
  const bool absolute = !path.empty() && path.front() == '/';
  bool trailing_slash = false;
  std::size_t start = absolute ? 1 : 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view segment = path.substr(start, end - start);
    trailing_slash = end == path.size() && (segment == "." || segment == "..");
    if (segment == "..") {
      if (!out.empty()) out.pop_back();
    } else if (segment != ".") {
      out.push_back(segment);
    }
    start = end + 1;
  }
  std::string result = absolute ? "/" : "";
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i) result += '/';
    result += out[i];
  }
  if (trailing_slash && (result.empty() || result.back() != '/')) result += '/';
  return result;
}

std::string Merge(const Reference& base, std::string_view path) {
  if (base.has_authority && base.path.empty()) return "/" + std::string(path);
  const std::size_t slash = base.path.rfind('/');
  if (slash == std::string::npos) return std::string(path);
  return base.path.substr(0, slash + 1) + std::string(path);
}

bool Unreserved(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes escapes of unreserved characters, uppercases the rest, escapes raw spaces and bytes
// outside ASCII (browsers send them so), and a `%` that starts no escape: kept bare, it could
// start one once its neighbours are decoded ("%%32e" → "%2e"), and a second normalization
// would then read another URL (fuzz/url_fuzz.cpp checks that normalizing is idempotent).
std::string NormalizeEscapes(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '%' && i + 2 < text.size() + 0 && HexValue(text[i + 1]) >= 0 &&
        HexValue(text[i + 2]) >= 0) {
      const char decoded = static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2]));
      if (Unreserved(decoded)) {
        out += decoded;
      } else {
        out += '%';
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i + 1])));
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i + 2])));
      }
      i += 2;
    } else if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '`' ||
               c == '%') {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The host and the port of an authority: an IPv6 literal is "[…]" whole, with nothing after it
// but ":port", and any other host ends at its first colon. (Taking the last colon as the port
// read "a:b:80" as host "a:b" and "[::1x:" as host "[::1x", neither of which reads back the
// same: found by fuzz/url_fuzz.cpp.)
std::optional<std::pair<std::string, std::string>> SplitHostPort(std::string host) {
  std::string port;
  const bool literal = host.front() == '[';
  const std::size_t end = literal ? host.find(']') : host.find(':');
  if (literal && end == std::string::npos) return std::nullopt;
  const std::size_t colon = literal ? end + 1 : end;
  if (colon < host.size()) {
    if (host[colon] != ':') return std::nullopt;
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return std::pair{std::move(host), std::move(port)};
}

std::optional<std::string> NormalizeAuthority(std::string_view scheme, std::string_view authority) {
  if (authority.find('@') != std::string_view::npos || authority.empty()) return std::nullopt;
  auto split = SplitHostPort(core::ToLowerAscii(authority));
  if (!split) return std::nullopt;
  auto& [host, port] = *split;
  while (!host.empty() && host.back() == '.') host.pop_back();
  if (host.empty()) return std::nullopt;
  for (char c : host) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == '/' || c == '\\') return std::nullopt;
  }
  if (port.empty() || (scheme == "http" && port == "80") || (scheme == "https" && port == "443")) {
    return host;
  }
  return host + ":" + port;
}

}  // namespace

std::optional<std::string> ResolveUrl(std::string_view base_url, std::string_view reference) {
  reference = core::TrimSpaces(reference);
  const Reference base = Split(base_url);
  const Reference ref = Split(reference);
  Reference target;
  if (!ref.scheme.empty()) {
    target = ref;
  } else if (ref.has_authority) {
    target = ref;
    target.scheme = base.scheme;
  } else {
    target = base;
    target.query = ref.query;
    target.has_query = ref.has_query;
    if (ref.path.empty()) {
      if (!ref.has_query) {
        target.query = base.query;
        target.has_query = base.has_query;
      }
    } else {
      target.path = ref.path.front() == '/' ? ref.path : Merge(base, ref.path);
    }
  }
  if (target.scheme != "http" && target.scheme != "https") return std::nullopt;
  auto authority = NormalizeAuthority(target.scheme, target.authority);
  if (!target.has_authority || !authority) return std::nullopt;
  // Escapes first, then dot segments (RFC 3986 §6.2.2 order): "%2e%2e" decodes to "..", which
  // must go too. Every path is cleaned, a base's taken whole included (a <base href> or a
  // Location header is not normalized), so the result normalizes to itself (as
  // fuzz/url_fuzz.cpp checks: "/b/%2e%2e/c" came out as "/b/../c").
  const std::string path = RemoveDotSegments(NormalizeEscapes(target.path));
  std::string url = target.scheme + "://" + *authority + (path.empty() ? "/" : path);
  if (target.has_query) url += "?" + NormalizeEscapes(target.query);
  return url;
}

std::optional<std::string> NormalizeUrl(std::string_view url) { return ResolveUrl(url, url); }

std::string UrlOrigin(std::string_view url) {
  const std::size_t start = url.find("://");
  if (start == std::string_view::npos) return "";
  const std::size_t end = url.find_first_of("/?", start + 3);
  return std::string(url.substr(0, end));
}

std::string UrlTarget(std::string_view url) {
  const std::string origin = UrlOrigin(url);
  std::string target(url.substr(origin.size()));
  if (target.empty() || target.front() != '/') target.insert(0, "/");
  return target;
}

std::string UrlAuthority(std::string_view url) {
  const std::string origin = UrlOrigin(url);
  const std::size_t start = origin.find("://");
  return start == std::string::npos ? "" : origin.substr(start + 3);
}

bool SameSite(std::string_view a, std::string_view b) {
  auto host = [](std::string_view url) {
    std::string authority = UrlAuthority(url);
    if (authority.rfind("www.", 0) == 0) authority.erase(0, 4);
    return authority;
  };
  return host(a) == host(b);
}

}  // namespace sightline::site_audit
