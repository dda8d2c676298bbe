// Sitemaps as sitemaps.org defines them: an XML <urlset> of page URLs, an XML <sitemapindex> of
// child sitemap URLs, or a UTF-8 text file of one URL per line. The XML parser (libxml2) runs
// with network access, DTD loading and entity substitution off, so a hostile sitemap cannot make
// it read files or URLs (XXE) or expand entities (billion laughs). Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::site_audit {

// sitemaps.org: "no more than 50,000 URLs and must be no larger than 50MB (52,428,800 bytes)"
// uncompressed. The same caps apply to the sitemaps an index lists.
inline constexpr std::size_t kSitemapMaxUrls = 50000;
inline constexpr std::size_t kSitemapMaxBytes = 50 * 1024 * 1024;

struct SitemapParse {
  enum class Kind {
    kUrlSet,   // <urlset>: locations are page URLs
    kIndex,    // <sitemapindex>: locations are child sitemap URLs
    kText,     // one URL per line
    kInvalid,  // not a sitemap: empty, gzip, XML with another root, text with no URL
  };
  Kind kind = Kind::kInvalid;
  // <loc> values of <url> (or <sitemap>) children of the root, trimmed, in order; for text, the
  // lines that are absolute http(s) URLs. Locs of other vocabularies (image:loc) and
  // xhtml:link alternates are not locations.
  std::vector<std::string> locations;
  // What is wrong, in order: "more than 50,000 URLs: the rest were ignored", "line 7: empty
  // <loc>", "line 3: Opening and ending tag mismatch: url line 2 and urlset" (libxml2's words).
  // A well-formedness error ends the parse; the locations read before it are kept. After 100
  // problems the last entry is "more problems were not listed".
  std::vector<std::string> problems;
  bool truncated = false;  // more than kSitemapMaxUrls locations, or more than kSitemapMaxBytes
};

// REQUIRES: `body` already gunzipped by the caller (a gzip body is reported, not inflated).
// Only the first kSitemapMaxBytes are read.
SitemapParse ParseSitemap(std::string_view body);

// Whether `body` starts with the gzip magic bytes 1f 8b.
bool LooksGzipped(std::string_view body);

}  // namespace sightline::site_audit
