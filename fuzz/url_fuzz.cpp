// URLs from outside: core's splitting (redirect URIs, origins, Signature-Agent) and the
// crawler's resolution of a page's links against its URL. A normalized URL is the crawler's
// key for a page, so normalizing it again must not change it.
#include "site_audit/crawl_url.h"
#include "core/url.h"
#include "fuzz/fuzz_check.h"

using sightline::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string base = input.ConsumeRandomLengthString(256);
  const std::string reference = input.ConsumeRemainingBytesAsString();
  for (const std::string* url : {&base, &reference}) {
    if (const auto parts = sightline::core::SplitUrl(*url)) {
      (void)sightline::core::IsLoopbackHost(parts->host);
    }
    (void)sightline::core::OriginOf(*url);
    (void)sightline::core::PathOfUrl(*url);
  }
  const auto resolved = sightline::site_audit::ResolveUrl(base, reference);
  if (!resolved) return 0;
  const auto again = sightline::site_audit::NormalizeUrl(*resolved);
  Check(again.has_value(), "a resolved URL normalizes");
  Check(*again == *resolved, "normalizing a resolved URL changes nothing");
  (void)sightline::site_audit::UrlOrigin(*resolved);
  (void)sightline::site_audit::UrlTarget(*resolved);
  (void)sightline::site_audit::UrlAuthority(*resolved);
  (void)sightline::site_audit::SameSite(*resolved, base);
  return 0;
}
