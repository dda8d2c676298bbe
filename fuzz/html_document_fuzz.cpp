// A crawled page's HTML facts (gumbo): titles, metas, links, images, JSON-LD blocks.
#include "site_audit/html_document.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view html(reinterpret_cast<const char*>(data), size);
  (void)sightline::site_audit::ParseHtml(html);
  return 0;
}
