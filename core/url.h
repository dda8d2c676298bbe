// A strict splitter for absolute URLs ("scheme://[userinfo@]host[:port][/path][?query][#frag]"),
// enough to judge redirect URIs and client ids; it does not normalize or decode. Pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sightline::core {

struct UrlParts {
  std::string scheme;  // lowercased
  std::string host;    // lowercased; IPv6 literals keep their brackets
  std::string port;    // as written; empty when absent
  std::string path;    // from the first '/' up to '?' or '#'; may be empty
  std::string query;   // after '?' (without it), up to '#'
  bool has_query = false;
  bool has_userinfo = false;
  bool has_fragment = false;
};

// nullopt unless `url` is absolute with a non-empty host and has no whitespace or control
// characters. Schemes without an authority ("mailto:x") are nullopt too.
std::optional<UrlParts> SplitUrl(std::string_view url);
// The scheme and authority of a URL, lowercased: "https://Host:8443/base" → "https://host:8443".
std::string OriginOf(std::string_view url);
// What follows the origin, up to '?' or '#': "https://host/api?x" → "/api"; "" for none.
std::string PathOfUrl(std::string_view url);
// A Host header's name as stored and compared: lowercased, without its port and trailing dots:
// "WWW.Example.COM.:8080" → "www.example.com", "[::1]:80" → "[::1]". An unbracketed name with
// several colons (a bare IPv6 address) keeps them. "" for a blank one.
std::string NormalizeHost(std::string_view host);
// The name a site goes by, for matching traffic to it: NormalizeHost without a leading "www."
// (example.com and www.example.com are one site for reports).
std::string SiteHost(std::string_view host);
// "localhost", "127.0.0.1" (any 127/8 address) or "[::1]".
bool IsLoopbackHost(std::string_view host);
// The host of an absolute URL, lowercased, without userinfo, port and trailing dots
// ("https://User@Sub.Example.com:8443/x" → "sub.example.com"), or of an Android app referrer
// ("android-app://com.google.android.gm" → the package); "" otherwise. Looser than SplitUrl:
// it reads what browsers send as a referrer, not what a client registers.
std::string HostOfUrl(std::string_view url);
// Whether `host` is one of `domains` or below one (blog.example.com is within example.com),
// each compared as SiteHost: a project's own domains (its `domains` setting).
bool IsWithinDomains(std::string_view host, std::span<const std::string> domains);

}  // namespace sightline::core
