// A strict splitter for absolute URLs ("scheme://[userinfo@]host[:port][/path][?query][#frag]"),
// enough to judge redirect URIs and client ids; it does not normalize or decode. Pure.
#pragma once

#include <optional>
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
// "localhost", "127.0.0.1" (any 127/8 address) or "[::1]".
bool IsLoopbackHost(std::string_view host);

}  // namespace sightline::core
