#include "ingest/attribution.h"

#include "core/http_types.h"
#include "core/text.h"

namespace sightline::ingest {

namespace {

constexpr std::size_t kMaxValue = 500;

// The path of an absolute or relative URL: after "scheme://host", before '?' and '#'.
std::string_view PathOf(std::string_view url) {
  if (const auto scheme = url.find("://"); scheme != std::string_view::npos) {
    const auto slash = url.find('/', scheme + 3);
    url = slash == std::string_view::npos ? std::string_view("/") : url.substr(slash);
  }
  return url.substr(0, url.find_first_of("?#"));
}

std::string_view QueryOf(std::string_view url) {
  const auto q = url.find('?');
  if (q == std::string_view::npos) return {};
  const std::string_view rest = url.substr(q + 1);
  return rest.substr(0, rest.find('#'));
}

// Percent-decoding can produce any bytes: keep valid UTF-8 only, cut on a character boundary.
std::optional<std::string> Bounded(std::string_view value) {
  std::string text = core::TruncateUtf8(core::ToValidUtf8(value), kMaxValue);
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace

Attribution ParseAttribution(std::string_view page_url, std::string_view referrer) {
  Attribution out;
  if (!page_url.empty()) {
    std::string path(PathOf(page_url));
    if (auto decoded = core::PercentDecode(path, false)) path = std::move(*decoded);
    out.path = Bounded(path.empty() ? "/" : path);
    for (auto& [key, value] : core::ParseQuery(QueryOf(page_url))) {
      if (key == "utm_source") out.utm_source = Bounded(value);
      else if (key == "utm_medium") out.utm_medium = Bounded(value);
      else if (key == "utm_campaign") out.utm_campaign = Bounded(value);
      else if (key == "utm_term") out.utm_term = Bounded(value);
      else if (key == "utm_content") out.utm_content = Bounded(value);
    }
  }
  if (!referrer.empty()) out.referrer = Bounded(referrer);
  return out;
}

}  // namespace sightline::ingest
