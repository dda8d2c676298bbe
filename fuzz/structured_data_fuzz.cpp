// A page's JSON-LD blocks (<script type="application/ld+json">), checked against the rich
// result rules. The input is split into up to four blocks at NUL bytes.
#include "site_audit/structured_data.h"

#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> blocks;
  while (blocks.size() < 3) {
    const auto nul = rest.find('\0');
    if (nul == std::string_view::npos) break;
    blocks.emplace_back(rest.substr(0, nul));
    rest.remove_prefix(nul + 1);
  }
  blocks.emplace_back(rest);
  (void)sightline::site_audit::CheckJsonLd(blocks);
  return 0;
}
