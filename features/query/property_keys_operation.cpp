#include "features/query/property_keys_operation.h"

#include <algorithm>
#include <map>
#include <vector>

#include "query/query_period.h"
#include "query/query_request.h"
#include "query/stored_rows.h"
#include "tools/operation_helpers.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::int64_t kMaxKeys = 100;

// The `query` request whose window this listing reads: the reports' from/to days, or like
// them the last 30 days when neither is given.
Result<query::QueryRequest> WindowRequest(const json::object& args) {
  const auto from = OptionalString(args, "from");
  const auto to = OptionalString(args, "to");
  if (from.has_value() != to.has_value()) {
    return Error::Invalid(from ? "to" : "from", "Give both `from` and `to`, or neither.");
  }
  json::object body{{"metrics", json::array{"events"}}};
  if (from) body["date_range"] = json::array{json::string(*from), json::string(*to)};
  else body["date_range"] = "30d";
  auto request = query::ParseQueryRequest(body);
  // The only member taken from the caller is the date range: name the argument it came from.
  if (!request) return Error::Invalid("from", request.error().message());
  return request;
}

struct KeyCount {
  std::string key;
  std::int64_t events = 0;
};

// Every custom property key of the window's events with the number of events carrying it, most
// used first (then by key), at most `limit`.
Result<std::vector<KeyCount>> CountKeys(const query::VisitSource& visits, std::int64_t limit) {
  std::map<std::string, std::int64_t, std::less<>> counts;
  auto read = visits([&](const query::Visit& visit) {
    for (const query::VisitEvent& event : visit.events) {
      for (const query::Property& property : event.properties) {
        auto it = counts.find(property.key);
        if (it == counts.end()) it = counts.emplace(property.key, 0).first;
        ++it->second;
      }
    }
  });
  if (!read) return read.error();
  std::vector<KeyCount> keys;
  keys.reserve(counts.size());
  for (auto& [key, events] : counts) keys.push_back({key, events});
  std::sort(keys.begin(), keys.end(), [](const KeyCount& a, const KeyCount& b) {
    return a.events != b.events ? a.events > b.events : a.key < b.key;
  });
  if (static_cast<std::int64_t>(keys.size()) > limit) keys.resize(static_cast<std::size_t>(limit));
  return keys;
}

Result<json::value> RunGetPropertyKeys(OperationContext& context, const json::object& args) {
  auto request = WindowRequest(args);
  if (!request) return request.error();
  const storage::ProjectRecord& project = *context.project;
  auto zone = reports::ReportingZone::Find(project.reporting_timezone);
  if (!zone) return zone.error();
  auto period = query::ResolvePeriod(*request, *zone, context.clock.NowMillis(),
                                     zone->DayOf(project.created_at));
  if (!period) return Error::Invalid("from", period.error().message());
  // The events `query` reads for the same window, with the same read budget.
  query::ReadBudget budget(context.clock);
  // Every key of every event's properties, nothing else.
  query::VisitReading every_key;
  every_key.values.set(static_cast<std::size_t>(query::VisitValue::kProperties));
  auto keys = CountKeys(query::StoredVisits(context.store, budget, project.id, *zone,
                                            period->days, period->window, std::move(every_key)),
                        std::clamp<std::int64_t>(IntegerOr(args, "limit", kMaxKeys), 1, kMaxKeys));
  if (!keys) return keys.error();
  json::array out;
  for (const KeyCount& key : *keys) {
    out.push_back(json::object{{"key", key.key}, {"events", key.events}});
  }
  return json::object{{"from", reports::FormatDate(period->days.first)},
                      {"to", reports::FormatDate(period->days.last)},
                      {"timezone", project.reporting_timezone},
                      {"keys", std::move(out)}};
}

}  // namespace

const OperationSpec kGetPropertyKeys{
    .name = "get_property_keys",
    .summary = "List the custom property keys seen in a period",
    .description =
        "The custom property keys (tags of tracked events not set by Sightline or the SDK) of "
        "the web events of the visits that started between `from` and `to` (days in the "
        "project's reporting timezone; both omitted: the last 30 days), with the number of "
        "events carrying each, most used first, at most `limit` (100). Each key can be a "
        "`query` dimension or filter as `event:props:<key>`.",
    .tag = "Query",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/property-keys",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey,
    .run = RunGetPropertyKeys,
};

}  // namespace sightline::tools
