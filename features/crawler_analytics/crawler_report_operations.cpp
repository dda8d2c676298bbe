#include "features/crawler_analytics/crawler_report_operations.h"

#include "reports/bot_reports.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

// ---- Crawler filters and shapes.

reports::BotFilters Filters(const json::object& args) {
  reports::BotFilters filters;
  filters.actor_type = OptionalString(args, "actorType");
  filters.vendor = OptionalString(args, "vendor");
  filters.bot_name = OptionalString(args, "botName");
  filters.search = OptionalString(args, "search");
  filters.is_ai = OptionalBool(args, "isAi");
  return filters;
}

using RowFields = void (*)(const storage::BotGroupRow& group, json::object& row);

// A ranked crawler report: one page of rows with their comparison figures.
Result<json::value> RankedReport(OperationContext& context, const json::object& args,
                                 storage::BotGrouping grouping, RowFields fields,
                                 bool with_bot_counts) {
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  const std::int64_t limit = IntegerOr(args, "limit", 10);
  const std::int64_t offset = IntegerOr(args, "offset", 0);
  auto report = reports::RankBotRequests(context.store, context.project->id, grouping,
                                         Filters(args), setup->windows, limit, offset);
  if (!report) return report.error();
  json::object out = HeaderJson(*setup);
  out["total"] = report->totals.groups;
  out["limit"] = limit;
  out["offset"] = offset;
  out["totalRequests"] = report->totals.requests;
  if (report->previous_totals) out["previousTotalRequests"] = report->previous_totals->requests;
  json::array rows;
  for (const reports::RankedRow& ranked : report->rows) {
    json::object row;
    fields(ranked.current, row);
    row["requestCount"] = ranked.current.requests;
    if (with_bot_counts) row["botCount"] = ranked.current.distinct_bots;
    if (ranked.previous) {
      if (with_bot_counts) row["previousBotCount"] = ranked.previous->distinct_bots;
      AddChange(row, "previousRequestCount", ranked.current.requests, ranked.previous->requests);
    }
    rows.push_back(std::move(row));
  }
  out["rows"] = std::move(rows);
  return out;
}

// ---- The operations.

Result<json::value> RunTopBots(OperationContext& context, const json::object& args) {
  return RankedReport(
      context, args, storage::BotGrouping::kBot,
      [](const storage::BotGroupRow& group, json::object& row) {
        row["botName"] = NameOrNull(group.key);
        row["vendor"] = group.vendor ? json::value(*group.vendor) : json::value(nullptr);
        row["category"] = group.category ? json::value(*group.category) : json::value(nullptr);
        row["isAi"] = group.is_ai;
        row["verifiedRequestCount"] = group.verified;
        row["spoofedRequestCount"] = group.spoofed;
        row["suspectedRequestCount"] = group.suspected;
      },
      false);
}

Result<json::value> RunBotCountries(OperationContext& context, const json::object& args) {
  return RankedReport(
      context, args, storage::BotGrouping::kCountry,
      [](const storage::BotGroupRow& group, json::object& row) {
        row["country"] = NameOrNull(group.key);
      },
      true);
}

Result<json::value> RunBotCategories(OperationContext& context, const json::object& args) {
  return RankedReport(
      context, args, storage::BotGrouping::kCategory,
      [](const storage::BotGroupRow& group, json::object& row) {
        row["category"] = NameOrNull(group.key);
      },
      false);
}

Result<json::value> RunBotTopPaths(OperationContext& context, const json::object& args) {
  return RankedReport(
      context, args, storage::BotGrouping::kPath,
      [](const storage::BotGroupRow& group, json::object& row) {
        row["path"] = NameOrNull(group.key);
      },
      false);
}

Result<json::value> RunBotTimeline(OperationContext& context, const json::object& args) {
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  const std::string interval_name = OptionalString(args, "interval").value_or("day");
  auto interval = reports::ParseInterval(interval_name);
  if (!interval) return interval.error();
  auto report = reports::BotTimeline(context.store, context.project->id, setup->zone,
                                     setup->windows, *interval, Filters(args),
                                     static_cast<std::size_t>(IntegerOr(args, "limit", 10)));
  if (!report) return report.error();
  json::object out = HeaderJson(*setup);
  out["interval"] = interval_name;
  out["buckets"] = BucketsJson(setup->zone, report->buckets);
  out["series"] = SeriesJson(report->series, "vendor");
  out["totals"] = json::array(report->totals.begin(), report->totals.end());
  if (setup->windows.comparison) {
    out["comparisonBuckets"] = BucketsJson(setup->zone, report->comparison_buckets);
    out["comparisonSeries"] = SeriesJson(report->comparison_series, "vendor");
    out["comparisonTotals"] =
        json::array(report->comparison_totals.begin(), report->comparison_totals.end());
  }
  return out;
}

}  // namespace

const OperationSpec kBotTimeline{
    .name = "get_bot_timeline",
    .summary = "Crawler requests over time, per vendor",
    .description = "Requests per vendor in buckets of an hour, day, ISO week or calendar month "
                   "of the project's reporting timezone (`buckets` are the local start times). "
                   "Vendors ranked by requests in the selected period, at most `limit`; "
                   "`comparisonSeries` gives the same vendors over the comparison window at the "
                   "same interval. `totals` (and `comparisonTotals`) are every vendor's requests "
                   "per bucket, the ranked ones and the rest.",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/timeline",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunBotTimeline,
};

const OperationSpec kTopBots{
    .name = "get_top_bots",
    .summary = "Bots ranked by requests",
    .description = "Bots by requests in the selected period (ties by name), with vendor, "
                   "category and AI flag, the requests split by verification outcome "
                   "(verifiedRequestCount, spoofedRequestCount, suspectedRequestCount), and "
                   "each bot's previousRequestCount.",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/top",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunTopBots,
};

const OperationSpec kBotCountries{
    .name = "get_bot_countries",
    .summary = "Crawler requests and distinct bots per country",
    .description = "Countries (ISO 3166-1 alpha-2 from the client IP; null when unknown) by "
                   "requests, with the number of distinct bots; previousRequestCount and "
                   "previousBotCount per country, change fields describing requests.",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/countries",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunBotCountries,
};

const OperationSpec kBotCategories{
    .name = "get_bot_categories",
    .summary = "Crawler requests per actor category",
    .description = "Requests per actor category (ai_training, ai_search, ai_user_fetch, "
                   "search_engine, …; null for bots the catalog does not know) with "
                   "previousRequestCount. Honours `search` and `actorType`.",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/categories",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunBotCategories,
};

const OperationSpec kBotTopPaths{
    .name = "get_bot_top_paths",
    .summary = "Paths ranked by crawler requests",
    .description = "Requested paths by crawler requests with previousRequestCount; `vendor` "
                   "narrows it to one vendor's bots (which pages does OpenAI fetch?).",
    .tag = "Crawler analytics",
    .method = core::HttpMethod::kGet,
    .path = "/bots/analytics/top-paths",
    .permission = identity::Permission::kBotsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunBotTopPaths,
};

}  // namespace sightline::tools
