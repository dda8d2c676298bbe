// URLs as the crawler keeps them: references resolved against their page (RFC 3986 §5.2, dot
// segments removed), then normalized so one page has one spelling — scheme and host lowercased,
// the default port and the fragment dropped, an empty path made "/", percent-escapes of
// unreserved characters decoded and the others uppercased. Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sightline::site_audit {

// The absolute, normalized http(s) URL `reference` names on a page at `base`; nullopt for other
// schemes (mailto:, javascript:, data:, tel:), malformed URLs, or URLs with credentials.
std::optional<std::string> ResolveUrl(std::string_view base, std::string_view reference);
// `url` normalized (ResolveUrl against itself); nullopt when it is not an absolute http(s) URL.
std::optional<std::string> NormalizeUrl(std::string_view url);
// "https://host[:port]" of a normalized URL.
std::string UrlOrigin(std::string_view url);
// Path and query ("/a/b?x=1") of a normalized URL: what robots.txt rules are matched against.
std::string UrlTarget(std::string_view url);
// "host[:port]" of a normalized URL (the Host header and the signature's @authority).
std::string UrlAuthority(std::string_view url);
// Whether two normalized URLs are on the same site: the same host, ignoring "www." and the
// scheme (so http→https redirects and the www variant stay internal).
bool SameSite(std::string_view a, std::string_view b);

}  // namespace sightline::site_audit
