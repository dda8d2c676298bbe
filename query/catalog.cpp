#include "query/catalog.h"

#include <algorithm>
#include <array>

namespace sightline::query {
namespace {

constexpr std::uint8_t kWeb = static_cast<std::uint8_t>(Dataset::kWeb);
constexpr std::uint8_t kCrawlers = static_cast<std::uint8_t>(Dataset::kCrawlers);
constexpr std::uint8_t kAi = static_cast<std::uint8_t>(Dataset::kAiVisibility);
constexpr std::uint8_t kAll = kWeb | kCrawlers | kAi;

constexpr auto kMetrics = std::to_array<MetricInfo>({
    {"visitors", kWeb, Scope::kAny, "Unique visitors"},
    {"visits", kWeb, Scope::kAny, "Visits (sessions)"},
    {"pageviews", kWeb, Scope::kAny, "Pageviews"},
    {"events", kWeb, Scope::kAny, "Events of every kind, pageviews included"},
    {"views_per_visit", kWeb, Scope::kVisit, "Pageviews per visit"},
    {"bounce_rate", kWeb, Scope::kVisit, "Share of visits with one pageview, in percent"},
    {"visit_duration", kWeb, Scope::kVisit, "Mean visit duration in seconds"},
    {"time_on_page", kWeb, Scope::kEvent, "Mean time on a page in seconds"},
    {"percentage", kWeb | kCrawlers, Scope::kAny,
     "A row's share of the total (visitors, or requests for crawlers), in percent"},
    {"requests", kCrawlers, Scope::kAny, "Bot requests"},
    {"pages", kCrawlers, Scope::kAny, "Distinct paths requested"},
    {"answers", kAi, Scope::kAny, "AI answers collected"},
    {"mentions", kAi, Scope::kAny, "Answers that mention the brand"},
    {"citations", kAi, Scope::kAny, "Answers that cite the brand's domains"},
    {"mention_rate", kAi, Scope::kAny, "Share of answers mentioning the brand, with its interval"},
    {"citation_rate", kAi, Scope::kAny, "Share of answers citing the brand, with its interval"},
    {"share_of_voice", kAi, Scope::kAny, "The brand's share of all brands' mentions"},
    {"average_position", kAi, Scope::kAny, "Mean rank of the brand among brands mentioned"},
});

constexpr auto kDimensions = std::to_array<DimensionInfo>({
    {"event:page", kWeb | kCrawlers, Scope::kEvent, false, "Page path"},
    {"event:hostname", kCrawlers, Scope::kEvent, false, "Host name of the page"},
    {"event:name", kWeb, Scope::kEvent, false, "Event name (`screen_view` for pageviews)"},
    {"event:channel", kWeb, Scope::kEvent, false, "Event channel"},
    {"event:props:", kWeb, Scope::kEvent, false, "A custom property: event:props:<key>"},
    {"visit:entry_page", kWeb, Scope::kVisit, false, "First page of the visit"},
    {"visit:exit_page", kWeb, Scope::kVisit, false, "Last page of the visit"},
    {"visit:source", kWeb, Scope::kVisit, false, "Source of the visit"},
    {"visit:channel", kWeb, Scope::kVisit, false, "Acquisition channel of the visit"},
    {"visit:referrer", kWeb, Scope::kVisit, false,
     "Domain of the site that referred the visit (none: direct or from the site itself)"},
    {"visit:referrer_url", kWeb, Scope::kVisit, false,
     "Full URL of the referrer of visit:referrer"},
    {"visit:utm_source", kWeb, Scope::kVisit, false, "utm_source"},
    {"visit:utm_medium", kWeb, Scope::kVisit, false, "utm_medium"},
    {"visit:utm_campaign", kWeb, Scope::kVisit, false, "utm_campaign"},
    {"visit:utm_content", kWeb, Scope::kVisit, false, "utm_content"},
    {"visit:utm_term", kWeb, Scope::kVisit, false, "utm_term"},
    {"visit:country", kWeb | kCrawlers, Scope::kVisit, false, "ISO 3166-1 country code"},
    {"visit:region", kWeb, Scope::kVisit, false, "ISO 3166-2 region code"},
    {"visit:city", kWeb, Scope::kVisit, false, "City name"},
    {"visit:device", kWeb, Scope::kVisit, false, "Device class"},
    {"visit:browser", kWeb, Scope::kVisit, false, "Browser"},
    {"visit:os", kWeb, Scope::kVisit, false, "Operating system"},
    {"bot:name", kCrawlers, Scope::kAny, false, "Crawler name (GPTBot, Googlebot, …)"},
    {"bot:vendor", kCrawlers, Scope::kAny, false, "Crawler operator (OpenAI, Google, …)"},
    {"bot:category", kCrawlers, Scope::kAny, false, "Crawler purpose (search, AI training, …)"},
    {"bot:verification", kCrawlers, Scope::kAny, false,
     "verified_bot, spoofed_bot or suspected_bot"},
    {"bot:is_ai", kCrawlers, Scope::kAny, false, "Whether the crawler is an AI crawler"},
    {"ai:engine", kAi, Scope::kAny, false, "AI engine asked"},
    {"ai:prompt", kAi, Scope::kAny, false, "Prompt asked"},
    {"ai:topic", kAi, Scope::kAny, false, "Topic of the prompt"},
    {"ai:brand", kAi, Scope::kAny, false, "Brand mentioned"},
    {"ai:cited_domain", kAi, Scope::kAny, false, "Domain an answer cites"},
    {"time", kAll, Scope::kAny, true, "Time buckets sized to the date range"},
    {"time:hour", kAll, Scope::kAny, true, "Hours in the project's timezone"},
    {"time:day", kAll, Scope::kAny, true, "Days in the project's timezone"},
    {"time:week", kAll, Scope::kAny, true, "ISO weeks in the project's timezone"},
    {"time:month", kAll, Scope::kAny, true, "Months in the project's timezone"},
});

}  // namespace

std::optional<Dataset> ParseDataset(std::string_view name) {
  if (name == "web") return Dataset::kWeb;
  if (name == "crawlers") return Dataset::kCrawlers;
  if (name == "ai_visibility") return Dataset::kAiVisibility;
  return std::nullopt;
}

std::string_view DatasetName(Dataset dataset) {
  switch (dataset) {
    case Dataset::kWeb:
      return "web";
    case Dataset::kCrawlers:
      return "crawlers";
    case Dataset::kAiVisibility:
      return "ai_visibility";
  }
  return "web";
}

std::span<const MetricInfo> Metrics() { return kMetrics; }
std::span<const DimensionInfo> Dimensions() { return kDimensions; }

const MetricInfo* FindMetric(std::string_view name, Dataset dataset) {
  const auto it = std::find_if(kMetrics.begin(), kMetrics.end(), [&](const MetricInfo& m) {
    return m.name == name && In(m.datasets, dataset);
  });
  return it == kMetrics.end() ? nullptr : &*it;
}

const DimensionInfo* FindDimension(std::string_view name, Dataset dataset) {
  if (name.starts_with(kPropertyPrefix)) {
    if (!PropertyKeyOf(name)) return nullptr;
    name = kPropertyPrefix;
  }
  const auto it = std::find_if(kDimensions.begin(), kDimensions.end(), [&](const DimensionInfo& d) {
    return d.name == name && In(d.datasets, dataset);
  });
  return it == kDimensions.end() ? nullptr : &*it;
}

std::optional<std::string_view> PropertyKeyOf(std::string_view name) {
  if (!name.starts_with(kPropertyPrefix)) return std::nullopt;
  const std::string_view key = name.substr(kPropertyPrefix.size());
  if (key.empty() || key.size() > kMaxPropertyKeyBytes) return std::nullopt;
  for (const char c : key) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
  }
  return key;
}

}  // namespace sightline::query
