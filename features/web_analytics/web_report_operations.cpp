// Web analytics reports (/web-analytics/*). Metric definitions: docs/metrics.md.
#include <algorithm>
#include <cmath>

#include "core/clock.h"
#include "reports/realtime.h"
#include "reports/web_reports.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"
#include "features/web_analytics/web_report_operations.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;
using storage::WebDimension;
using reports::WebTotalsRow;

struct DimensionName {
  std::string_view name;
  WebDimension dimension;
};
constexpr DimensionName kDimensions[] = {
    {"top_page", WebDimension::kPage},         {"entry_page", WebDimension::kEntryPage},
    {"exit_page", WebDimension::kExitPage},    {"referrer", WebDimension::kReferrer},
    {"utm_source", WebDimension::kUtmSource},  {"utm_medium", WebDimension::kUtmMedium},
    {"utm_campaign", WebDimension::kUtmCampaign}, {"utm_term", WebDimension::kUtmTerm},
    {"utm_content", WebDimension::kUtmContent}, {"country", WebDimension::kCountry},
    {"region", WebDimension::kRegion},         {"city", WebDimension::kCity},
    {"browser", WebDimension::kBrowser},       {"os", WebDimension::kOs},
    {"device", WebDimension::kDevice},         {"event_channel", WebDimension::kEventChannel},
    {"event", WebDimension::kEvent},           {"source", WebDimension::kSource},
    {"channel", WebDimension::kChannel},
};

WebDimension DimensionOf(const json::object& args) {
  const std::string name = OptionalString(args, "dimension").value_or("top_page");
  for (const DimensionName& entry : kDimensions) {
    if (entry.name == name) return entry.dimension;
  }
  return WebDimension::kPage;  // the schema's enum admits nothing else
}

// The report's period and, from `filter` (dimension:value), the visits it keeps.
Result<ReportSetup> WebSetup(OperationContext& context, const json::object& args) {
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  const std::optional<std::string> filter = OptionalString(args, "filter");
  if (!filter) return setup;
  const std::size_t colon = filter->find(':');
  const std::string_view name = std::string_view(*filter).substr(0, colon);
  const auto known = std::ranges::find(kDimensions, name, &DimensionName::name);
  if (colon == std::string::npos || known == std::end(kDimensions)) {
    return core::Error::Invalid(
        "filter", "Write the filter as dimension:value, with a dimension of get_web_breakdown "
                  "(country:DE, top_page:/pricing).");
  }
  setup->windows.filter = storage::WebFilter{known->dimension, filter->substr(colon + 1)};
  return setup;
}

// HeaderJson, and the filter the report applied.
json::object WebHeaderJson(const ReportSetup& setup) {
  json::object out = HeaderJson(setup);
  if (!setup.windows.filter) return out;
  const auto known = std::ranges::find(kDimensions, setup.windows.filter->dimension,
                                       &DimensionName::dimension);
  out["filter"] = json::object{{"dimension", std::string(known->name)},
                               {"value", setup.windows.filter->value}};
  return out;
}

// ---- Metrics of a visit total (docs/metrics.md).

json::value Ratio(std::int64_t numerator, std::int64_t denominator, double scale, int decimals) {
  if (denominator == 0) return nullptr;  // an average never measured reads null
  const double factor = std::pow(10.0, decimals);
  return std::round(scale * static_cast<double>(numerator) / static_cast<double>(denominator) *
                    factor) / factor;
}

// A mean duration in whole milliseconds; null when nothing was measured.
json::value AverageMs(std::int64_t total_ms, std::int64_t count) {
  if (count == 0) return nullptr;
  return static_cast<std::int64_t>(std::llround(static_cast<double>(total_ms) /
                                                static_cast<double>(count)));
}

json::object MetricsOf(const WebTotalsRow& row) {
  return {{"visitors", row.visitors},
          {"visits", row.visits},
          {"pageviews", row.pageviews},
          {"viewsPerVisit", Ratio(row.pageviews, row.visits, 1.0, 2)},
          {"bounceRate", Ratio(row.bounces, row.visits, 100.0, 2)},
          {"visitDuration", AverageMs(row.duration_ms, row.visits)},
          {"events", row.events}};
}

double AsDouble(const json::value& value) {
  return value.is_int64() ? static_cast<double>(value.as_int64()) : value.as_double();
}

// {value, previous, change, absoluteChange}: change is the percentage change, except for the
// bounce rate (a rate), whose change is the difference in percentage points.
json::object Metric(const json::value& value, const json::value* previous, bool is_rate) {
  json::object metric{{"value", value}};
  if (previous == nullptr) return metric;
  metric["previous"] = *previous;
  if (value.is_null() || previous->is_null()) {
    metric["absoluteChange"] = nullptr;
    metric["change"] = nullptr;
    return metric;
  }
  const double difference = AsDouble(value) - AsDouble(*previous);
  metric["absoluteChange"] = value.is_int64() && previous->is_int64()
                                 ? json::value(value.as_int64() - previous->as_int64())
                                 : json::value(std::round(difference * 100.0) / 100.0);
  metric["change"] = is_rate ? json::value(std::round(difference * 100.0) / 100.0)
                             : PercentageChange(AsDouble(value), AsDouble(*previous));
  return metric;
}

Result<json::value> RunWebAnalytics(OperationContext& context, const json::object& args) {
  auto setup = WebSetup(context, args);
  if (!setup) return setup.error();
  auto summary = reports::SummarizeVisits(context.store, context.project->id, setup->windows);
  if (!summary) return summary.error();
  const json::object current = MetricsOf(summary->current);
  const json::object previous = summary->previous ? MetricsOf(*summary->previous) : json::object{};
  json::object metrics;
  for (const auto& [name, value] : current) {
    const json::value* before = summary->previous ? previous.if_contains(name) : nullptr;
    metrics[name] = Metric(value, before, name == "bounceRate");
  }
  json::object out = WebHeaderJson(*setup);
  out["metrics"] = std::move(metrics);
  return out;
}

json::array PointsJson(const std::vector<WebTotalsRow>& points) {
  json::array out;
  for (const WebTotalsRow& point : points) out.push_back(MetricsOf(point));
  return out;
}

Result<reports::Interval> IntervalOf(const json::object& args) {
  return reports::ParseInterval(OptionalString(args, "interval").value_or("day"));
}

Result<json::value> RunWebTimeline(OperationContext& context, const json::object& args) {
  auto setup = WebSetup(context, args);
  if (!setup) return setup.error();
  auto interval = IntervalOf(args);
  if (!interval) return interval.error();
  auto timeline = reports::VisitTimeline(context.store, context.project->id, setup->zone,
                                         setup->windows, *interval);
  if (!timeline) return timeline.error();
  json::object out = WebHeaderJson(*setup);
  out["interval"] = OptionalString(args, "interval").value_or("day");
  out["buckets"] = BucketsJson(setup->zone, timeline->buckets);
  out["points"] = PointsJson(timeline->points);
  if (setup->windows.comparison) {
    out["previousPeriod"] = json::object{
        {"buckets", BucketsJson(setup->zone, timeline->comparison_buckets)},
        {"points", PointsJson(timeline->comparison_points)}};
  }
  return out;
}

Result<json::value> RunBreakdown(OperationContext& context, const json::object& args) {
  auto setup = WebSetup(context, args);
  if (!setup) return setup.error();
  const WebDimension dimension = DimensionOf(args);
  const std::int64_t limit = IntegerOr(args, "limit", 10);
  const std::int64_t offset = IntegerOr(args, "offset", 0);
  auto breakdown = reports::BreakDown(context.store, context.project->id, dimension,
                                      setup->windows, limit, offset);
  if (!breakdown) return breakdown.error();
  const bool pages = dimension == WebDimension::kPage;
  json::object out = WebHeaderJson(*setup);
  out["dimension"] = OptionalString(args, "dimension").value_or("top_page");
  out["total"] = breakdown->total;
  out["limit"] = limit;
  out["offset"] = offset;
  json::array rows;
  for (const reports::BreakdownRow& row : breakdown->rows) {
    json::object item{{"value", NameOrNull(row.current.key)},
                      {"count", row.current.count},
                      {"visitors", row.current.visitors}};
    if (pages) item["views"] = row.current.pageviews;
    if (row.previous) {
      if (pages) {
        item["previousVisitors"] = row.previous->visitors;
        item["previousViews"] = row.previous->pageviews;
      }
      AddChange(item, "previousCount", row.current.count, row.previous->count);
    }
    rows.push_back(std::move(item));
  }
  out["rows"] = std::move(rows);
  return out;
}

Result<json::value> RunPageDurations(OperationContext& context, const json::object& args) {
  auto setup = WebSetup(context, args);
  if (!setup) return setup.error();
  const std::int64_t limit = IntegerOr(args, "limit", 10);
  const std::int64_t offset = IntegerOr(args, "offset", 0);
  auto pages = reports::PageDurations(context.store, context.project->id, setup->windows, limit,
                                      offset);
  if (!pages) return pages.error();
  json::object out = WebHeaderJson(*setup);
  out["limit"] = limit;
  out["offset"] = offset;
  json::array rows;
  for (const reports::DurationRow& row : *pages) {
    const json::value average = AverageMs(row.current.duration_ms, row.current.measured);
    json::object item{{"path", NameOrNull(row.current.path)},
                      {"pageviews", row.current.pageviews},
                      {"avgDurationMs", average}};
    if (row.previous) {
      const json::value before = AverageMs(row.previous->duration_ms, row.previous->measured);
      item["previousAvgDurationMs"] = before;
      const bool both = !average.is_null() && !before.is_null();
      item["absoluteChange"] = both ? json::value(average.as_int64() - before.as_int64())
                                    : json::value(nullptr);
      item["percentageChange"] =
          both ? PercentageChange(static_cast<double>(average.as_int64()),
                                  static_cast<double>(before.as_int64()))
               : json::value(nullptr);
    }
    rows.push_back(std::move(item));
  }
  out["rows"] = std::move(rows);
  return out;
}

Result<json::value> RunDimensionTimeline(OperationContext& context, const json::object& args) {
  auto setup = WebSetup(context, args);
  if (!setup) return setup.error();
  auto interval = IntervalOf(args);
  if (!interval) return interval.error();
  auto timeline = reports::DimensionSeries(context.store, context.project->id, setup->zone,
                                           setup->windows, DimensionOf(args), *interval,
                                           IntegerOr(args, "limit", 5),
                                           OptionalString(args, "value"));
  if (!timeline) return timeline.error();
  json::object out = WebHeaderJson(*setup);
  out["dimension"] = OptionalString(args, "dimension").value_or("top_page");
  out["interval"] = OptionalString(args, "interval").value_or("day");
  out["buckets"] = BucketsJson(setup->zone, timeline->buckets);
  out["series"] = SeriesJson(timeline->series, "value");
  if (setup->windows.comparison) {
    out["comparisonData"] =
        json::object{{"buckets", BucketsJson(setup->zone, timeline->comparison_buckets)},
                     {"series", SeriesJson(timeline->comparison_series, "value")}};
  }
  return out;
}

json::array RealtimeValuesJson(const std::vector<reports::RealtimeValue>& values) {
  json::array out;
  for (const reports::RealtimeValue& v : values) {
    out.push_back(json::object{{"value", v.value.empty() ? json::value(nullptr) : json::value(v.value)},
                               {"visitors", v.visitors}});
  }
  return out;
}

Result<json::value> RunRealtime(OperationContext& context, const json::object&) {
  auto realtime =
      reports::ReadRealtime(context.store, context.project->id, context.clock.NowMillis());
  if (!realtime) return realtime.error();
  json::array minutes;
  for (const reports::RealtimeMinute& minute : realtime->minutes) {
    minutes.push_back(json::object{{"start", core::FormatRfc3339(minute.start_ms)},
                                   {"visitors", minute.visitors},
                                   {"pageviews", minute.pageviews}});
  }
  return json::value(json::object{{"now", core::FormatRfc3339(realtime->now_ms)},
                                  {"visitorsNow", realtime->visitors_now},
                                  {"visitors", realtime->visitors},
                                  {"pageviews", realtime->pageviews},
                                  {"minutes", std::move(minutes)},
                                  {"pages", RealtimeValuesJson(realtime->pages)},
                                  {"sources", RealtimeValuesJson(realtime->sources)},
                                  {"complete", realtime->complete}});
}

}  // namespace

const OperationSpec kWebAnalytics{
    .name = "get_web_analytics",
    .summary = "Web analytics summary",
    .description = "Visitors, visits, pageviews, views per visit, bounce rate (%), average "
                   "visit duration (ms) and events over the selected period, each with its "
                   "`previous` value from the comparison window and the `change` (percent; "
                   "percentage points for the bounce rate). Bots and the `__analytics` "
                   "channel are excluded; definitions in docs/metrics.md.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunWebAnalytics,
};

const OperationSpec kWebTimeline{
    .name = "get_web_timeline",
    .summary = "Web analytics over time",
    .description = "The summary metrics per bucket (hour, day, ISO week or month of the "
                   "reporting timezone); `previousPeriod` gives the comparison window at the "
                   "same interval. A visit spanning two buckets counts in both.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics/timeline",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunWebTimeline,
};

const OperationSpec kWebBreakdown{
    .name = "get_web_breakdown",
    .summary = "Web analytics by dimension",
    .description = "Values of one dimension ranked by `count` (then value), with unique "
                   "`visitors` (and `views` for top_page); `previousCount` (plus "
                   "`previousVisitors` and `previousViews` for top_page) and change fields "
                   "from the comparison window.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics/breakdown",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunBreakdown,
};

const OperationSpec kPageDurations{
    .name = "get_page_durations",
    .summary = "Average time on page",
    .description = "Pages by pageviews with the average time until the visit's next pageview "
                   "(ms; null when no pageview of the page was followed by another), and "
                   "`previousAvgDurationMs` with change fields from the comparison window.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics/pages/duration",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunPageDurations,
};

const OperationSpec kDimensionTimeline{
    .name = "get_web_dimension_timeline",
    .summary = "A dimension's top values over time",
    .description = "The top `limit` values of a dimension (as ranked by the breakdown) with "
                   "their count per bucket, or with `value` that one value whatever its rank "
                   "(zeros where it was not seen); `comparisonData` gives the same values over "
                   "the comparison window at the same interval.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics/dimension/timeline",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunDimensionTimeline,
};

const OperationSpec kWebRealtime{
    .name = "get_web_realtime",
    .summary = "Who is on the site now",
    .description = "The distinct visitors of the last 5 minutes (`visitorsNow`), and over the "
                   "last 30: visitors, pageviews, a per-minute series (`minutes`, oldest first, "
                   "the last one the current minute) and the top pages and sources by "
                   "visitors. Read from the events as they arrive, not from the rollups: bots "
                   "and the `__analytics` channel left out. `complete` is false when the half "
                   "hour had more events than are read (50,000): the figures are then those of "
                   "its latest events.",
    .tag = "Web analytics",
    .method = core::HttpMethod::kGet,
    .path = "/web-analytics/realtime",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunRealtime,
};

}  // namespace sightline::tools
