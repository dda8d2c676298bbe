// What `query` can ask: its datasets, and the metrics and dimensions of each, as one table
// (query/catalog.cpp) that validation, the documentation and the OpenAPI enums read. Names
// follow Plausible's Stats API v2 where Plausible has the thing (`visitors`, `visit:source`,
// `event:props:<key>`, `time:day`); what only Sightline has gets a prefix of its own (`bot:`,
// `ai:`).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sightline::query {

enum class Dataset : std::uint8_t {
  kWeb = 1,           // visits, pageviews, events, sessions of tracked traffic
  kCrawlers = 2,      // bot requests, by vendor, purpose and verification
  kAiVisibility = 4,  // AI assistants' answers, mentions and citations
};
// "web", "crawlers", "ai_visibility".
std::optional<Dataset> ParseDataset(std::string_view name);
std::string_view DatasetName(Dataset dataset);

// What a figure is counted over, for Plausible's rule that visit metrics (bounce rate, views
// per visit, visit duration) cannot be split by what happens inside a visit.
enum class Scope : std::uint8_t {
  kAny,    // counted either way (visitors, pageviews, time buckets, …)
  kEvent,  // a property of one event (its name, a custom property)
  kVisit,  // a property of the whole visit (its source, its bounce)
};

struct MetricInfo {
  std::string_view name;
  std::uint8_t datasets;  // Dataset bits
  Scope scope;
  std::string_view description;
};

struct DimensionInfo {
  std::string_view name;
  std::uint8_t datasets;
  Scope scope;
  bool time;  // a time bucket (`time`, `time:hour`…): not a filter
  std::string_view description;
};

std::span<const MetricInfo> Metrics();
std::span<const DimensionInfo> Dimensions();

inline bool In(std::uint8_t datasets, Dataset dataset) {
  return (datasets & static_cast<std::uint8_t>(dataset)) != 0;
}

// The metric or dimension of that name in `dataset`, or nullptr. A custom property
// (`event:props:<key>`) is a dimension of the web dataset, answered by the row for
// `event:props:` (its key checked by PropertyKeyOf).
const MetricInfo* FindMetric(std::string_view name, Dataset dataset);
const DimensionInfo* FindDimension(std::string_view name, Dataset dataset);

inline constexpr std::string_view kPropertyPrefix = "event:props:";
// The key of a custom-property dimension; nullopt when `name` is none, or its key is empty,
// longer than kMaxPropertyKeyBytes, or holds control characters.
inline constexpr std::size_t kMaxPropertyKeyBytes = 100;  // the longest tag name ingestion takes
std::optional<std::string_view> PropertyKeyOf(std::string_view name);

}  // namespace sightline::query
