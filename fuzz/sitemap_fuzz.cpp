// Sitemaps (sitemaps.org): XML urlset and sitemapindex through libxml2's SAX reader, or text.
#include "site_audit/sitemap.h"
#include "fuzz/fuzz_check.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const auto parse = sightline::site_audit::ParseSitemap(body);
  sightline::fuzz::Check(parse.locations.size() <= sightline::site_audit::kSitemapMaxUrls,
                         "at most kSitemapMaxUrls locations");
  (void)sightline::site_audit::LooksGzipped(body);
  return 0;
}
