// A site's llms.txt (llmstxt.org's Markdown layout).
#include "site_audit/llms_txt.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)sightline::site_audit::CheckLlmsTxt(body);
  return 0;
}
