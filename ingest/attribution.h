// Page and attribution enrichment from the page URL and the document referrer: __path,
// __referrer and the five UTM parameters. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sightline::ingest {

struct Attribution {
  std::optional<std::string> path;  // "/pricing" (no query, no fragment), percent-decoded
  std::optional<std::string> referrer;
  std::optional<std::string> utm_source, utm_medium, utm_campaign, utm_term, utm_content;
};

// `page_url` is the SDK's $url (or, without it, the request's Referer header, which browsers
// set to the page); `referrer` the SDK's $referrer. Either may be empty.
Attribution ParseAttribution(std::string_view page_url, std::string_view referrer);

}  // namespace sightline::ingest
