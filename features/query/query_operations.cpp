#include "features/query/query_operations.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "query/query_period.h"
#include "query/stored_rows.h"
#include "core/text.h"
#include "core/url.h"
#include "storage/site_audit_repository.h"
#include "storage/transaction.h"
#include "tools/operation_helpers.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;
using query::MetricValue;

json::array Strings(const std::vector<std::string>& values) {
  json::array out;
  for (const std::string& value : values) out.emplace_back(value);
  return out;
}

json::value ValueJson(const MetricValue& value) {
  switch (value.kind) {
    case MetricValue::Kind::kInteger:
      return value.integer;
    case MetricValue::Kind::kNumber:
      return value.number;
    default:
      return nullptr;
  }
}

double AsDouble(const MetricValue& value) {
  return value.kind == MetricValue::Kind::kInteger ? static_cast<double>(value.integer)
                                                   : value.number;
}

bool HasIntervals(const query::ResultRow& row) {
  return std::any_of(row.metrics.begin(), row.metrics.end(),
                     [](const MetricValue& value) { return value.interval.has_value(); });
}

// Each metric's 95% interval as [low, high], null for a metric without one.
json::array IntervalsJson(const query::ResultRow& row) {
  json::array out;
  for (const MetricValue& value : row.metrics) {
    if (value.interval) out.push_back(json::array{value.interval->first, value.interval->second});
    else out.push_back(nullptr);
  }
  return out;
}

// A rate's change is the difference in percentage points, as the reports give it.
bool IsRate(std::string_view metric) {
  return metric == "bounce_rate" || metric == "percentage" || metric.ends_with("_rate") ||
         metric == "share_of_voice";
}

// The comparison of one row: the previous values (a count absent from the comparison window
// is 0, a rate none), their absolute and percentage changes, and Plausible's `change`.
json::object ComparisonJson(const query::QueryRequest& request, const query::ResultRow& row,
                            const query::ResultRow* previous) {
  json::array metrics, absolute, percentage, change;
  for (std::size_t i = 0; i < request.metrics.size(); ++i) {
    MetricValue before;
    if (previous) before = previous->metrics[i];
    else if (row.metrics[i].kind == MetricValue::Kind::kInteger) before = query::Integer(0);
    metrics.push_back(ValueJson(before));
    const MetricValue& now = row.metrics[i];
    if (now.kind == MetricValue::Kind::kNone || before.kind == MetricValue::Kind::kNone) {
      absolute.push_back(nullptr);
      percentage.push_back(nullptr);
      change.push_back(nullptr);
      continue;
    }
    const double difference = AsDouble(now) - AsDouble(before);
    absolute.push_back(now.kind == MetricValue::Kind::kInteger &&
                               before.kind == MetricValue::Kind::kInteger
                           ? json::value(now.integer - before.integer)
                           : json::value(difference));
    json::value percent = AsDouble(before) == 0
                              ? json::value(nullptr)
                              : json::value(std::round(10000.0 * difference / AsDouble(before)) /
                                            100.0);
    percentage.push_back(percent);
    change.push_back(IsRate(request.metrics[i]) ? json::value(difference) : percent);
  }
  return {{"dimensions", Strings(previous ? previous->dimensions : row.dimensions)},
          {"metrics", std::move(metrics)},
          {"absoluteChange", std::move(absolute)},
          {"percentageChange", std::move(percentage)},
          {"change", std::move(change)}};
}

json::value FilterJson(const query::Filter& filter) {
  json::array out{json::string(query::FilterOpName(filter.op))};
  if (filter.condition()) {
    out.push_back(json::string(filter.dimension));
    out.push_back(Strings(filter.clauses));
    if (!filter.case_sensitive) out.push_back(json::object{{"case_sensitive", false}});
    return out;
  }
  if (filter.op == query::FilterOp::kAnd || filter.op == query::FilterOp::kOr) {
    json::array children;
    for (const query::Filter& child : filter.children) children.push_back(FilterJson(child));
    out.push_back(std::move(children));
    return out;
  }
  out.push_back(FilterJson(filter.children.front()));
  return out;
}

json::object IncludeJson(const query::QueryRequest& request) {
  json::object include{{"time_labels", request.time_labels}, {"total_rows", request.total_rows}};
  if (request.comparison) {
    json::object comparisons{{"mode", request.comparison->preset}};
    if (request.comparison->preset == "custom") {
      comparisons["date_range"] =
          json::array{json::string(request.comparison->from), json::string(request.comparison->to)};
    }
    include["comparisons"] = std::move(comparisons);
  }
  return include;
}

// The request as answered: names as given, the date range as the exact instants it covered.
json::object QueryJson(const query::QueryRequest& request, const reports::ReportingZone& zone,
                       const query::QueryPeriod& period, const std::string& site_id) {
  json::array filters, order;
  for (const query::Filter& filter : request.filters) filters.push_back(FilterJson(filter));
  for (const query::Order& o : request.order_by) {
    order.push_back(json::array{json::string(o.name), o.descending ? "desc" : "asc"});
  }
  json::object out{
      {"site_id", site_id},
      {"dataset", std::string(query::DatasetName(request.dataset))},
      {"metrics", Strings(request.metrics)},
      {"date_range", json::array{json::string(zone.FormatLocal(period.window.start_ms)),
                                 json::string(zone.FormatLocal(period.window.end_ms - 1000))}},
      {"dimensions", Strings(request.dimensions)},
      {"filters", std::move(filters)},
      {"order_by", std::move(order)},
      {"include", IncludeJson(request)},
      {"pagination", json::object{{"limit", request.limit}, {"offset", request.offset}}},
      {"timezone", zone.name()}};
  if (period.comparison) {
    out["comparison_date_range"] =
        json::array{json::string(zone.FormatLocal(period.comparison->start_ms)),
                    json::string(zone.FormatLocal(period.comparison->end_ms - 1000))};
  }
  return out;
}

// Each dataset is read with the permission its reports need: `query` itself needs
// analytics.view, the crawler dataset bots.view too, AI visibility aivisibility.view too.
Result<void> MayRead(const OperationContext& context, query::Dataset dataset) {
  const identity::Permission needed = dataset == query::Dataset::kCrawlers
                                          ? identity::Permission::kBotsView
                                      : dataset == query::Dataset::kAiVisibility
                                          ? identity::Permission::kAiVisibilityView
                                          : identity::Permission::kAnalyticsView;
  if (context.permissions.Has(needed)) return {};
  return Error(core::ErrorCode::kPermDenied,
               "The " + std::string(query::DatasetName(dataset)) + " dataset needs the permission " +
                   std::string(identity::PermissionName(needed)) + ".");
}

// The query of `body` about `project`.
Result<json::value> Answer(OperationContext& context, const storage::ProjectRecord& project,
                           const json::object& body) {
  auto request = query::ParseQueryRequest(body);
  if (!request) return request.error();
  if (auto allowed = MayRead(context, request->dataset); !allowed) return allowed.error();
  auto zone = reports::ReportingZone::Find(project.reporting_timezone);
  if (!zone) return zone.error();
  auto period = query::ResolvePeriod(*request, *zone, context.clock.NowMillis(),
                                     zone->DayOf(project.created_at));
  if (!period) return period.error();
  auto buckets = query::BucketsOf(*request, *zone, period->days, period->window);
  if (!buckets) return buckets.error();
  query::ReadBudget budget(context.clock);  // shared by the selection and the comparison
  // One dataset's answer over one window.
  const auto evaluate = [&](const query::QueryRequest& asked, reports::DayRange days,
                            reports::UtcWindow window,
                            const query::TimeBuckets& at) -> Result<query::QueryAnswer> {
    if (asked.dataset == query::Dataset::kAiVisibility) {
      auto brands = query::StoredBrands(context.store, project.id);
      if (!brands) return brands.error();
      return query::AnswerAiVisibility(
          asked, *brands,
          query::StoredAnswers(context.store, budget, project.id, *zone, days, window), at);
    }
    if (asked.dataset == query::Dataset::kCrawlers) {
      return query::AnswerCrawlers(
          asked, query::StoredRequests(context.store, budget, project.id, *zone, days, window),
          at);
    }
    return query::AnswerWeb(asked,
                            query::StoredVisits(context.store, budget, project.id, *zone,
                                                days, window, query::ReadingOf(asked)),
                            at, project.domains);
  };
  auto answer = evaluate(*request, period->days, period->window, *buckets);
  if (!answer) return answer.error();

  std::map<std::vector<std::string>, query::ResultRow> previous;
  if (period->comparison) {
    query::QueryRequest whole = *request;  // every comparison row, to match the page's rows
    whole.offset = 0;
    whole.limit = std::numeric_limits<std::int64_t>::max();
    auto then = query::BucketsOf(whole, *zone, *period->comparison_days, *period->comparison);
    if (!then) return then.error();
    // Time rows are compared bucket by bucket: the n-th bucket with the n-th; a comparison
    // bucket beyond the selection's matches none (its label cannot be one of theirs).
    for (std::size_t i = 0; i < then->labels.size(); ++i) {
      then->labels[i] = i < buckets->labels.size() ? buckets->labels[i] : "\x1e" + then->labels[i];
    }
    auto compared = evaluate(whole, *period->comparison_days, *period->comparison, *then);
    if (!compared) return compared.error();
    for (query::ResultRow& row : compared->rows) {
      previous.emplace(row.dimensions, std::move(row));
    }
  }

  json::array results;
  for (const query::ResultRow& row : answer->rows) {
    json::array metrics;
    for (const MetricValue& value : row.metrics) metrics.push_back(ValueJson(value));
    json::object result{{"dimensions", Strings(row.dimensions)},
                        {"metrics", std::move(metrics)}};
    if (HasIntervals(row)) result["intervals"] = IntervalsJson(row);
    if (period->comparison) {
      const auto it = previous.find(row.dimensions);
      result["comparison"] =
          ComparisonJson(*request, row, it == previous.end() ? nullptr : &it->second);
    }
    results.push_back(std::move(result));
  }
  json::object meta;
  if (request->time_labels) meta["time_labels"] = Strings(buckets->labels);
  if (request->total_rows) meta["total_rows"] = answer->total_rows;
  const std::string site_id = request->site_id.empty() ? project.id : request->site_id;
  return json::object{{"results", std::move(results)},
                      {"meta", std::move(meta)},
                      {"query", QueryJson(*request, *zone, *period, site_id)}};
}

Result<json::value> RunQuery(OperationContext& context, const json::object& args) {
  json::object body = args;
  body.erase("orgSlug");
  body.erase("projectId");
  return Answer(context, *context.project, body);
}

std::string HostName(std::string text) {
  text = core::ToLowerAscii(text);
  if (const auto url = core::SplitUrl(text)) text = url->host;
  return text.starts_with("www.") ? text.substr(4) : text;
}

// Plausible's site: the key's project by its id, one of its own domains, or the host of one
// of its sites (site audit's, docs/site-audit.md).
Result<void> CheckSite(OperationContext& context, const storage::ProjectRecord& project,
                       const std::string& site_id) {
  if (site_id == project.id) return {};
  if (std::ranges::find(project.domains, HostName(site_id)) != project.domains.end()) return {};
  auto sites = context.store.Read(
      [&](storage::Transaction& tx) { return tx.site_audit().ListAuditSites(project.id); });
  if (!sites) return sites.error();
  for (const storage::SiteRecord& site : *sites) {
    if (HostName(site.origin) == HostName(site_id)) return {};
  }
  return Error::Invalid("site_id", "`site_id` is not this key's project: give its id (" +
                                       project.id + "), one of its domains or the host of one "
                                       "of its sites.");
}

Result<json::value> RunQueryV2(OperationContext& context, const json::object& args) {
  const std::shared_ptr<const storage::ProjectRecord> project = context.principal.project;
  if (!project) return Error(core::ErrorCode::kPermDenied, "Use a project's private API key.");
  const json::value* site = args.if_contains("site_id");
  if (!site || !site->is_string()) return Error::Invalid("site_id", "`site_id` is required.");
  if (auto checked = CheckSite(context, *project, std::string(site->as_string())); !checked) {
    return checked.error();
  }
  return Answer(context, *project, args);
}

}  // namespace

const OperationSpec kQuery{
    .name = "query",
    .summary = "Ask any question of the project's data",
    .description =
        "One request for any figure: `metrics` over a `date_range` (day, 7d, 28d, 30d, 91d, "
        "month, 6mo, 12mo, year, all, or [from, to]), split by `dimensions` (visit:source, "
        "event:page, event:props:<key>, time:day, …), kept by stacked `filters` ([\"is\", "
        "\"visit:country\", [\"DE\"]], contains, matches, their negations, and/or/not, "
        "has_done), ordered by `order_by`, paged by `pagination`; `include.comparisons` adds "
        "each row's previous values and changes. Plausible's Stats API v2 shape: rows hold "
        "`dimensions` and `metrics` arrays in the order asked. Datasets: web (tracked "
        "events; bots and the `__analytics` channel excluded) and crawlers (`requests`, "
        "`pages` by bot:name, bot:vendor, bot:category, bot:verification, bot:is_ai, "
        "event:page, event:hostname) and ai_visibility (`answers`, `mentions`, `citations`, "
        "`mention_rate` and `citation_rate` with 95% `intervals`, `share_of_voice`, "
        "`average_position` by ai:engine, ai:prompt, ai:topic, ai:brand, ai:cited_domain). "
        "docs/query.md lists every name and limit.",
    .tag = "Query",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/query",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey,
    .run = RunQuery,
};

const OperationSpec kQueryV2{
    .name = "query_v2",
    .summary = "Plausible's Stats API v2",
    .description =
        "`query` at Plausible's path, for clients written for Plausible: the same request with "
        "`site_id` (the key's project id, or the host of one of its sites) and the same "
        "answer. Private API keys only (Authorization: Bearer).",
    .tag = "Query",
    .method = core::HttpMethod::kPost,
    .path = "/v2/query",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = identity::CredentialKind::kPrivateApiKey,
    .mcp_exclusion_reason = "The same as `query`, at Plausible's path for its clients.",
    .run = RunQueryV2,
};

}  // namespace sightline::tools
